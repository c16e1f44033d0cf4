"""Attribute tests: the writer and Services on the real Neo4j and Qdrant local, the real
embedding model, natasha."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from archive.embedder import Embedder
from wave_agent.services import Services
from wave_agent.settings import Settings

pytestmark = pytest.mark.neo4j


@pytest.fixture
async def services(settings: Settings, embedder: Embedder) -> AsyncIterator[Services]:
    async with Services(settings) as opened:
        opened._cache["embedder"] = embedder  # one model load per session
        yield opened
