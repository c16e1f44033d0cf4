"""``start_scheduler`` (what ``wave run`` calls): the jobs are registered on the running loop
with the intended triggers, never stacked, and ``shutdown()`` stops them."""

from __future__ import annotations

import asyncio
from datetime import timedelta

from graph.models import utcnow
from wave_agent.ops import maintenance
from wave_agent.ops.maintenance.scheduler import CONTINUOUS, FIRST_RUN_DELAY, INTERVAL
from wave_agent.services import Services
from wave_agent.settings import Settings


async def test_scheduler_registers_the_passes_and_shuts_down(settings: Settings) -> None:
    async with Services(settings) as services:
        stores = services.ops_stores()
        before = utcnow()
        scheduler = await maintenance.start_scheduler(stores)
        try:
            assert scheduler.running
            jobs = {job.id: job for job in scheduler.get_jobs()}
            assert set(jobs) == {"maintenance", "compress"}
            main = jobs["maintenance"]
            assert main.args == (stores, CONTINUOUS) and "compress" not in CONTINUOUS
            assert main.max_instances == 1 and main.coalesce
            assert main.trigger.interval == INTERVAL
            first = main.next_run_time - before
            assert FIRST_RUN_DELAY - timedelta(seconds=5) <= first <= FIRST_RUN_DELAY + timedelta(seconds=5)
            assert jobs["compress"].args == (stores, ("compress",))
            assert (jobs["compress"].next_run_time.hour, jobs["compress"].next_run_time.minute) == (3, 30)
        finally:
            scheduler.shutdown(wait=False)
        await asyncio.sleep(0.05)  # apscheduler applies shutdown on the loop's next turn
        assert not scheduler.running
