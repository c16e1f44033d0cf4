"""Only an outage becomes "archive pending". A vector of the wrong dimension is a
bug and must fail the write loudly; a store that is down or held by another process is an
outage: the write goes on, the record waits for reindex."""

from __future__ import annotations

import socket
from pathlib import Path

import numpy as np
import pytest

from archive.embedder import Embedder
from archive.errors import ArchiveInputError
from archive.store import ArchiveStore
from graph.models import Fact, FactType, Status, Tier, Veracity, utcnow
from wave_agent.write.archive_sync import ArchiveSync
from wave_agent.write.result import ArchiveState

DIM = 4
MODEL = "outage-test-model"


def _fact(fact_id: str) -> Fact:
    now = utcnow()
    return Fact(id=fact_id, user_id="u", text="Я живу в Казани", type=FactType.IDENTITY,
                tier=Tier.OBSERVATION, status=Status.ACTIVE, veracity=Veracity.STATED,
                confidence=1.0, created_at=now, last_confirmed_at=now)


def _sync(store: ArchiveStore) -> ArchiveSync:
    return ArchiveSync(Embedder("all-MiniLM-L6-v2", device="cpu"), store)


async def test_a_wrong_dimension_vector_fails_loudly_instead_of_pending(tmp_path: Path) -> None:
    store = ArchiveStore.local(tmp_path / "qdrant", model_name=MODEL, dim=DIM)
    sync = _sync(store)
    try:
        assert await sync.upsert("u", [_fact("f-1")], np.ones((1, DIM), np.float32)) \
            is ArchiveState.INDEXED
        with pytest.raises(ArchiveInputError, match="3 dimensions"):
            await sync.upsert("u", [_fact("f-2")], np.ones((1, 3), np.float32))
        assert sync.problem is None, "a bug was recorded as an archive outage"
    finally:
        await store.close()


async def test_an_archive_held_by_another_opener_is_pending(tmp_path: Path) -> None:
    holder = ArchiveStore.local(tmp_path / "qdrant", model_name=MODEL, dim=DIM)
    await holder.open()
    second = ArchiveStore.local(tmp_path / "qdrant", model_name=MODEL, dim=DIM)
    sync = _sync(second)
    try:
        state = await sync.upsert("u", [_fact("f-1")], np.ones((1, DIM), np.float32))
        assert state is ArchiveState.PENDING
        assert sync.problem is not None and "another Wave process" in sync.problem
    finally:
        await holder.close()
        await second.close()


async def test_a_server_that_is_down_is_pending() -> None:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    store = ArchiveStore.server(f"http://127.0.0.1:{port}", model_name=MODEL, dim=DIM,
                                timeout_s=1)
    sync = _sync(store)
    try:
        assert await sync.upsert("u", [_fact("f-1")], np.ones((1, DIM), np.float32)) \
            is ArchiveState.PENDING
        assert await sync.search("u", np.ones(DIM, np.float32), limit=3) == []
        assert sync.problem is not None and "unavailable" in sync.problem
    finally:
        await store.close()


async def test_a_grpc_server_that_stops_is_pending_not_a_bug(tmp_path: Path) -> None:
    """Over gRPC (QDRANT_GRPC_PORT) an outage is a gRPC status, not an httpx error: it must
    still become "pending" with one line, and the write before it must have landed."""
    from wave_agent.infra import localqdrant

    binary = localqdrant.find_binary()
    if binary is None:
        pytest.skip(localqdrant.missing_binary_reason())
    server = localqdrant.start(tmp_path / "server", binary=binary)
    store = ArchiveStore.server(server.url, grpc_port=server.grpc_port, model_name=MODEL,
                                dim=DIM, timeout_s=5)
    sync = _sync(store)
    try:
        assert await sync.upsert("u", [_fact("f-1")], np.ones((1, DIM), np.float32)) \
            is ArchiveState.INDEXED
        assert [h.fact_id for h in await store.search("u", np.ones(DIM, np.float32))] == ["f-1"]
        server.stop()
        assert await sync.upsert("u", [_fact("f-2")], np.ones((1, DIM), np.float32)) \
            is ArchiveState.PENDING
        assert sync.problem is not None and "unavailable" in sync.problem
        assert "gRPC" in sync.problem and "Traceback" not in sync.problem
    finally:
        await store.close()
        server.stop()
