"""The writer over the real Neo4j and a real Qdrant local directory; one model load."""

from __future__ import annotations

import pytest

from archive.embedder import Embedder
from graph.store import GraphStore
from wave_agent.write.archive_sync import ArchiveSync
from wave_agent.write.writer import Writer

pytestmark = pytest.mark.neo4j


@pytest.fixture
def offline_writer(graph: GraphStore, embedder: Embedder) -> Writer:
    """A writer whose archive is unavailable (as when `wave run` holds the local directory)."""
    return Writer(graph, ArchiveSync(embedder, None, problem="the archive is locked (test)"))
