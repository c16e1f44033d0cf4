"""A slow store is not a missing one (issue 30: outage notices while every store was up).

The memory search is made slow on the real Neo4j: before it reads, it takes a write lock on a
node the test holds locked in an open transaction, so the read waits on the server until the
test lets it go (a condition, never a sleep), while a health check (``RETURN 1``) still
answers. Neo4j refusing connections is told at once, as before."""

from __future__ import annotations

import asyncio
import logging
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from typing import Any

import pytest
from neo4j import AsyncGraphDatabase

from tests.conftest import _free_port
from wave_agent.conversation.turn import EXCERPTS_SECTION
from wave_agent.infra.outage import is_slow
from wave_agent.services import Services
from wave_agent.settings import Settings

STATED = "Я живу в Самаре."
QUESTION = "В каком городе я живу?"
OUTAGE = "недоступна"  # the sentence a person hears when part of memory is down


class _Heard(logging.Handler):
    """Sets ``event`` when a record containing ``words`` is logged (the turn's own log)."""

    def __init__(self, words: str) -> None:
        super().__init__(logging.INFO)
        self.words = words
        self.event = asyncio.Event()

    def emit(self, record: logging.LogRecord) -> None:
        if self.words in record.getMessage():
            self.event.set()


@asynccontextmanager
async def _locked(uri: str, gate: str) -> AsyncIterator[Callable[[], Awaitable[None]]]:
    """A node ``gate`` write-locked by an open transaction on the real Neo4j; yields a
    function that commits it (the lock's release)."""
    driver = AsyncGraphDatabase.driver(uri)
    await driver.execute_query("MERGE (:SlowGate {id: $id})", id=gate)
    session = driver.session()
    tx = await session.begin_transaction()
    await (await tx.run("MATCH (g:SlowGate {id: $id}) SET g.held = true", id=gate)).consume()
    released = False

    async def release() -> None:
        nonlocal released
        if not released:
            released = True
            await tx.commit()

    try:
        yield release
    finally:
        await release()
        await session.close()
        await driver.execute_query("MATCH (g:SlowGate {id: $id}) DELETE g", id=gate)
        await driver.close()


def _slowed(turns: Any, uri: str, gate: str) -> None:
    """The turn's memory search first waits for the gate's write lock on the real Neo4j."""
    search = turns.memory.search  # the TurnReads the turn reads through

    async def slow_search(user_id: str, query: str, *, k: int) -> Any:
        driver = AsyncGraphDatabase.driver(uri)
        try:
            await driver.execute_query("MATCH (g:SlowGate {id: $id}) SET g.touched = true",
                                       id=gate)
        finally:
            await driver.close()
        return await search(user_id, query, k=k)

    turns.memory.search = slow_search


@pytest.fixture
def quick_settings(settings: Settings) -> Settings:
    return settings.model_copy(update={"store_timeout_s": 1.0, "store_slow_s": 120.0})


async def _stated(services: Services, user: str) -> None:
    turns = await services.turns()
    await turns.warm_up()
    await turns.handle(user, STATED)
    assert (await services.postprocessor().drain(120)).pending == 0


async def test_a_slow_search_is_waited_for_while_the_store_answers(
    quick_settings: Settings, neo4j_uri: str, caplog: pytest.LogCaptureFixture
) -> None:
    """The search outlives the turn's 1 s budget while Neo4j answers its health check: the
    turn waits, and the answer comes with the record, no outage said."""
    user, gate = f"u-slow-{uuid.uuid4().hex[:6]}", uuid.uuid4().hex
    heard = _Heard("still running after")
    caplog.set_level(logging.INFO, logger="wave.turn")
    logging.getLogger("wave.turn").addHandler(heard)
    try:
        async with Services(quick_settings) as services:
            await _stated(services, user)
            turns = await services.turns()
            _slowed(turns, neo4j_uri, gate)
            async with _locked(neo4j_uri, gate) as release:
                turn = asyncio.ensure_future(turns.handle(user, QUESTION))
                await asyncio.wait_for(heard.event.wait(), 60)  # past the budget, store up
                assert not turn.done()
                await release()
                result = await asyncio.wait_for(turn, 120)
    finally:
        logging.getLogger("wave.turn").removeHandler(heard)
    assert "Самар" in result.reply, result.reply
    assert OUTAGE not in result.reply, result.reply
    assert EXCERPTS_SECTION not in result.debug.failed


async def test_a_search_slow_past_the_longer_budget_is_left_out_without_an_outage(
    settings: Settings, neo4j_uri: str
) -> None:
    """Still running after the longer budget: the reply goes out without the search and says
    the search ran out of time, not that memory is down; never "nothing found"."""
    user, gate = f"u-slower-{uuid.uuid4().hex[:6]}", uuid.uuid4().hex
    slow = settings.model_copy(update={"store_timeout_s": 1.0, "store_slow_s": 5.0})
    async with Services(slow) as services:
        await _stated(services, user)
        turns = await services.turns()
        _slowed(turns, neo4j_uri, gate)
        async with _locked(neo4j_uri, gate):
            result = await asyncio.wait_for(turns.handle(user, QUESTION), 120)
    why = result.debug.failed.get(EXCERPTS_SECTION, "")
    assert is_slow(why), result.debug.failed
    assert OUTAGE not in result.reply, result.reply
    assert "не уложился во время" in result.reply, result.reply
    assert "ничего не нашлось" not in result.reply, result.reply


async def test_neo4j_refusing_connections_is_told_at_once(settings: Settings) -> None:
    """Nothing listens on Neo4j's port: the turn says that part of memory is out of reach."""
    down = settings.model_copy(update={"neo4j_uri": f"bolt://127.0.0.1:{_free_port()}",
                                       "store_timeout_s": 5.0, "store_slow_s": 60.0})
    async with Services(down) as services:
        turns = await services.turns()
        await turns.warm_up()
        result = await asyncio.wait_for(turns.handle("u-refused", QUESTION), 60)
    assert OUTAGE in result.reply, result.reply
    assert not any(is_slow(why) for why in result.debug.failed.values()), result.debug.failed
