"""Plain data of the daily episode log."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, datetime, time
from pathlib import Path


@dataclass(frozen=True, slots=True)
class EpisodeEntry:
    """What the post-processor asks to record: one short fact worth keeping."""

    text: str
    fact_ids: tuple[str, ...] = ()
    at: datetime | None = None  # aware; None means now


@dataclass(frozen=True, slots=True)
class EpisodeLine:
    """One line of a day file as parsed (machine-written, hand-written or hand-edited)."""

    number: int  # 1-based line number in the file
    raw: str
    text: str
    at: time | None = None
    fact_ids: tuple[str, ...] = ()
    machine: bool = False  # written by Wave and untouched since
    edited: bool = False  # written by Wave, then changed by a person
    key: str | None = None  # idempotency key of the exchange that wrote it

    @property
    def is_entry(self) -> bool:
        """A list item (a recorded fact), as opposed to a heading or free note."""
        return bool(self.text) and not self.raw.lstrip().startswith("#")


@dataclass(frozen=True, slots=True)
class EpisodeDay:
    user_id: str
    day: date
    path: Path
    lines: tuple[EpisodeLine, ...] = ()
    unreadable: bool = False

    @property
    def entries(self) -> tuple[EpisodeLine, ...]:
        return tuple(line for line in self.lines if line.is_entry)

    @property
    def fact_ids(self) -> tuple[str, ...]:
        seen: dict[str, None] = {}
        for line in self.lines:
            for fid in line.fact_ids:
                seen.setdefault(fid, None)
        return tuple(seen)


@dataclass(frozen=True, slots=True)
class AppendResult:
    day: date
    path: Path
    written: int
    skipped_duplicate_key: bool = False


@dataclass(frozen=True, slots=True)
class WeeklySummary:
    user_id: str
    iso_week: str
    path: Path
    days: tuple[date, ...]
    text: str
    kept_hand_edit: bool = False
    links: tuple[str, ...] = field(default=())
