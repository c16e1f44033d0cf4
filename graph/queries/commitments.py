"""Commitments and reminder settings: create, read, list, move, close, claim a reminder.

Every query matches on ``user_id`` except ``due_commitments``, the scheduler's sweep over all
people (it returns each commitment with its owner). A reminder is claimed before it is sent
(``claim_reminder``: at most one process wins a due time) and confirmed after
(``reminded``); a claim that was never confirmed (the process died mid-send) is open again after
``lease_s``, so a reminder is neither lost nor sent twice by two processes.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime, timedelta
from typing import Any

from graph.commitments import Commitment, CommitmentEvent, CommitmentState, ReminderPrefs
from graph.errors import CommitmentNotFound, InvalidInput
from graph.queries.base import Executor


def _native(value: Any) -> Any:
    return value.to_native() if hasattr(value, "to_native") else value


def commitment_from(node: Mapping[str, Any], sources: Sequence[str] = ()) -> Commitment:
    p = dict(node)
    return Commitment(
        id=p["id"], user_id=p["user_id"], text=p["text"], state=CommitmentState(p["state"]),
        created_at=_native(p["created_at"]), updated_at=_native(p["updated_at"]),
        due_at=_native(p.get("due_at")), timezone=p.get("timezone") or "UTC",
        source_ids=tuple(p.get("source_ids") or sources),
        reminded_due=_native(p.get("reminded_due")), reminded_at=_native(p.get("reminded_at")),
        needs_date=bool(p.get("needs_date")), asked_at=_native(p.get("asked_at")),
        history=tuple(CommitmentEvent.from_json(h) for h in p.get("history") or ()),
    )


_STATES = {s.value for s in CommitmentState}


class CommitmentQueries(Executor):
    async def create_commitment(self, commitment: Commitment) -> Commitment:
        """A new commitment linked to its source facts (those of the same person)."""
        c = commitment
        records = await self._write(
            """
            CREATE (c:Commitment {id: $id, user_id: $user_id, text: $text, state: $state,
                    created_at: $created_at, updated_at: $updated_at, due_at: $due_at,
                    timezone: $timezone, source_ids: $source_ids, history: $history})
            WITH c
            OPTIONAL MATCH (f:Fact) WHERE f.user_id = $user_id AND f.id IN $source_ids
            FOREACH (x IN CASE WHEN f IS NULL THEN [] ELSE [f] END | MERGE (c)-[:FROM]->(x))
            RETURN DISTINCT c
            """,
            id=c.id, user_id=c.user_id, text=c.text, state=c.state.value,
            created_at=c.created_at, updated_at=c.updated_at, due_at=c.due_at,
            timezone=c.timezone, source_ids=list(c.source_ids),
            history=[h.as_json() for h in c.history],
        )
        return commitment_from(records[0]["c"])

    async def get_commitment(self, user_id: str, commitment_id: str) -> Commitment | None:
        records = await self._read(
            "MATCH (c:Commitment {id: $id}) WHERE c.user_id = $user_id RETURN c",
            id=commitment_id, user_id=user_id)
        return commitment_from(records[0]["c"]) if records else None

    async def commitments_from(self, user_id: str, fact_ids: Sequence[str]) -> list[Commitment]:
        """The commitments read from any of these records."""
        records = await self._read(
            """
            MATCH (c:Commitment)-[:FROM]->(f:Fact)
            WHERE c.user_id = $user_id AND f.id IN $ids RETURN DISTINCT c
            """, user_id=user_id, ids=list(fact_ids))
        return [commitment_from(r["c"]) for r in records]

    async def list_commitments(
        self, user_id: str, states: Sequence[CommitmentState | str] | None = (CommitmentState.OPEN,),
        *, limit: int = 200,
    ) -> list[Commitment]:
        """By due time (those without one last), then by when they were made."""
        wanted = None if states is None else [CommitmentState(s).value for s in states]
        records = await self._read(
            """
            MATCH (c:Commitment) WHERE c.user_id = $user_id
              AND ($states IS NULL OR c.state IN $states)
            RETURN c ORDER BY c.due_at IS NULL, c.due_at, c.created_at LIMIT $limit
            """, user_id=user_id, states=wanted, limit=int(limit))
        return [commitment_from(r["c"]) for r in records]

    async def change_commitment(
        self, user_id: str, commitment_id: str, event: CommitmentEvent, *,
        state: CommitmentState | None = None, due_at: datetime | None = None,
        move: bool = False, text: str | None = None,
    ) -> Commitment:
        """Record ``event``: set the state and/or (``move=True``) the due time, link the event's
        source record, append the event to the history; all in one statement."""
        if state is not None and state.value not in _STATES:
            raise InvalidInput(f"unknown commitment state {state!r}")
        records = await self._write(
            """
            MATCH (c:Commitment {id: $id}) WHERE c.user_id = $user_id
            SET c.history = coalesce(c.history, []) + $event,
                c.updated_at = $at,
                c.state = coalesce($state, c.state),
                c.due_at = CASE WHEN $move THEN $due_at ELSE c.due_at END,
                c.text = coalesce($text, c.text),
                c.source_ids = CASE WHEN $source IS NULL OR $source IN c.source_ids
                                    THEN c.source_ids ELSE c.source_ids + $source END
            WITH c
            OPTIONAL MATCH (f:Fact {id: $source}) WHERE f.user_id = $user_id
            FOREACH (x IN CASE WHEN f IS NULL THEN [] ELSE [f] END | MERGE (c)-[:FROM]->(x))
            RETURN c
            """,
            id=commitment_id, user_id=user_id, event=event.as_json(), at=event.at,
            state=state.value if state is not None else None, due_at=due_at, move=move,
            text=text, source=event.source_id,
        )
        if not records:
            raise CommitmentNotFound(user_id, commitment_id)
        return commitment_from(records[0]["c"])

    async def due_commitments(self, now: datetime, *, users: str = "", limit: int = 100,
                              lease_s: float = 300.0) -> list[Commitment]:
        """Open commitments of every person due by ``now`` whose reminder for this due time
        has not gone out and is not being sent (an unconfirmed claim older than the lease is
        free again)."""
        records = await self._read(
            """
            MATCH (c:Commitment) WHERE c.state = 'open' AND c.due_at <= $now
              AND c.user_id STARTS WITH $users
              AND (c.reminded_due IS NULL OR c.reminded_due.epochMillis <> c.due_at.epochMillis)
              AND (c.claimed_due IS NULL OR c.claimed_due.epochMillis <> c.due_at.epochMillis
                   OR c.claimed_at < $stale)
            RETURN c ORDER BY c.due_at LIMIT $limit
            """, now=now, stale=now - timedelta(seconds=lease_s), users=users, limit=int(limit))
        return [commitment_from(r["c"]) for r in records]

    async def claim_reminder(self, commitment: Commitment, now: datetime, *,
                             lease_s: float = 300.0) -> bool:
        """Take the reminder for the commitment's current due time; False when another
        process has it, it went out already, or the due time moved meanwhile."""
        records = await self._write(
            """
            MATCH (c:Commitment {id: $id}) WHERE c.user_id = $user_id AND c.state = 'open'
              AND c.due_at.epochMillis = $due.epochMillis
              AND (c.reminded_due IS NULL
                   OR c.reminded_due.epochMillis <> c.due_at.epochMillis)
              AND (c.claimed_due IS NULL
                   OR c.claimed_due.epochMillis <> c.due_at.epochMillis
                   OR c.claimed_at < $stale)
            SET c.claimed_due = c.due_at, c.claimed_at = $now
            RETURN c.id AS id
            """, id=commitment.id, user_id=commitment.user_id, due=commitment.due_at, now=now,
            stale=now - timedelta(seconds=lease_s))
        return bool(records)

    async def release_reminder(self, commitment: Commitment) -> None:
        """Give a claim back after a send failed, so the next sweep tries again."""
        await self._write(
            "MATCH (c:Commitment {id: $id}) WHERE c.user_id = $user_id "
            "REMOVE c.claimed_due, c.claimed_at",
            id=commitment.id, user_id=commitment.user_id)

    async def reminded(self, commitment: Commitment, event: CommitmentEvent) -> None:
        """The reminder for the commitment's due time went out."""
        await self._write(
            """
            MATCH (c:Commitment {id: $id}) WHERE c.user_id = $user_id
            SET c.reminded_due = $due, c.reminded_at = $at,
                c.history = coalesce(c.history, []) + $event
            """, id=commitment.id, user_id=commitment.user_id, due=commitment.due_at,
            at=event.at, event=event.as_json())

    async def flag_needs_date(self, user_id: str, commitment_id: str) -> None:
        """The date was unclear: ask the person (again, if asked before)."""
        await self._write(
            "MATCH (c:Commitment {id: $id}) WHERE c.user_id = $user_id "
            "SET c.needs_date = true REMOVE c.asked_at", id=commitment_id, user_id=user_id)

    async def clear_needs_date(self, user_id: str, commitment_id: str) -> None:
        await self._write(
            "MATCH (c:Commitment {id: $id}) WHERE c.user_id = $user_id "
            "REMOVE c.needs_date, c.asked_at", id=commitment_id, user_id=user_id)

    async def unasked_commitments(self, *, users: str = "", limit: int = 100
                                  ) -> list[Commitment]:
        """Open commitments of every person whose unclear date nobody has asked about yet."""
        records = await self._read(
            """
            MATCH (c:Commitment) WHERE c.state = 'open' AND c.needs_date = true
              AND c.asked_at IS NULL AND c.user_id STARTS WITH $users
            RETURN c ORDER BY c.created_at LIMIT $limit
            """, users=users, limit=int(limit))
        return [commitment_from(r["c"]) for r in records]

    async def claim_question(self, commitment: Commitment, now: datetime) -> bool:
        """Take the question about an unclear date; False when it went out already."""
        records = await self._write(
            """
            MATCH (c:Commitment {id: $id}) WHERE c.user_id = $user_id AND c.needs_date = true
              AND c.asked_at IS NULL
            SET c.asked_at = $now RETURN c.id AS id
            """, id=commitment.id, user_id=commitment.user_id, now=now)
        return bool(records)

    async def overdue_commitments(self, before: datetime, *, limit: int = 500
                                  ) -> list[Commitment]:
        """Open commitments of every person, reminded, due before ``before``."""
        records = await self._read(
            """
            MATCH (c:Commitment) WHERE c.state = 'open' AND c.due_at < $before
              AND c.reminded_due.epochMillis = c.due_at.epochMillis
            RETURN c LIMIT $limit
            """, before=before, limit=int(limit))
        return [commitment_from(r["c"]) for r in records]

    async def delete_commitments(self, user_id: str, ids: Sequence[str]) -> int:
        records = await self._write(
            "MATCH (c:Commitment) WHERE c.user_id = $user_id AND c.id IN $ids "
            "DETACH DELETE c RETURN count(*) AS n", user_id=user_id, ids=list(ids))
        return int(records[0]["n"]) if records else 0

    # reminder settings ---------------------------------------------------------------------

    async def reminder_prefs(self, user_id: str) -> ReminderPrefs:
        records = await self._read(
            "MATCH (p:ReminderPrefs {user_id: $user_id}) RETURN p", user_id=user_id)
        if not records:
            return ReminderPrefs(user_id)
        p = dict(records[0]["p"])
        return ReminderPrefs(user_id, bool(p.get("enabled", True)), p.get("timezone"),
                             p.get("hour"))

    async def set_reminder_prefs(self, prefs: ReminderPrefs) -> ReminderPrefs:
        await self._write(
            """
            MERGE (p:ReminderPrefs {user_id: $user_id})
            SET p.enabled = $enabled, p.timezone = $timezone, p.hour = $hour
            """, user_id=prefs.user_id, enabled=prefs.enabled, timezone=prefs.timezone,
            hour=prefs.hour)
        return prefs

    async def reminders_off(self, user_ids: Sequence[str]) -> set[str]:
        """Which of these people turned reminders off."""
        records = await self._read(
            "MATCH (p:ReminderPrefs) WHERE p.user_id IN $ids AND p.enabled = false "
            "RETURN p.user_id AS u", ids=list(user_ids))
        return {r["u"] for r in records}
