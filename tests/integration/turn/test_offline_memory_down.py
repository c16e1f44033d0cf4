"""Neo4j stopped: the offline reply says memory could not be read (not that it is empty), and
the outage is one line when it begins and one when it ends, however many driver retries.
Runs on its OWN embedded Neo4j (never the shared test server)."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from wave_agent.infra import localneo4j
from wave_agent.infra.outage import NEO4J, OUTAGES, install_driver_filter
from wave_agent.services import Services
from wave_agent.settings import Settings

pytestmark = pytest.mark.slow

QUESTION = "Что ты знаешь про мою черепаху Тортиллу?"



async def test_memory_down_is_not_told_as_memory_empty_and_the_outage_is_two_lines(
    own_neo4j: Settings, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """Regressions: during an outage "Что ты знаешь про мою черепаху Тортиллу?" got
    "В памяти по этому поводу ничего не нашлось."; 80 s of outage printed 64 driver warning
    blocks."""
    settings = Settings(  # type: ignore[call-arg]
        _env_file=None, data_dir=tmp_path / "data", neo4j_uri=own_neo4j.effective_neo4j_uri,
        store_timeout_s=5.0,
    )
    install_driver_filter()
    user = "u-tortilla"
    async with Services(settings) as services:
        turns = await services.turns()
        await turns.warm_up()
        worker = services.postprocessor()
        await turns.handle(user, "У меня черепаха Тортилла.")
        assert (await worker.drain(120)).pending == 0
        before = await turns.handle(user, QUESTION)
        assert "- У пользователя черепаха Тортилла" in before.reply, before.reply

        OUTAGES.answered(NEO4J)  # an earlier test's outage, if any, is closed before we count
        caplog.set_level(logging.INFO)
        caplog.clear()
        localneo4j.down(own_neo4j)
        try:
            during = await turns.handle(user, QUESTION)
            await turns.handle(user, "Я работаю в библиотеке.")
            await worker.drain(5)  # the driver retries its transactions
            again = await turns.handle(user, QUESTION)
        finally:
            localneo4j.up(own_neo4j, wait_s=240)
        for reply in (during.reply, again.reply):
            # What the session still holds may be shown, but never "nothing in memory".
            # said once, naming the layer, not twice in two wordings
            assert "Часть моей памяти сейчас недоступна (записанные факты" in reply, reply
            assert reply.count("неполным") == 1, reply
            assert "не читается" not in reply and "не прочиталась" not in reply, reply
            assert "ничего не нашлось" not in reply
        assert (await worker.drain(120)).pending == 0  # the store answers: the outage ends

    driver = [r for r in caplog.records if r.name.startswith("neo4j") and r.levelno >= logging.WARNING]
    assert driver == [], [r.getMessage()[:200] for r in driver]
    outage = [r.getMessage() for r in caplog.records if r.name == "wave.outage"]
    assert len(outage) == 2, outage
    assert outage[0].startswith("Neo4j is not answering") and "wave services" in outage[0]
    assert outage[1].startswith("Neo4j answers again")
