"""End-to-end bot fixtures (the helpers are in ``harness.py``)."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from archive.embedder import Embedder
from tests.e2e.bot.harness import new_telegram_id
from tests.support.telegram_server import TelegramTestServer
from wave_agent.services import Services
from wave_agent.settings import Settings


@pytest.fixture
async def telegram() -> AsyncIterator[TelegramTestServer]:
    """The local Bot API server, one per test."""
    async with TelegramTestServer() as server:
        yield server


@pytest.fixture
def owner() -> int:
    """The allowed person of this test (their own memory: ``tg-<owner>``)."""
    return new_telegram_id()


@pytest.fixture
async def services(settings: Settings, embedder: Embedder) -> AsyncIterator[Services]:
    """Real services over the test's data directory and the shared real Neo4j."""
    async with Services(settings) as opened:
        opened._cache["embedder"] = embedder  # one model load per session
        yield opened
