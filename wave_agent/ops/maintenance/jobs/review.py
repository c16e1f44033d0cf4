"""The review list (seed 002, "Ревизия"): facts not confirmed for 6 months if they hold
numbers (prices, dates, team sizes go stale in life), 2 years otherwise. Shown to the person,
never demoted: "Спросить дёшево. Забыть дорого." The job changes nothing."""

from __future__ import annotations

from graph.models import Status
from wave_agent.ops.maintenance.base import JobContext, each_graph_user
from wave_agent.ops.maintenance.report import Action, JobReport
from wave_agent.policy import numbers
from wave_agent.policy.lifetimes import REVIEWED_TIERS, due_for_review


class Review:
    name = "review"
    description = "list facts due for review (numbers: 6 months, others: 2 years); never demotes"

    async def run(self, ctx: JobContext, report: JobReport) -> None:
        async def work(user_id: str) -> None:
            graph = await ctx.stores.graph()
            live = await graph.list_facts(user_id, tiers=REVIEWED_TIERS, statuses=(Status.ACTIVE,))
            for fact in sorted(live, key=lambda f: f.last_confirmed_at):
                if due_for_review(fact, ctx.now):
                    days = (ctx.now - fact.last_confirmed_at).days
                    why = "holds numbers" if numbers.numbers(fact.text) else "no numbers"
                    report.add(Action("review", user_id, (fact.id,),
                                      f"not confirmed for {days} days ({why}): still true? "
                                      f"{fact.text[:160]}"))

        await each_graph_user(ctx, report, work)
