"""Recall over the real Neo4j, a real Qdrant local directory and the real embedding model."""

from __future__ import annotations

import pytest

from archive.embedder import Embedder
from graph.store import GraphStore
from wave_agent.recall import Recall, RecallConfig


@pytest.fixture
def recall(graph: GraphStore, archive: object, embedder: Embedder) -> Recall:
    # Generous timeouts: the shared dev machine is slow; a dropped voice would hide the check.
    return Recall(graph, archive, embedder, config=RecallConfig(voice_timeout_s=30.0))
