"""What every maintenance job gets (``JobContext``) and how it walks the users.

A job is an object with a ``name``, a one-line ``description`` and ``async run(ctx, report)``.
It reads through the stores, changes facts only through the ``Writer`` (and only when
``ctx.dry_run`` is false), and records each change or finding in the report. A store that is
down costs the run that user's (or that job's) work, recorded as an error; the next run
retries. Jobs never delete text.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Any, Protocol

from graph.models import Status
from wave_agent.ops.maintenance.report import JobReport

if TYPE_CHECKING:
    from graph.store import GraphStore
    from wave_agent.ops.maintenance.groups import Similarities
    from wave_agent.ops.stores import OpsStores

log = logging.getLogger("wave.maintenance")


@dataclass(frozen=True, slots=True)
class JobContext:
    stores: OpsStores
    now: datetime
    dry_run: bool = False
    user_ids: tuple[str, ...] | None = None  # None: every user the stores know
    _memo: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)

    async def similarities(self, user_id: str) -> Similarities:
        """Pairwise similarities of the person's active records, computed once per pass
        (the near-duplicate and generalisation jobs run back to back and change no fact)."""
        from wave_agent.ops.maintenance.groups import Similarities

        key = f"similarities:{user_id}"
        if key not in self._memo:
            graph = await self.stores.graph()
            live = await graph.list_facts(user_id, statuses=(Status.ACTIVE,))
            try:
                archive = await self.stores.archive()
            except Exception:  # locked or down: embed everything instead
                archive = None
            self._memo[key] = await Similarities.of(self.stores.embedder(), live,
                                                    archive=archive)
        return self._memo[key]  # type: ignore[no-any-return]

    async def graph_users(self) -> list[str]:
        """The users to work on: the ones asked for, else everyone with facts in the graph."""
        if self.user_ids is not None:
            return list(self.user_ids)
        graph = await self.stores.graph()
        return await users_in_graph(graph)


class Job(Protocol):
    name: str
    description: str

    async def run(self, ctx: JobContext, report: JobReport) -> None: ...


async def users_in_graph(graph: GraphStore) -> list[str]:
    return sorted({row.user_id for row in await graph.count_facts(None)})


async def each_user(
    ctx: JobContext, report: JobReport, users: Sequence[str],
    work: Callable[[str], Awaitable[None]],
) -> None:
    """Run ``work`` for each user; one user's failure is recorded and the others go on."""
    for user_id in users:
        report.users.append(user_id)
        try:
            await work(user_id)
        except Exception as exc:  # a store down or refusing: recorded, retried next run
            log.warning("maintenance %s for %s failed (retried next run): %s",
                        report.job, user_id, exc)
            report.fail(user_id, exc)


async def each_graph_user(
    ctx: JobContext, report: JobReport, work: Callable[[str], Awaitable[None]]
) -> None:
    """``each_user`` over the graph's users; an unreachable graph is one recorded error."""
    try:
        users = await ctx.graph_users()
    except Exception as exc:
        log.warning("maintenance %s: graph unavailable (retried next run): %s", report.job, exc)
        report.fail(None, exc)
        return
    await each_user(ctx, report, users, work)
