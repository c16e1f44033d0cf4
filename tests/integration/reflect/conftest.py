"""Reflect tests: Services on the real Neo4j and Qdrant local with the real embedding model;
the model is the scripted OpenAI-compatible server (the real ``openai`` client talks to it)."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from datetime import datetime, time, timedelta
from pathlib import Path

import pytest

from archive.embedder import Embedder
from episodes.models import EpisodeEntry
from graph.models import utcnow
from snapshots.models import Snapshot
from tests.support.openai_server import ScriptedOpenAI
from wave_agent.services import Services
from wave_agent.settings import Settings

pytestmark = pytest.mark.neo4j


@pytest.fixture
def llm_server() -> Iterator[ScriptedOpenAI]:
    with ScriptedOpenAI() as server:
        yield server


@pytest.fixture
async def online(tmp_path: Path, neo4j_uri: str, llm_server: ScriptedOpenAI,
                 embedder: Embedder) -> AsyncIterator[Services]:
    settings = Settings(  # type: ignore[call-arg]
        _env_file=None, data_dir=tmp_path / "data", neo4j_uri=neo4j_uri,
        llm_base_url=llm_server.base_url, llm_api_key="test", llm_model="scripted-model",
        llm_timeout_s=10, llm_max_retries=0,
    )
    async with Services(settings) as services:
        services._cache["embedder"] = embedder  # one model load per session
        yield services


@pytest.fixture
async def offline(settings: Settings, embedder: Embedder) -> AsyncIterator[Services]:
    async with Services(settings) as services:
        services._cache["embedder"] = embedder
        yield services


async def seed_work_history(services: Services, user_id: str) -> dict[str, str]:
    """A person whose attitude to work changed: a superseded job, later records, an episode
    line and a session snapshot; plus unrelated records."""
    now = utcnow()
    writer = await services.writer()
    bank = await writer.remember(user_id, "The user works as an accountant at a bank and "
                                 "finds the work dull", created_at=now - timedelta(days=400))
    assert bank.fact is not None
    quit_ = await writer.supersede(user_id, bank.fact.id, "The user quit the bank job and "
                                   "works as a freelance designer")
    meaning = await writer.remember(user_id, "The user says his design work feels meaningful",
                                    created_at=now - timedelta(days=10))
    dog = await writer.remember(user_id, "The user has a dog named Rex",
                                created_at=now - timedelta(days=50))
    assert quit_.fact and meaning.fact and dog.fact
    episodes = await services.episodes()
    day = (now - timedelta(days=30)).date()
    await episodes.append(user_id, [EpisodeEntry(
        "Talked about burnout at work and wanting to leave the bank",
        at=datetime.combine(day, time(9), tzinfo=now.tzinfo))], key="e-1")
    snapshots = await services.snapshots()
    ended = now - timedelta(days=20)
    await snapshots.save(Snapshot(
        session_id="sess-work1", user_id=user_id, started_at=ended - timedelta(minutes=20),
        ended_at=ended, turns=6, summary="Discussed leaving the bank job for freelance design work",
    ))
    return {"bank": bank.fact.id, "quit": quit_.fact.id, "meaning": meaning.fact.id,
            "dog": dog.fact.id, "episode": f"ep-{day.isoformat()}", "snapshot": "s-sess-work1"}
