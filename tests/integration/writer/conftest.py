"""The writer over the real Neo4j and a real Qdrant local directory; one model load."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from archive.embedder import Embedder
from graph.store import GraphStore
from wave_agent.archive_sync import ArchiveSync
from wave_agent.writer import Writer

pytestmark = pytest.mark.neo4j


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
def offline_writer(graph: GraphStore, embedder: Embedder) -> Writer:
    """A writer whose archive is unavailable (as when `wave run` holds the local directory)."""
    return Writer(graph, ArchiveSync(embedder, None, problem="the archive is locked (test)"))
