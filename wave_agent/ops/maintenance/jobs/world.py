"""Backfill the person's world (``maintenance.world``): records written before entities were
read from every record are read now (``Writer.read_world``), linked to the people, places and
things they name, and their typed relations stated, oldest first, in batches."""

from __future__ import annotations

from wave_agent.ops.maintenance.base import JobContext, each_graph_user
from wave_agent.ops.maintenance.report import Action, JobReport

BATCH = 500
MAX_BATCHES = 40  # 20,000 records a run; the next run goes on


class World:
    name = "world"
    description = "read older records for entities and typed relations (the world graph)"

    async def run(self, ctx: JobContext, report: JobReport) -> None:
        async def work(user_id: str) -> None:
            writer = await ctx.stores.writer()
            if ctx.dry_run:
                waiting = await writer.graph.facts_unread(user_id, limit=BATCH)
                if waiting:
                    report.add(Action("world", user_id, tuple(f.id for f in waiting),
                                      f"{len(waiting)} record(s) to read for entities"))
                return
            read = linked = related = 0
            for _ in range(MAX_BATCHES):
                done, with_entities, relations = await writer.read_world(user_id, limit=BATCH)
                read, linked, related = read + done, linked + with_entities, related + relations
                if done < BATCH:
                    break
            if read:
                report.add(Action("world", user_id, (), f"read {read} older record(s): "
                                  f"{linked} linked to entities, {related} relation(s) stated",
                                  applied=True))

        await each_graph_user(ctx, report, work)
