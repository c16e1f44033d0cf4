"""After an erasure: make sure the erased bytes are gone from Wave's own files too.

``wave delete`` and ``wave forget-me`` compact what they touch at once; when another process
held a file busy at that instant (the bot reading the session log), the old bytes can stay in a
SQLite ``-wal`` file or in free pages. This job runs when an erasure happened since its last
run (``erasures.log`` newer than ``erasures.compacted``; always when users are named): a WAL
checkpoint and ``VACUUM`` of the session log, the outbox and the Letta queue, and of each local
Qdrant collection. What Neo4j and a Qdrant server keep in their own files is described in the
README ("Privacy"); this job does not reach into them.
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING

from wave_agent.infra.sqlite import compact_file
from wave_agent.ops.erasure.eraser import AUDIT_FILE
from wave_agent.ops.maintenance.report import Action, JobReport

if TYPE_CHECKING:
    from wave_agent.ops.maintenance.base import JobContext

log = logging.getLogger("wave.maintenance")

MARKER = "erasures.compacted"


class Erasure:
    name = "erasure"
    description = "compact Wave's SQLite files and the local archive after an erasure"

    async def run(self, ctx: JobContext, report: JobReport) -> None:
        data = ctx.stores.data_dir
        audit, marker = data / AUDIT_FILE, data / MARKER
        asked = ctx.user_ids is not None
        if not asked and (not audit.exists() or (
                marker.exists() and marker.stat().st_mtime >= audit.stat().st_mtime)):
            return  # no erasure since the last compaction
        for path in ctx.stores.sqlite_files:
            if not path.exists():
                continue
            action = report.add(Action("compacted", "", (path.name,), "WAL checkpoint + VACUUM"))
            if not ctx.dry_run:
                action.applied = await asyncio.to_thread(compact_file, path)
        if ctx.stores.archive_is_local:
            await self._archive(ctx, report)
        if not ctx.dry_run and not report.errors and all(a.applied for a in report.actions):
            marker.touch()

    async def _archive(self, ctx: JobContext, report: JobReport) -> None:
        try:
            archive = await ctx.stores.archive()
            users = ctx.user_ids or tuple(await ctx.graph_users())
        except Exception as exc:  # locked by `wave run` or down: the next run retries
            report.fail(None, exc)
            return
        for user_id in users:
            action = report.add(Action("compacted", user_id, ("archive",),
                                       "local Qdrant collection: WAL checkpoint + VACUUM"))
            if ctx.dry_run:
                continue
            try:
                action.applied = await archive.compact(user_id)
            except Exception as exc:
                report.fail(user_id, exc)
