"""A maintenance pass run in the bot's process (the scheduler in ``wave run``) reaches the
turn's cached notes: a record archived by the pass is out of the very next prompt."""

from __future__ import annotations

from datetime import datetime

from tests.integration.maintenance.conftest import days_ago
from wave_agent.ops.maintenance.runner import run_maintenance
from wave_agent.services import Services
from wave_agent.write.writer import MemoryItem

STALE = "The user's sister lives in Lisbon"


async def test_a_record_archived_by_maintenance_leaves_the_next_prompt(
    services: Services, user_id: str, now: datetime
) -> None:
    writer = await services.writer()
    await writer.remember_many(user_id, [
        MemoryItem(STALE, created_at=days_ago(now, 31)),
        MemoryItem("The user collects vintage fountain pens", created_at=days_ago(now, 2)),
    ])
    # a busy machine must not turn a slow read into a missing section: this is about the cache
    services.settings = services.settings.model_copy(update={"store_timeout_s": 60.0})
    turns = await services.turns()
    await turns.warm_up()
    before = await turns.prepare(user_id, "hello there")  # the session's notes, now cached
    assert STALE in before.memory_notes

    (report,) = await run_maintenance(services.ops_stores(), jobs=["archive-stale"], user_ids=[user_id],
                                      now=now)
    assert report.ok and report.count("archived") == 1, report.summary()

    after = await turns.prepare(user_id, "hello there")  # same session, same cache
    assert STALE not in after.memory_notes
    assert "The user collects vintage fountain pens" in after.memory_notes
