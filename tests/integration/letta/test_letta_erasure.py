"""Erasure with Letta core blocks: a deleted record's lines leave the current Letta
block and every history block; forget-me removes the person's blocks, history and agent."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from letta_client import AsyncLetta

from archive.embedder import Embedder
from tests.integration.erasure.conftest import converse, files_holding
from wave_agent.blocks.letta_store import LettaBlockStore, user_tag
from wave_agent.services import Services
from wave_agent.settings import Settings

pytestmark = [pytest.mark.letta, pytest.mark.neo4j]


@pytest.fixture
async def services(tmp_path: Path, neo4j_uri: str, letta_url: str,
                   embedder: Embedder) -> AsyncIterator[Services]:
    settings = Settings(_env_file=None, data_dir=tmp_path / "data",  # type: ignore[call-arg]
                        neo4j_uri=neo4j_uri, letta_base_url=letta_url)
    async with Services(settings, embedder=embedder) as opened:
        await (await opened.turns()).warm_up()
        yield opened


async def _values(raw: AsyncLetta, user_id: str) -> list[str]:
    return [str(b.value or "") async for b in raw.blocks.list(tags=[user_tag(user_id)],
                                                              limit=100)]


async def test_letta_blocks_lose_the_record_in_every_version_then_the_person_goes(
    services: Services, raw_letta: AsyncLetta, uid: str
) -> None:
    await converse(services, uid, "Меня зовут Анна Вжжиковская, я живу в Казани.")
    store = await services.blocks()
    assert isinstance(store, LettaBlockStore)
    assert any("Вжжиковская" in v for v in await _values(raw_letta, uid))
    graph = await services.graph()
    [record] = [f for f in await graph.list_facts(uid) if "Вжжиковская" in f.text]

    report = await (await services.eraser()).delete(uid, record.id)

    assert report.as_json()["removed"]["blocks"], report.message
    values = await _values(raw_letta, uid)
    assert values and not any("Вжжиковская" in v for v in values)
    assert any("Казан" in v for v in values)  # the other line stays, current and history
    assert all("Вжжиковская" not in v.value for v in await store.history(uid, "human"))
    assert files_holding(services.settings.data_dir, "Вжжиковская") == []

    await store.attach_to_agent(uid)
    await (await services.eraser()).forget_person(uid)
    assert await _values(raw_letta, uid) == []
    agents = [a async for a in raw_letta.agents.list(tags=[user_tag(uid)])]
    assert agents == []
    assert files_holding(services.settings.data_dir, uid) == []
