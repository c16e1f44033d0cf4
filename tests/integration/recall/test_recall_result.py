"""Two people's searches at the same moment on one ``Recall`` (one per process, shared by
every chat): each gets its own account of how the call went. On the shared
instance the last call's state overwrote the other's."""

from __future__ import annotations

import asyncio

import pytest

from graph.store import GraphStore
from wave_agent.recall import TEMPORAL, Recall, RecallConfig, RecallResult
from wave_agent.write.writer import Writer

pytestmark = pytest.mark.neo4j


async def test_concurrent_searches_each_keep_their_own_state(
    writer: Writer, recall: Recall, graph: GraphStore, embedder: object, user_id: str,
) -> None:
    other = user_id + "-b"
    await writer.remember(user_id, "В мае я ездила в Казань к бабушке")
    await writer.remember(other, "Мой брат Игорь работает врачом")
    without_archive = Recall(graph, None, embedder, config=RecallConfig(voice_timeout_s=30.0),
                             archive_problem="test: archive held by another process")
    for engine in (recall, without_archive):
        dated, plain = await asyncio.gather(
            engine.search(user_id, "Когда я ездила в Казань в мае?", k=3),
            engine.search(other, "Чем занимается Игорь", k=3))
        assert isinstance(dated, RecallResult) and isinstance(plain, RecallResult)
        assert dated.span is not None and plain.span is None
        assert dated.preset is TEMPORAL and plain.preset is not TEMPORAL
        assert "Казань" in dated[0].fact.text and "Игорь" in plain[0].fact.text
        if engine is without_archive:
            assert "semantic" in dated.degraded.reasons and "semantic" in plain.degraded.reasons
        else:
            assert not dated.degraded.reasons and not plain.degraded.reasons
