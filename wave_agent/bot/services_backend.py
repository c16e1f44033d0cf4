"""``BotBackend`` over ``Services``: the bot calls exactly what the CLI calls.

Memory scope: a Telegram user's Wave user id is ``tg-<telegram id>`` (``wave_user_id``); the
CLI reaches the same memory with ``--user tg-<telegram id>``.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from graph.commitments import Commitment, CommitmentState
from graph.models import Status, Veracity
from wave_agent.app.export import Export, export_memory
from wave_agent.bot.backend import (
    ChatReply,
    MemoryView,
    Provenance,
    ReviewItem,
    ReviewKind,
)

if TYPE_CHECKING:
    from wave_agent.commitments.sweep import ReminderSweep, Send, SweepReport
    from wave_agent.conversation.turn import TurnService
    from wave_agent.services import Services

log = logging.getLogger("wave.bot.backend")


class ServicesBackend:
    """The real backend. One per process; holds the background post-processing tasks."""

    def __init__(self, services: Services) -> None:
        self.services = services
        self._turns: TurnService | None = None
        self._sweep: ReminderSweep | None = None

    async def _turn_service(self) -> TurnService:
        if self._turns is None:
            self._turns = await self.services.turns()
        return self._turns

    # Memory views -------------------------------------------------------------------------

    async def memory(self, user_id: str) -> MemoryView:
        from wave_agent.blocks.store import LABELS

        graph = await self.services.graph()
        blocks = await self.services.blocks()
        values = {label: (await blocks.get(user_id, label)).value for label in LABELS}
        facts = await graph.list_facts(
            user_id, statuses=(Status.ACTIVE, Status.ARCHIVED, Status.QUARANTINED)
        )
        return MemoryView(blocks=values, facts=facts)

    async def export(self, user_id: str) -> Export:
        return await export_memory(
            user_id,
            graph=await self.services.graph(),
            blocks=await self.services.blocks(),
            episodes=await self.services.episodes(),
            snapshots=await self.services.snapshots(),
            session_log=(await self.services.sessions()).log,
            outbox=self.services.outbox(),
        )

    # Commitments ----------------------------------------------------------------------------

    async def commitments(self, user_id: str) -> list[Commitment]:
        return await (await self.services.commitments()).open(user_id)

    async def close_commitment(self, user_id: str, commitment_id: str,
                               state: CommitmentState) -> Commitment:
        return await (await self.services.commitments()).close(user_id, commitment_id, state)

    async def postpone_commitment(self, user_id: str, commitment_id: str, to: str
                                  ) -> Commitment:
        return await (await self.services.commitments()).postpone(user_id, commitment_id, to)

    async def set_reminders(self, user_id: str, on: bool) -> None:
        await (await self.services.commitments()).set_prefs(user_id, enabled=on)

    async def reminder_settings(self, user_id: str, *, timezone: str | None = None,
                                hour: int | None = None) -> None:
        if timezone is None and hour is None:
            from wave_agent.commitments.ledger import NoDate

            raise NoDate("nothing to set", next_step="/reminders tz Europe/Moscow, or "
                                                     "/reminders hour 9 (0-23)")
        await (await self.services.commitments()).set_prefs(user_id, timezone=timezone,
                                                             hour=hour)

    async def remind(self, send: Send) -> SweepReport:
        from wave_agent.commitments.sweep import ReminderSweep

        if self._sweep is None:
            self._sweep = ReminderSweep(await self.services.commitments(), send, users="tg-")
        self._sweep.send = send
        return await self._sweep.tick()

    async def forget_me_preview(self, user_id: str) -> str:
        counts = await (await self.services.eraser()).what_would_go(user_id)
        shown = [f"{n} {what}" for what, n in counts.items() if n > 0]
        return ", ".join(shown) if shown else "nothing stored yet"

    async def forget_me(self, user_id: str) -> str:
        """/forget_me: every layer (the same ``Eraser`` as ``wave forget-me``); the erasure's
        announcement drops what this process holds for the person (cached blocks and notes,
        the last debug view)."""
        # Post-processing still running for this exchange would write it back afterwards.
        await self.services.postprocessor().drain(60)
        report = await (await self.services.eraser()).forget_person(user_id)
        gone = [layer for layer, counts in report.layers.items() if counts]
        text = "Removed from: " + (", ".join(gone) if gone else "nothing held anything") + "."
        if report.pending:
            text += " Still to finish: " + "; ".join(report.pending) + "."
        return text

    # Conversation -------------------------------------------------------------------------

    async def start(self) -> None:
        """Open the stores before the first message (outside any turn's read timeout)."""
        turns = await self._turn_service()
        await turns.warm_up()
        if self.services.outbox().pending_count():
            self.services.postprocessor().kick()  # leftovers of an earlier run

    async def chat(self, user_id: str, text: str, provenance: Provenance | None) -> ChatReply:
        turns = await self._turn_service()
        veracity = Veracity.IMPORTED if provenance is not None else Veracity.STATED
        # the judge of small talk reads the message as sent, not the marker line and quote the
        # bot put around it (h/smalltalk25's judge read the marker and dropped a forwarded fact)
        own = provenance.sent if provenance is not None and provenance.sent.strip() else None
        result = await turns.handle(user_id, text, veracity=veracity.value, own_words=own)
        return ChatReply(text=result.reply, pending=result.exchange_id if result.queued else None)

    def after_reply(self, user_id: str, reply: ChatReply) -> None:
        if reply.pending is not None:
            self.services.postprocessor().kick()

    async def reset(self, user_id: str) -> str:
        turns = await self._turn_service()
        ended = await turns.reset(user_id)
        if not ended:
            return "There was no open conversation to close."
        snapshot = await (await self.services.snapshots()).latest(user_id)
        if snapshot is None:
            return "The conversation is closed."
        return (f"I kept a snapshot of it ({snapshot.turns} turns): {snapshot.summary} "
                "It comes back once, at the start of the next conversation.")

    def debug(self, user_id: str) -> str | None:
        last = self._turns.last_debug(user_id) if self._turns is not None else None
        return last.render() if last is not None else None

    async def drain(self, timeout_s: float) -> None:
        report = await self.services.postprocessor().drain(timeout_s)
        if report.pending:
            log.warning("%d exchanges still in the outbox at exit (%s); the next run retries them",
                        report.pending, report.last_error)
        else:
            log.info("post-processor drained (%d exchanges)", report.processed)

    # A person's moves ----------------------------------------------------------------------

    async def forget(self, user_id: str, fact_id: str) -> str:
        writer = await self.services.writer()
        result = await writer.forget(user_id, fact_id)
        if result.fact is not None and result.status.value == "forgotten":
            return (f"Archived #{result.fact.id} (\"{result.fact.text}\"): it is out of my "
                    "prompts now, and nothing is deleted; it can be restored.")
        return result.message

    async def review_items(self, user_id: str, kind: ReviewKind) -> list[ReviewItem]:
        graph = await self.services.graph()
        if kind == "quarantine":
            held = await graph.list_facts(user_id, statuses=(Status.QUARANTINED,))
            return [
                ReviewItem(f.id, "Held in quarantine", f.quarantine_reason or "looked suspicious",
                           (f"«{f.text}»",))
                for f in held
            ]
        pending = await graph.list_proposals(user_id)
        targets = {f.id: f for f in await graph.get_facts(
            user_id, [t for p in pending for t in p.target_ids])}
        items = []
        for p in pending:
            details = [f"now: «{targets[t].text}» ({t})" if t in targets else f"now: {t}"
                       for t in p.target_ids]
            if p.text:
                details.append(f"proposed: «{p.text}»")
            items.append(ReviewItem(p.id, f"Proposal: {p.kind.value}", p.reason, tuple(details)))
        return items

    async def decide(self, user_id: str, item_id: str, approve: bool) -> str:
        from wave_agent.app.decisions import decide

        result = await decide(await self.services.writer(), self.services.eraser, user_id,
                              item_id, approve=approve)
        return result.message

    # Reflection and health ------------------------------------------------------------------

    async def reflect(self, user_id: str, question: str) -> str:
        result = await (await self.services.reflect()).reflect(user_id, question)
        return result.text

    async def health(self, user_id: str) -> str:
        from wave_agent.ops.health import health_report, render_text

        return render_text(await health_report(self.services.ops_stores(), user_id))
