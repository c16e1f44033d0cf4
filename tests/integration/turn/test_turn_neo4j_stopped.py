"""Neo4j stopped during a conversation: the bot answers, and after the restart every fact
arrives exactly once. Runs on its OWN embedded Neo4j (never the shared test server)."""

from __future__ import annotations

from pathlib import Path

import pytest

from graph.models import Status
from wave_agent.infra import localneo4j
from wave_agent.services import Services
from wave_agent.settings import Settings

pytestmark = pytest.mark.slow



async def test_neo4j_down_mid_conversation_loses_and_duplicates_nothing(
    own_neo4j: Settings, tmp_path: Path
) -> None:
    settings = Settings(  # type: ignore[call-arg]
        _env_file=None,
        data_dir=tmp_path / "data",
        neo4j_uri=own_neo4j.effective_neo4j_uri,
        store_timeout_s=5.0,
    )
    user = "u-neo4j-down"
    async with Services(settings) as services:
        turns = await services.turns()
        await turns.warm_up()
        worker = services.postprocessor()
        graph = await services.graph()

        before = await turns.handle(user, "My name is Anna. I live in Warsaw.")
        assert "offline" in before.reply
        assert (await worker.drain(60)).pending == 0
        assert len(await graph.list_facts(user)) == 2

        localneo4j.down(own_neo4j)
        during = [
            await turns.handle(user, "I work at Google as an engineer."),
            await turns.handle(user, "I love hiking in the Tatra mountains."),
            await turns.handle(user, "Запомни, что у сестры день рождения 12 марта"),
        ]
        for result in during:  # the bot answers, each turn says what it is missing
            assert result.reply.startswith("[offline") or result.reply.startswith("[офлайн")
            assert "notes" in result.debug.failed or result.debug.failed.get("excerpts")
        report = await worker.drain(2)
        assert report.pending == 3 and report.last_error
        assert services.outbox().stats().failing >= 1

        localneo4j.up(own_neo4j, wait_s=240)
        report = await worker.drain(120)
        assert report.pending == 0, report

        facts = await graph.list_facts(user, statuses=[Status.ACTIVE])
        texts = sorted(f.text for f in facts)
        assert texts == sorted([
            "The user's name is Anna",
            "The user lives in Warsaw",
            "The user works at Google",
            "The user loves hiking in the Tatra mountains",
            "У сестры день рождения 12 марта",
        ])
        assert all(f.mention_count == 1 for f in facts), [(f.text, f.mention_count) for f in facts]
        # Processing everything again changes nothing: the outbox knows it is done.
        services.outbox().retry_now()
        assert (await worker.drain(10)).processed == 0
        assert len(await graph.list_facts(user)) == 5

        # And the conversation goes on with the notes back in the prompt.
        after = await turns.handle(user, "what do you know about my work?")
        assert "notes" not in after.debug.failed


async def test_interrupted_write_is_found_not_repeated(
    own_neo4j: Settings, tmp_path: Path
) -> None:
    """A crash between the writer's success and the step marker: the retry finds the record."""
    settings = Settings(  # type: ignore[call-arg]
        _env_file=None, data_dir=tmp_path / "data", neo4j_uri=own_neo4j.effective_neo4j_uri,
    )
    user = "u-interrupted"
    async with Services(settings) as services:
        turns = await services.turns()
        await turns.warm_up()
        result = await turns.handle(user, "My name is Boris. I live in Riga.")
        box = services.outbox()
        assert (await services.postprocessor().drain(60)).pending == 0
        graph = await services.graph()
        assert len(await graph.list_facts(user)) == 2
        # Forget that the writes finished, as if the process died right after them.
        key = result.exchange_id
        for step in ("fact:0", "fact:1", "relations", "episode", "blocks"):
            box._db.execute("DELETE FROM steps WHERE key = ? AND step = ?", (key, step))
        box._db.execute("UPDATE jobs SET status = 'pending' WHERE key = ?", (key,))
        assert (await services.postprocessor().drain(60)).pending == 0
        facts = await graph.list_facts(user)
        assert sorted(f.text for f in facts) == ["The user lives in Riga", "The user's name is Boris"]
        assert all(f.mention_count == 1 for f in facts)
        day = (await (await services.episodes()).recent_days(user, count=1))[0]
        assert len(day.entries) == 2
