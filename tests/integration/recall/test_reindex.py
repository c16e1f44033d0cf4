"""`wave reindex`: the drift check sees both directions and the rebuild repairs them."""

from __future__ import annotations

import pytest

from archive.embedder import Embedder
from archive.models import ArchiveRecord
from wave_agent.cli.recall_cmd import _drift, rebuild
from wave_agent.services import Services
from wave_agent.settings import Settings
from wave_agent.write.writer import Writer

pytestmark = pytest.mark.neo4j


async def test_drift_is_listed_then_repaired(settings: Settings, user_id: str) -> None:
    async with Services(settings) as services:
        writer: Writer = await services.writer()
        kept = (await writer.remember(user_id, "The boat is moored in Gdynia")).fact
        lost = (await writer.remember(user_id, "My passport expires in March 2027")).fact
        old = (await writer.remember(user_id, "I live in Berlin")).fact
        assert kept and lost and old
        await writer.supersede(user_id, old.id, "I live in Munich now")
        archive = await services.archive()
        await archive.delete(user_id, [lost.id])  # a vector lost
        vector = (await services.embedder().embed(["orphan"]))[0]
        await archive.upsert(user_id, [ArchiveRecord("f-orphan00", "orphan", "event",
                                                     "observation", "active", kept.created_at,
                                                     vector=vector)])
        drift = await _drift(services, user_id)
        assert drift["facts_without_vectors"] == [lost.id]
        assert drift["vectors_without_facts"] == ["f-orphan00"]

        steps: list[tuple[int, int]] = []
        result = await rebuild(services, user_id, archive, lambda d, t: steps.append((d, t)))
        assert result["indexed"] == 4 and result["removed_vectors"] == 1
        assert steps[-1] == (4, 4)
        assert await _drift(services, user_id) == {
            "facts_without_vectors": [], "vectors_without_facts": [], "pending_index": []}
        # Superseded records are reindexed too, so history questions still find them.
        engine = await services.recall()
        hits = await engine.search(user_id, "where did I live", k=5, history=True)
        assert old.id in {h.fact.id for h in hits}
        assert hits.degraded.reasons.get("semantic") is None


async def test_an_archive_of_another_model_is_reported_until_reindexed(
    settings: Settings, user_id: str, embedder: Embedder
) -> None:
    """EMBEDDING_MODEL changed (MiniLM -> the default): recall says `wave reindex`, plainly,
    instead of answering from the graph alone as if nothing were missing; the rebuild fixes it."""
    old_settings = settings.model_copy(update={"embedding_model": "all-MiniLM-L6-v2"})
    async with Services(old_settings) as services:
        writer: Writer = await services.writer()
        kept = (await writer.remember(user_id, "Моя собака породы корги, зовут Бублик")).fact
        assert kept is not None
    async with Services(settings) as services:
        services._cache["embedder"] = embedder  # the default model, loaded once per session
        engine = await services.recall()
        unindexed = await engine.search(user_id, "какая порода у моего пса", k=5)
        reason = unindexed.degraded.reasons.get("semantic") or ""
        assert "all-minilm-l6-v2" in reason and "wave reindex" in reason
        result = await rebuild(services, user_id, await services.archive(), lambda d, t: None)
        assert result["indexed"] == 1
        hits = await engine.search(user_id, "какая порода у моего пса", k=5)
        assert hits.degraded.reasons.get("semantic") is None
        assert hits and hits[0].fact.id == kept.id
        assert hits[0].ranks.get("semantic") == 1
