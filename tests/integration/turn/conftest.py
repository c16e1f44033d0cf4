"""Fixtures of the turn tests: the scripted OpenAI server and Services on the real stores."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest

from tests.conftest import _free_port
from tests.support.openai_server import ScriptedOpenAI
from wave_agent.infra import localneo4j
from wave_agent.services import Services
from wave_agent.settings import Settings


@pytest.fixture
def llm_server() -> Iterator[ScriptedOpenAI]:
    with ScriptedOpenAI() as server:
        yield server


@pytest.fixture
def online_settings(tmp_path: Path, neo4j_uri: str, llm_server: ScriptedOpenAI) -> Settings:
    return Settings(  # type: ignore[call-arg]
        _env_file=None,
        data_dir=tmp_path / "data",
        neo4j_uri=neo4j_uri,
        llm_base_url=llm_server.base_url,
        llm_api_key="test",
        llm_model="scripted-model",
        llm_timeout_s=10,
        llm_max_retries=1,
    )


@pytest.fixture
async def online(online_settings: Settings) -> AsyncIterator[Services]:
    async with Services(online_settings) as services:
        await (await services.turns()).warm_up()
        yield services


@pytest.fixture
async def offline(settings: Settings) -> AsyncIterator[Services]:
    async with Services(settings) as services:
        await (await services.turns()).warm_up()
        yield services


@pytest.fixture
def own_neo4j(tmp_path: Path) -> Iterator[Settings]:
    """A private embedded Neo4j, for the tests that stop and restart it (never the shared
    test server)."""
    private = Settings(  # type: ignore[call-arg]
        _env_file=None, data_dir=tmp_path / "neo", neo4j_port=_free_port()
    )
    localneo4j.up(private, wait_s=240)
    try:
        yield private
    finally:
        localneo4j.down(private)
