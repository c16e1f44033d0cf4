"""Commitments: what a person promised or must do, with a due time and a state (plain data).

A commitment is its own node, ``(:Commitment)``, linked ``-[:FROM]->`` to the fact records it was
read from: the promise, and each record that moved it ("перенесла звонок маме на субботу"). Its
``history`` keeps every change (created, moved, reminded, done ...), oldest first, so a moved
due time is never lost. Ids are ``m-…``. Times are aware UTC datetimes.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import datetime
from enum import StrEnum


class CommitmentState(StrEnum):
    OPEN = "open"
    DONE = "done"
    CANCELLED = "cancelled"
    MISSED = "missed"


@dataclass(frozen=True, slots=True)
class CommitmentEvent:
    """One line of a commitment's history."""

    at: datetime
    what: str                      # created, moved, reminded, done, cancelled, missed, reopened
    due_at: datetime | None = None
    source_id: str | None = None   # the record that caused it, if one did

    def as_json(self) -> str:
        return json.dumps({"at": self.at.isoformat(), "what": self.what,
                           "due_at": self.due_at.isoformat() if self.due_at else None,
                           "source_id": self.source_id}, ensure_ascii=False)

    @classmethod
    def from_json(cls, raw: str) -> CommitmentEvent:
        data = json.loads(raw)
        due = data.get("due_at")
        return cls(datetime.fromisoformat(data["at"]), str(data["what"]),
                   datetime.fromisoformat(due) if due else None, data.get("source_id"))


@dataclass(frozen=True, slots=True)
class Commitment:
    id: str
    user_id: str
    text: str
    state: CommitmentState
    created_at: datetime
    updated_at: datetime
    due_at: datetime | None = None
    timezone: str = "UTC"             # the person's zone when it was read: how to show it
    source_ids: tuple[str, ...] = ()  # the fact records it came from, oldest first
    reminded_due: datetime | None = None  # the due time a reminder went out for
    reminded_at: datetime | None = None
    needs_date: bool = False          # the date said was unclear: the person is asked
    asked_at: datetime | None = None  # when the question went out
    history: tuple[CommitmentEvent, ...] = field(default_factory=tuple)


@dataclass(frozen=True, slots=True)
class ReminderPrefs:
    """A person's reminder settings: on or off, the zone, the hour used when none is said."""

    user_id: str
    enabled: bool = True
    timezone: str | None = None
    hour: int | None = None
