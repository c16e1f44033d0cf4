"""``wave reindex --to-server``: an install in local mode moves to a Qdrant server, from the
graph, with nothing lost: history, a record the local archive never got, two people apart."""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from archive.embedder import Embedder
from archive.store import ArchiveStore
from graph.store import GraphStore
from wave_agent.ops.archive_move import move_archive
from wave_agent.write.archive_sync import ArchiveSync
from wave_agent.write.writer import MemoryItem, Writer

pytestmark = pytest.mark.neo4j


@pytest.fixture
async def server(qdrant_server: str, embedder: Embedder) -> AsyncIterator[ArchiveStore]:
    store = ArchiveStore.server(qdrant_server, model_name=embedder.model_name, dim=embedder.dim,
                                embedder=embedder, timeout_s=60)
    try:
        yield store
    finally:
        await store.close()


async def test_local_install_moves_to_the_server_and_loses_nothing(
    graph: GraphStore, archive: ArchiveStore, server: ArchiveStore, embedder: Embedder,
    tmp_path: Path,
) -> None:
    anna, igor = f"move-{uuid.uuid4().hex[:8]}", f"move-{uuid.uuid4().hex[:8]}"
    writer = Writer(graph, ArchiveSync(embedder, archive))
    await writer.remember_many(anna, [
        MemoryItem("Я каждое утро пью зелёный чай без сахара"),
        MemoryItem("Моя сестра Анна переехала в Варшаву прошлой весной"),
        MemoryItem("I sold my old car and now ride a bicycle to work"),
    ])
    old = await writer.remember(anna, "Я живу в Казани")
    assert old.fact is not None
    await writer.supersede(anna, old.fact.id, "Я живу в Томске")  # history moves too
    await writer.remember_many(igor, [MemoryItem("Игорь играет в шахматы по субботам")])
    # Written while the archive was away (e.g. held by `wave run`): flagged, never indexed.
    offline = Writer(graph, ArchiveSync(embedder, None, problem="locked"))
    pending = await offline.remember(anna, "Я учу польский язык по вечерам")
    assert pending.fact is not None and pending.archive.value == "pending"

    seen: list[tuple[int, int]] = []
    report = await move_archive(graph, server, embedder, source=archive, users=[anna, igor],
                                progress=lambda done, total: seen.append((done, total)))

    for user in (anna, igor):
        ids = {f.id for f in await graph.list_facts(user)}
        assert await server.fact_ids(user) == ids
        assert all(not f.needs_index for f in await graph.list_facts(user))
    assert report.missing == {}
    assert report.records == 7 and report.embedded == 1 and report.copied == 6
    assert report.cleared == 1
    assert seen[0] == (0, 7) and seen[-1] == (7, 7)

    [tea] = await server.search_text(anna, "По утрам я пью зелёный чай", limit=1)
    assert tea.payload["text"] == "Я каждое утро пью зелёный чай без сахара"
    assert await server.search_text(igor, "зелёный чай", limit=5) != []  # his own record only
    assert all(h.payload["user_id"] == igor
               for h in await server.search_text(igor, "зелёный чай", limit=5))
    history = await server.search_text(anna, "Казань", limit=5, statuses=("superseded",))
    assert [h.payload["text"] for h in history] == ["Я живу в Казани"]

    again = await move_archive(graph, server, embedder, source=None, users=[anna])
    assert again.records == 6 and again.embedded == 6 and again.removed == 0
    assert await server.count(anna) == 6
