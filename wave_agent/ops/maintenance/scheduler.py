"""Scheduled maintenance inside ``wave run`` (apscheduler ``AsyncIOScheduler`` on the bot's
event loop).

- every ``INTERVAL`` (6 hours): the whole pass except compression (expire, archive stale,
  promote, duplicates, generalise, review, drift, and the core-block updates queued while
  Letta was down); each job is idempotent, so a run that finds nothing changes nothing;
- daily at 03:30 UTC: the weekly compression of finished weeks (a no-op when done).
A store that is down costs a run its work (logged); the next run retries. A run still going
when the next is due is skipped, not stacked (``max_instances=1``, ``coalesce``).
"""

from __future__ import annotations

import asyncio
import logging
from datetime import timedelta
from typing import TYPE_CHECKING

from apscheduler.schedulers.asyncio import AsyncIOScheduler
from apscheduler.triggers.cron import CronTrigger
from apscheduler.triggers.interval import IntervalTrigger

from graph.models import utcnow
from wave_agent.ops.maintenance.runner import JOB_NAMES, run_maintenance

if TYPE_CHECKING:
    from wave_agent.ops.stores import OpsStores

log = logging.getLogger("wave.maintenance.scheduler")

INTERVAL = timedelta(hours=6)
FIRST_RUN_DELAY = timedelta(minutes=2)  # let the bot start answering first
CONTINUOUS = tuple(name for name in JOB_NAMES if name != "compress")


async def _pass(stores: OpsStores, names: tuple[str, ...]) -> None:
    try:
        reports = await run_maintenance(stores, jobs=names)
    except asyncio.CancelledError:
        # `wave run` is stopping: each job's mutations are whole, so the next run (after the
        # restart) picks up where this one stopped. Not an error, and no traceback in the log.
        log.info("maintenance interrupted by shutdown; the next run goes on from here")
        return
    except Exception:  # never let the scheduler's job die silently
        log.exception("scheduled maintenance failed; the next run retries")
        return
    for report in reports:
        if report.errors:
            log.warning("%s", report.summary())


async def start_scheduler(stores: OpsStores) -> AsyncIOScheduler:
    """Start the jobs on the running loop; ``scheduler.shutdown()`` stops them."""
    scheduler = AsyncIOScheduler(timezone="UTC")
    scheduler.add_job(
        _pass, IntervalTrigger(seconds=INTERVAL.total_seconds(), timezone="UTC"),
        args=(stores, CONTINUOUS), id="maintenance", name="memory maintenance",
        next_run_time=utcnow() + FIRST_RUN_DELAY, max_instances=1, coalesce=True,
        misfire_grace_time=int(INTERVAL.total_seconds() // 2),
    )
    scheduler.add_job(
        _pass, CronTrigger(hour=3, minute=30, timezone="UTC"), args=(stores, ("compress",)),
        id="compress", name="weekly episode compression", max_instances=1, coalesce=True,
        misfire_grace_time=3600,
    )
    scheduler.start()
    log.info("maintenance scheduled: %s every %s; compression daily 03:30 UTC",
             ", ".join(CONTINUOUS), INTERVAL)
    return scheduler
