"""Run maintenance jobs once (``wave maintain``) or on schedule (``scheduler``).

Jobs run one after another in ``JOBS`` order (expiry and archiving before promotion and the
proposals, drift repair after every write, then compression; the core-block updates queued
while Letta was down last, as they touch no fact). One process runs one
maintenance pass at a time; the scheduler and a manual call queue on the same lock.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Iterable, Sequence
from datetime import datetime
from typing import TYPE_CHECKING

from graph.models import utcnow
from wave_agent.errors import WaveError
from wave_agent.ops.maintenance.base import Job, JobContext
from wave_agent.ops.maintenance.jobs.archive_stale import ArchiveStale
from wave_agent.ops.maintenance.jobs.blocks import Blocks
from wave_agent.ops.maintenance.jobs.compress import Compress
from wave_agent.ops.maintenance.jobs.drift import Drift
from wave_agent.ops.maintenance.jobs.duplicates import Duplicates
from wave_agent.ops.maintenance.jobs.erasure import Erasure
from wave_agent.ops.maintenance.jobs.expire import Expire
from wave_agent.ops.maintenance.jobs.generalise import Generalise
from wave_agent.ops.maintenance.jobs.promote import Promote
from wave_agent.ops.maintenance.jobs.review import Review
from wave_agent.ops.maintenance.jobs.world import World
from wave_agent.ops.maintenance.report import JobReport
from wave_agent.write.events import ChangeKind, MemoryChanges

if TYPE_CHECKING:
    from wave_agent.ops.stores import OpsStores

log = logging.getLogger("wave.maintenance")

JOBS: tuple[Job, ...] = (
    Expire(), ArchiveStale(), Promote(), Duplicates(), Generalise(), Review(), Drift(), World(),
    Compress(), Blocks(), Erasure(),
)
JOB_NAMES: tuple[str, ...] = tuple(job.name for job in JOBS)

_running = asyncio.Lock()


def select(names: Iterable[str] | None) -> list[Job]:
    """The jobs named (in run order), all when ``names`` is empty; unknown names refused."""
    wanted = [n.strip().lower() for n in (names or ()) if n.strip()]
    if not wanted:
        return list(JOBS)
    unknown = [n for n in wanted if n not in JOB_NAMES]
    if unknown:
        raise WaveError(f"unknown maintenance job {', '.join(unknown)}",
                        next_step=f"use one of: {', '.join(JOB_NAMES)} (or omit --job for all)")
    return [job for job in JOBS if job.name in wanted]


async def run_maintenance(
    stores: OpsStores,
    *,
    jobs: Sequence[str] | None = None,
    dry_run: bool = False,
    user_ids: Sequence[str] | None = None,
    now: datetime | None = None,
) -> list[JobReport]:
    """Run the jobs once; every job reports, a failing store never stops the others."""
    chosen = select(jobs)
    when = now or utcnow()
    if when.tzinfo is None:
        raise WaveError("maintenance `now` has no time zone",
                        next_step="pass a timezone-aware UTC datetime")
    ctx = JobContext(stores, when, dry_run,
                     tuple(user_ids) if user_ids is not None else None)
    reports: list[JobReport] = []
    async with _running:
        for job in chosen:
            report = JobReport(job.name, dry_run, utcnow())
            try:
                await job.run(ctx, report)
            except Exception as exc:  # a job's own bug or a store down: reported, others go on
                log.exception("maintenance job %s failed", job.name)
                report.fail(None, exc)
            log.info("%s", report.summary())
            reports.append(report)
    _announce(stores.changes, reports)
    return reports


def _announce(changes: MemoryChanges, reports: Sequence[JobReport]) -> None:
    """One announcement per person whose memory a pass changed. Moves through the writer
    (archive, expire, promote, reindex) announce themselves already; this covers what a job
    changes beside it (core-block updates landed from Letta's queue, compressed summaries), so a
    pass run by the scheduler inside ``wave run`` reaches the bot's cached notes and blocks."""
    changed: dict[str, list[str]] = {}
    for report in reports:
        for action in report.actions:
            if action.applied and action.user_id:  # a file compacted names no one
                changed.setdefault(action.user_id, []).extend(action.ids)
    for user_id, ids in changed.items():
        changes.announce(user_id, ChangeKind.MAINTAINED, dict.fromkeys(ids))
