"""``Commitments``: a person's promises as graph records with a due time and a state.

``note(user, fact, written_at)`` is called for each record the post-processor stored:
- a record that moves a promise ("перенесла звонок маме на субботу", "przełożyłam wizytę na
  środę", or a record superseding one a commitment came from) moves that commitment's due time;
  the history keeps the old one and the moving record becomes a source;
- a ``commitment`` record becomes a new commitment, its due time read by ``policy.dates`` in the
  person's zone relative to when it was written. A date a careful human would ask about is not
  guessed: the commitment waits with ``needs_date`` and the reminder sweep asks the person.
Calling it again for the same record changes nothing (the outbox may retry a step).

Closing (done, cancelled), moving by a button ("tomorrow", "next week", a typed date) and the
person's reminder settings (on/off, zone, hour) are here too, for every surface.
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass
from datetime import UTC, datetime, time, timedelta
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from graph.commitments import Commitment, CommitmentEvent, CommitmentState, ReminderPrefs
from graph.errors import CommitmentNotFound
from graph.models import Fact, FactType, new_id
from graph.store import GraphStore
from wave_agent.errors import WaveError
from wave_agent.infra import clock
from wave_agent.policy.dates import DueReading, read_due
from wave_agent.policy.similarity import content_stems

log = logging.getLogger("wave.commitments")

# Words that move a promise rather than make one.
MOVE = re.compile(
    r"(?i)\b(?:перенес\w*|перенос\w*|переназнач\w*|сдвину\w*|отложи\w*|отлож\w*|"
    r"przełoż\w*|przeniosł\w*|przesun\w*|odłoż\w*|"
    r"moved|move|postpone\w*|reschedul\w*|pushed)\b")
# Stems that say nothing about *what* was promised (dates, move verbs): ignored when matching.
_DATE_ONLY = re.compile(r"(?i)^\d+$")


class NoDate(WaveError):
    """A typed date could not be read (or needs a question answered first)."""


@dataclass(frozen=True, slots=True)
class Noted:
    commitment: Commitment
    created: bool = False
    moved: bool = False


class Commitments:
    """Commitments over the graph. ``default_timezone`` and ``reminder_hour`` apply to a
    person who has not set their own."""

    def __init__(self, graph: GraphStore, *, default_timezone: str = "UTC",
                 reminder_hour: int = 10) -> None:
        self.graph = graph
        self.default_timezone = default_timezone
        self.reminder_hour = reminder_hour

    # settings ----------------------------------------------------------------------------

    async def prefs(self, user_id: str) -> ReminderPrefs:
        stored = await self.graph.reminder_prefs(user_id)
        return ReminderPrefs(user_id, stored.enabled, stored.timezone or self.default_timezone,
                             stored.hour if stored.hour is not None else self.reminder_hour)

    async def set_prefs(self, user_id: str, *, enabled: bool | None = None,
                        timezone: str | None = None, hour: int | None = None) -> ReminderPrefs:
        stored = await self.graph.reminder_prefs(user_id)
        if timezone is not None:
            _zone(timezone)
        if hour is not None and not 0 <= hour <= 23:
            raise NoDate(f"{hour} is not an hour of the day", next_step="give 0-23, e.g. 9")
        return await self.graph.set_reminder_prefs(ReminderPrefs(
            user_id, stored.enabled if enabled is None else enabled,
            timezone or stored.timezone, stored.hour if hour is None else hour))

    async def read(self, user_id: str, text: str, written_at: datetime | None = None
                   ) -> DueReading:
        """``text``'s due time for this person (their zone and hour), as of ``written_at``."""
        prefs = await self.prefs(user_id)
        moment = (written_at or clock.now()).astimezone(_zone(prefs.timezone))
        return read_due(text, moment, prefs.hour or self.reminder_hour)

    # from memory records -----------------------------------------------------------------

    async def note(self, user_id: str, fact: Fact, *, written_at: datetime) -> Noted | None:
        """What a stored record means for the person's commitments (idempotent per record)."""
        already = await self.graph.commitments_from(user_id, [fact.id])
        if already:
            return Noted(already[0])
        reading = await self.read(user_id, fact.text, written_at)
        target = await self._moved_one(user_id, fact, reading)
        if target is not None:
            return Noted(await self._move_by_record(target, fact, reading, written_at),
                         moved=True)
        if fact.type is not FactType.COMMITMENT:
            return None
        prefs = await self.prefs(user_id)
        now = clock.now()
        events = [CommitmentEvent(now, "created", reading.due, fact.id)]
        if reading.ambiguous:
            events.append(CommitmentEvent(now, "needs date: " + reading.reason, None, fact.id))
        commitment = await self.graph.create_commitment(Commitment(
            id=new_id("m"), user_id=user_id, text=fact.text, state=CommitmentState.OPEN,
            created_at=now, updated_at=now,
            due_at=reading.due.astimezone(UTC) if reading.due else None,
            timezone=prefs.timezone or self.default_timezone, source_ids=(fact.id,),
            history=tuple(events)))
        if reading.ambiguous:
            await self.graph.flag_needs_date(user_id, commitment.id)
        log.info("commitment %s of %s from %s, due %s%s", commitment.id, user_id, fact.id,
                 commitment.due_at, " (date asked)" if reading.ambiguous else "")
        return Noted(commitment, created=True)

    async def _moved_one(self, user_id: str, fact: Fact, reading: DueReading
                         ) -> Commitment | None:
        """The open commitment this record moves, if it moves one."""
        if fact.supersedes:
            earlier = await self.graph.commitments_from(user_id, [fact.supersedes])
            if earlier and earlier[0].state is CommitmentState.OPEN and reading.named:
                return earlier[0]
        if not MOVE.search(fact.text) or not reading.named:
            return None
        words = _what(fact.text)
        best, best_shared = None, 0
        for candidate in await self.graph.list_commitments(user_id):
            shared = len(words & _what(candidate.text))
            if shared > best_shared:
                best, best_shared = candidate, shared
        return best

    async def _move_by_record(self, target: Commitment, fact: Fact, reading: DueReading,
                              at: datetime) -> Commitment:
        now = clock.now()
        if reading.due is None:
            event = CommitmentEvent(now, "move asked: " + reading.reason, None, fact.id)
            moved = await self.graph.change_commitment(target.user_id, target.id, event)
            await self.graph.flag_needs_date(target.user_id, target.id)
            return moved
        due = reading.due.astimezone(UTC)
        event = CommitmentEvent(now, "moved", due, fact.id)
        log.info("commitment %s of %s moved to %s by %s", target.id, target.user_id, due, fact.id)
        return await self.graph.change_commitment(target.user_id, target.id, event,
                                                  due_at=due, move=True)

    # a person's decisions ----------------------------------------------------------------

    async def get(self, user_id: str, commitment_id: str) -> Commitment:
        found = await self.graph.get_commitment(user_id, commitment_id)
        if found is None:
            raise CommitmentNotFound(user_id, commitment_id)
        return found

    async def open(self, user_id: str) -> list[Commitment]:
        """Open commitments by due time (undated ones last)."""
        return await self.graph.list_commitments(user_id)

    async def due_today(self, user_id: str) -> list[Commitment]:
        """Open commitments due on the person's today (or overdue)."""
        prefs = await self.prefs(user_id)
        zone = _zone(prefs.timezone)
        end = datetime.combine(clock.now().astimezone(zone).date() + timedelta(days=1), time(),
                               zone)
        return [c for c in await self.open(user_id) if c.due_at is not None and c.due_at < end]

    async def close(self, user_id: str, commitment_id: str, state: CommitmentState
                    ) -> Commitment:
        """Done, cancelled (or back to open); a second press changes nothing."""
        current = await self.get(user_id, commitment_id)
        if current.state is state:
            return current
        return await self.graph.change_commitment(
            user_id, commitment_id, CommitmentEvent(clock.now(), state.value, current.due_at),
            state=state)

    async def postpone(self, user_id: str, commitment_id: str, to: str) -> Commitment:
        """Move by a person's choice: ``tomorrow``, ``week`` (same time, +7 days), or a date
        in words ("в пятницу в 10", "w piątek", "next Tuesday") read in their zone."""
        current = await self.get(user_id, commitment_id)
        prefs = await self.prefs(user_id)
        zone = _zone(prefs.timezone)
        now = clock.now()
        if to in ("tomorrow", "week"):
            base = (current.due_at or now).astimezone(zone)
            today = now.astimezone(zone).date()
            days = 1 if to == "tomorrow" else 7
            # from today, not from a due time long past: "tomorrow" is the person's tomorrow
            start = max(base.date(), today) if to == "week" else today
            clock_time = base.time() if current.due_at else time(prefs.hour or 10)
            due = datetime.combine(start + timedelta(days=days), clock_time, zone)
        else:
            reading = read_due(to, now.astimezone(zone), prefs.hour or self.reminder_hour)
            if reading.due is None:
                why = reading.reason if reading.ambiguous else "no date in it"
                raise NoDate(f"could not set a day from {to!r}: {why}",
                             next_step="write it like «в пятницу в 10», «15 марта», "
                                       "«w piątek», «next Tuesday at 9»")
            due = reading.due
        utc = due.astimezone(UTC)
        await self.graph.clear_needs_date(user_id, commitment_id)
        return await self.graph.change_commitment(
            user_id, commitment_id, CommitmentEvent(now, "moved", utc), due_at=utc, move=True,
            state=CommitmentState.OPEN)

    async def mark_missed(self, older_than: timedelta = timedelta(days=3)) -> int:
        """Open commitments reminded and left for ``older_than`` past due become missed."""
        now = clock.now()
        count = 0
        for c in await self.graph.overdue_commitments(now - older_than):
            await self.graph.change_commitment(c.user_id, c.id,
                                               CommitmentEvent(now, "missed", c.due_at),
                                               state=CommitmentState.MISSED)
            count += 1
        return count


def _what(text: str) -> frozenset[str]:
    """What a text is about, without its dates and move words: for matching a move."""
    stripped = MOVE.sub(" ", text)
    reading_words = read_due(stripped, clock.now()).phrase
    for phrase in reading_words.split(", "):
        if phrase:
            stripped = re.sub(re.escape(phrase), " ", stripped, flags=re.IGNORECASE)
    return frozenset(s for s in content_stems(stripped, numbers=False) if not _DATE_ONLY.match(s))


def _zone(name: str | None) -> ZoneInfo:
    try:
        return ZoneInfo(name or "UTC")
    except (ZoneInfoNotFoundError, ValueError) as exc:
        raise NoDate(f"unknown time zone {name!r}",
                     next_step="give an IANA zone such as Europe/Moscow or Europe/Warsaw") from exc
