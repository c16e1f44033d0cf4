"""Archive observations nobody confirmed for 30 days (seed 002: "через месяц без подтверждений
уходят в архив"). Reversible (``wave restore``); facts, core and pinned records are never
touched: they stay until replaced."""

from __future__ import annotations

from datetime import timedelta

from graph.models import Status, Tier
from wave_agent.ops.maintenance.base import JobContext, each_graph_user
from wave_agent.ops.maintenance.report import Action, JobReport

STALE_AFTER = timedelta(days=30)


class ArchiveStale:
    name = "archive-stale"
    description = "archive observations unconfirmed for 30 days (reversible)"

    async def run(self, ctx: JobContext, report: JobReport) -> None:
        async def work(user_id: str) -> None:
            graph = await ctx.stores.graph()
            observations = await graph.list_facts(
                user_id, tiers=(Tier.OBSERVATION,), statuses=(Status.ACTIVE,))
            stale = [f for f in observations
                     if not f.pinned and ctx.now - f.last_confirmed_at > STALE_AFTER]
            if not stale:
                return
            writer = None if ctx.dry_run else await ctx.stores.writer()
            for fact in stale:
                days = (ctx.now - fact.last_confirmed_at).days
                reason = f"observation unconfirmed for {days} days"
                action = report.add(Action("archived", user_id, (fact.id,), reason))
                if writer is not None:
                    await writer.archive_stale(user_id, fact.id, reason)
                    action.applied = True

        await each_graph_user(ctx, report, work)
