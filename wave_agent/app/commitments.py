"""Commitments for every surface: one plain view of a commitment and one way to act on it
(done, cancel, move), so the CLI, the memory page and the MCP tool say and do the same."""

from __future__ import annotations

from typing import Any

from graph.commitments import Commitment, CommitmentState
from graph.models import FactType, Status, new_id
from wave_agent.commitments import words
from wave_agent.commitments.ledger import Commitments, NoDate, Noted
from wave_agent.infra import clock
from wave_agent.write.result import WriteResult
from wave_agent.write.writer import Writer

ACTIONS = ("done", "cancel", "reopen", "tomorrow", "week", "move")


def commitment_json(c: Commitment) -> dict[str, Any]:
    """A commitment as plain values: due time in UTC and as the person reads it."""
    lang = words.lang_of(c.text)
    return {
        "id": c.id, "text": c.text, "state": c.state.value,
        "due_at": c.due_at.isoformat() if c.due_at else None,
        "due": words.when(c.due_at, c.timezone, lang), "timezone": c.timezone,
        "needs_date": c.needs_date, "sources": list(c.source_ids),
        "reminded_at": c.reminded_at.isoformat() if c.reminded_at else None,
        "history": [{"at": e.at.isoformat(), "what": e.what,
                     "due_at": e.due_at.isoformat() if e.due_at else None,
                     "source": e.source_id} for e in c.history],
    }


async def add(writer: Writer, ledger: Commitments, user_id: str, text: str) -> Commitment:
    """A promise typed by the person (``wave commitments add``): stored as a ``commitment``
    record through the writer, then read for its due time like one said in conversation."""
    result = await writer.remember(user_id, text, type=FactType.COMMITMENT,
                                   exchange_id=new_id("cli"))
    noted = await note_written(ledger, user_id, result)
    if noted is None:
        raise NoDate(f"not stored as a commitment ({result.status.value})",
                     next_step="see `wave facts` for what the writer did with it")
    return noted.commitment


async def note_written(ledger: Commitments, user_id: str, result: WriteResult) -> Noted | None:
    """After a write outside conversation (CLI, MCP): the record's commitment, if it makes or
    moves one (a quarantined or proposed text makes none until the person approves it)."""
    fact = result.fact
    if fact is None or fact.status is not Status.ACTIVE:
        return None
    return await ledger.note(user_id, fact, written_at=clock.now())


async def act(ledger: Commitments, user_id: str, commitment_id: str, action: str,
              when: str | None = None) -> Commitment:
    """Do ``action`` to a person's commitment; ``move`` takes ``when`` in words."""
    if action == "done":
        return await ledger.close(user_id, commitment_id, CommitmentState.DONE)
    if action == "cancel":
        return await ledger.close(user_id, commitment_id, CommitmentState.CANCELLED)
    if action == "reopen":
        return await ledger.close(user_id, commitment_id, CommitmentState.OPEN)
    if action in ("tomorrow", "week"):
        return await ledger.postpone(user_id, commitment_id, action)
    if action == "move":
        if not when:
            raise NoDate("moving needs a date", next_step="say when, e.g. «в пятницу в 10»")
        return await ledger.postpone(user_id, commitment_id, when)
    raise NoDate(f"unknown action {action!r}", next_step="use one of: " + ", ".join(ACTIONS))
