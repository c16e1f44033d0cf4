"""Expire ``state`` and ``commitment`` records past ``valid_until`` (seed 004: a state without
an expiry becomes a confident lie). Expired records are archived, not deleted.

The writer gives a new ``state`` a ``valid_until`` (``policy.lifetimes.STATE_LIFETIME``); a ``state``
stored without one (older records) is held to the same lifetime from its last confirmation
("tired today" is not true next month). A commitment without one has no known end and is
left alone."""

from __future__ import annotations

from graph.models import Status
from wave_agent.ops.maintenance.base import JobContext, each_graph_user
from wave_agent.ops.maintenance.report import Action, JobReport
from wave_agent.policy.lifetimes import EXPIRING, expires_at, is_expired


class Expire:
    name = "expire"
    description = "archive state and commitment records past valid_until"

    async def run(self, ctx: JobContext, report: JobReport) -> None:
        async def work(user_id: str) -> None:
            graph = await ctx.stores.graph()
            live = await graph.list_facts(user_id, statuses=(Status.ACTIVE,), types=EXPIRING)
            due = [f for f in live if is_expired(f, ctx.now)]
            if not due:
                return
            writer = None if ctx.dry_run else await ctx.stores.writer()
            for fact in due:
                end = expires_at(fact)
                detail = f"{fact.type.value} valid until {end:%Y-%m-%d %H:%M}" if end else ""
                action = report.add(Action("expired", user_id, (fact.id,), detail))
                if writer is not None:
                    await writer.expire(user_id, fact.id)
                    action.applied = True

        await each_graph_user(ctx, report, work)
