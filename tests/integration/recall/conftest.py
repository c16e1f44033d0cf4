"""Recall over the real Neo4j, a real Qdrant local directory and the real embedding model."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from archive.embedder import Embedder
from graph.store import GraphStore
from wave_agent.archive_sync import ArchiveSync
from wave_agent.recall import Recall, RecallConfig
from wave_agent.writer import Writer


@pytest.fixture(scope="session")
def embedder() -> Embedder:
    model = Embedder()
    model.load_sync()
    return model


@pytest.fixture(scope="session")
async def graph(neo4j_uri: str) -> AsyncIterator[GraphStore]:
    store = await GraphStore.connect(neo4j_uri, "neo4j", "x")
    await store.ensure_schema()
    yield store
    await store.close()


@pytest.fixture
async def archive(tmp_path: Path, embedder: Embedder) -> AsyncIterator[object]:
    from archive.store import ArchiveStore

    store = ArchiveStore.local(tmp_path / "qdrant", model_name=embedder.model_name,
                               dim=embedder.dim)
    yield store
    await store.close()


@pytest.fixture
def writer(graph: GraphStore, archive: object, embedder: Embedder) -> Writer:
    return Writer(graph, ArchiveSync(embedder, archive))  # type: ignore[arg-type]


@pytest.fixture
def recall(graph: GraphStore, archive: object, embedder: Embedder) -> Recall:
    # Generous timeouts: the shared dev machine is slow; a dropped voice would hide the check.
    return Recall(graph, archive, embedder, config=RecallConfig(voice_timeout_s=30.0))
