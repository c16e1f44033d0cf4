"""Near-duplicate clusters (seed 004: five near-copies split recall): active records the
writer would have confirmed instead of adding (batch imports skip that check; records written
while the archive was down are compared lexically only). Reported, not merged: the
generalise job proposes merges for observations, the person decides."""

from __future__ import annotations

from typing import TYPE_CHECKING

from graph.models import Fact, Status
from wave_agent.maintenance import groups
from wave_agent.maintenance.base import JobContext, each_graph_user
from wave_agent.maintenance.report import Action, JobReport

if TYPE_CHECKING:
    from wave_agent.services import Services


async def duplicate_clusters(services: Services, user_id: str) -> list[list[Fact]]:
    graph = await services.graph()
    live = await graph.list_facts(user_id, statuses=(Status.ACTIVE,))
    if len(live) < 2:
        return []
    sims = await groups.Similarities.of(services.embedder(), live)
    return groups.components(sims.duplicate_pairs())


class Duplicates:
    name = "duplicates"
    description = "report clusters of near-duplicate active records"

    async def run(self, ctx: JobContext, report: JobReport) -> None:
        async def work(user_id: str) -> None:
            for cluster in await duplicate_clusters(ctx.services, user_id):
                ids = tuple(f.id for f in cluster)
                first = cluster[0].text[:120]
                report.add(Action("cluster", user_id, ids,
                                  f"{len(ids)} near-duplicates of \u201c{first}\u201d"))

        await each_graph_user(ctx, report, work)
