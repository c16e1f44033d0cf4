"""Promote observations confirmed in two different exchanges to ``fact`` (seed 002: "Факт.
Подтвердилось дважды"). The writer promotes on the spot when it confirms a record (also in
``remember_many``); this job catches records that missed it (stored by an older version or
imported from one, confirmed while the tiers rule was different)."""

from __future__ import annotations

from graph.models import Status, Tier
from wave_agent.ops.maintenance.base import JobContext, each_graph_user
from wave_agent.ops.maintenance.report import Action, JobReport
from wave_agent.policy import tiers


class Promote:
    name = "promote"
    description = "promote observations confirmed in two different exchanges"

    async def run(self, ctx: JobContext, report: JobReport) -> None:
        async def work(user_id: str) -> None:
            graph = await ctx.stores.graph()
            observations = await graph.list_facts(
                user_id, tiers=(Tier.OBSERVATION,), statuses=(Status.ACTIVE,))
            ready = [f for f in observations
                     if tiers.distinct_exchanges(f.exchange_ids) >= tiers.PROMOTION_EXCHANGES]
            if not ready:
                return
            writer = None if ctx.dry_run else await ctx.stores.writer()
            for fact in ready:
                n = tiers.distinct_exchanges(fact.exchange_ids)
                action = report.add(Action("promoted", user_id, (fact.id,),
                                           f"confirmed in {n} different exchanges"))
                if writer is not None:
                    await writer.promote(user_id, fact.id)
                    action.applied = True

        await each_graph_user(ctx, report, work)
