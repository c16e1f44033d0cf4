"""Maintenance tests: ``Services`` on the real Neo4j, a real Qdrant local directory per test
and the real embedding model (loaded once per session and handed to each ``Services``)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import datetime, timedelta

import pytest

from archive.embedder import Embedder
from graph.models import utcnow
from wave_agent.services import Services
from wave_agent.settings import Settings

pytestmark = pytest.mark.neo4j


def share_embedder(services: Services, embedder: Embedder) -> Services:
    """One model load per session: the accessor returns the cached embedder."""
    services._cache["embedder"] = embedder
    return services


@pytest.fixture
async def services(settings: Settings, embedder: Embedder) -> AsyncIterator[Services]:
    async with Services(settings) as opened:
        yield share_embedder(opened, embedder)


@pytest.fixture
def now() -> datetime:
    return utcnow()


def days_ago(now: datetime, days: float) -> datetime:
    return now - timedelta(days=days)
