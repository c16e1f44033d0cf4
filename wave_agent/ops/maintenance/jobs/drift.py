"""Repair archive/graph drift (``maintenance.drift``): re-embed facts without vectors, re-send
facts flagged ``needs_index`` (``Writer.repair_index``), remove vectors without facts. Only
the derived index changes; the graph's text is never touched."""

from __future__ import annotations

from wave_agent.errors import WaveError
from wave_agent.ops.maintenance.base import JobContext, each_graph_user
from wave_agent.ops.maintenance.drift import index_drift
from wave_agent.ops.maintenance.report import Action, JobReport
from wave_agent.write.result import ArchiveState


class Drift:
    name = "drift"
    description = "repair the archive: re-embed facts without vectors, drop orphan vectors"

    async def run(self, ctx: JobContext, report: JobReport) -> None:
        async def work(user_id: str) -> None:
            writer = await ctx.stores.writer()
            sync = writer.archive
            if sync.archive is None:
                raise WaveError(f"the archive is unavailable ({sync.problem})",
                                next_step="the next maintenance run retries")
            drift = await index_drift(writer.graph, sync.archive, user_id)
            flagged = set(drift.flagged)
            unflagged = [drift.facts[fid] for fid in drift.missing if fid not in flagged]
            if flagged:
                action = report.add(Action("reindexed", user_id, drift.flagged,
                                           "flagged needs_index: re-sent to the archive"))
                if not ctx.dry_run:
                    landed = await writer.repair_index(user_id)
                    action.applied = landed == len(flagged)
                    if not action.applied:
                        raise WaveError(f"{len(flagged) - landed} flagged record(s) still "
                                        "pending", next_step="the next maintenance run retries")
            if unflagged:
                action = report.add(Action("reindexed", user_id, tuple(f.id for f in unflagged),
                                           "facts without vectors: re-embedded"))
                if not ctx.dry_run:
                    state = await sync.upsert(user_id, unflagged)
                    if state is ArchiveState.PENDING:
                        raise WaveError(f"re-embedding failed ({sync.problem})",
                                        next_step="the next maintenance run retries")
                    action.applied = True
            if drift.orphans:
                action = report.add(Action("orphans-removed", user_id, drift.orphans,
                                           "vectors without a fact in the graph"))
                if not ctx.dry_run:
                    state = await sync.delete(user_id, list(drift.orphans))
                    if state is ArchiveState.PENDING:
                        raise WaveError(f"removing orphan vectors failed ({sync.problem})",
                                        next_step="the next maintenance run retries")
                    action.applied = True

        await each_graph_user(ctx, report, work)
