"""The reminder sweep: "is anything due?", asked by a scheduler (or a test) with ``tick()``.

It reads Wave's clock (``infra.clock``), so moving ``WAVE_NOW`` moves what is due. For each open
commitment due by now whose reminder for this due time has not gone out, it claims the reminder
in the graph, sends it, and records that it went; a send that fails gives the claim back and the
next tick retries. So a reminder that fell due while the bot was down goes out once when it is
back (``late`` when more than ``late_after`` past due), and two ticks, two processes or a restart
never send one twice. Commitments whose date was unclear get one question each.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import timedelta
from typing import Literal

from graph.commitments import Commitment, CommitmentEvent
from wave_agent.commitments.ledger import Commitments
from wave_agent.infra import clock

log = logging.getLogger("wave.commitments.sweep")

LATE_AFTER = timedelta(minutes=15)


@dataclass(frozen=True, slots=True)
class Notice:
    kind: Literal["reminder", "question"]
    late: bool = False


Send = Callable[[Commitment, Notice], Awaitable[None]]


@dataclass(frozen=True, slots=True)
class SweepReport:
    sent: int = 0
    asked: int = 0
    failed: int = 0
    missed: int = 0


class ReminderSweep:
    """``tick()`` sends what is due through ``send``; ``users`` is the prefix of the ids whose
    reminders this process can deliver (the bot: ``tg-``, Telegram people)."""

    def __init__(self, ledger: Commitments, send: Send, *, users: str = "",
                 late_after: timedelta = LATE_AFTER, lease_s: float = 300.0) -> None:
        self.ledger = ledger
        self.send = send
        self.users = users
        self.late_after = late_after
        self.lease_s = lease_s

    async def tick(self) -> SweepReport:
        graph = self.ledger.graph
        now = clock.now()
        sent = asked = failed = 0
        due = await graph.due_commitments(now, users=self.users, lease_s=self.lease_s)
        unasked = await graph.unasked_commitments(users=self.users)
        off = await graph.reminders_off(sorted({c.user_id for c in due + unasked}))
        for c in due:
            if c.user_id in off or not await graph.claim_reminder(c, now, lease_s=self.lease_s):
                continue
            late = c.due_at is not None and now - c.due_at > self.late_after
            try:
                await self.send(c, Notice("reminder", late=late))
            except Exception:
                log.exception("reminder %s for %s not sent; the next tick retries", c.id,
                              c.user_id)
                await graph.release_reminder(c)
                failed += 1
                continue
            await graph.reminded(c, CommitmentEvent(now, "reminded (late)" if late
                                                    else "reminded", c.due_at))
            sent += 1
        for c in unasked:
            if c.user_id in off or not await graph.claim_question(c, now):
                continue
            try:
                await self.send(c, Notice("question"))
                asked += 1
            except Exception:
                log.exception("question about %s for %s not sent; the next tick retries", c.id,
                              c.user_id)
                await graph.flag_needs_date(c.user_id, c.id)
                failed += 1
        missed = await self.ledger.mark_missed()
        if sent or asked or failed or missed:
            log.info("reminders: %d sent, %d asked, %d failed, %d missed", sent, asked, failed,
                     missed)
        return SweepReport(sent, asked, failed, missed)
