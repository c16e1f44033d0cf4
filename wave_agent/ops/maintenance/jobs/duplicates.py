"""Near-duplicate clusters (seed 004: five near-copies split recall): active records the
writer would have confirmed instead of adding (batch imports skip that check; records written
while the archive was down are compared lexically only). Reported, not merged: the
generalise job proposes merges for observations, the person decides."""

from __future__ import annotations

from wave_agent.ops.maintenance import groups
from wave_agent.ops.maintenance.base import JobContext, each_graph_user
from wave_agent.ops.maintenance.report import Action, JobReport


class Duplicates:
    name = "duplicates"
    description = "report clusters of near-duplicate active records"

    async def run(self, ctx: JobContext, report: JobReport) -> None:
        async def work(user_id: str) -> None:
            sims = await ctx.similarities(user_id)
            for cluster in groups.components(sims.duplicate_pairs()):
                ids = tuple(f.id for f in cluster)
                first = cluster[0].text[:120]
                report.add(Action("cluster", user_id, ids,
                                  f"{len(ids)} near-duplicates of \u201c{first}\u201d"))

        await each_graph_user(ctx, report, work)
