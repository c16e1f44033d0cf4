"""Change events: whatever changes a person's memory says so, and whoever keeps a copy listens.

A ``MemoryChanges`` is the in-process announcement board of one ``Services``: the writer
announces every change it makes, and so do the eraser, the post-processor (core blocks, the
day log) and the maintenance runner. The turn's note cache subscribes once, in the composition
root, so a record forgotten on the web page or archived by a maintenance job leaves the bot's
next prompt when the bot, the page and the scheduler share one process (``wave run``). Separate
processes (``wave`` CLI commands, the MCP server) do not hear each other: their caches read
the stores again when a session starts.

Callbacks run synchronously, in the announcing task, in subscription order; they must be
quick (schedule work, never await it). One that raises is logged and the others still run:
an announcement never fails the change it reports.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from enum import StrEnum

log = logging.getLogger("wave.events")


class ChangeKind(StrEnum):
    """What happened to the person's memory."""

    REMEMBERED = "remembered"    # remember: created, confirmed, quarantined, a conflict, proposed
    SUPERSEDED = "superseded"
    FORGOTTEN = "forgotten"
    RESTORED = "restored"
    DELETED = "deleted"          # a record left the graph and the archive
    APPROVED = "approved"
    REJECTED = "rejected"
    PINNED = "pinned"
    PROPOSED = "proposed"
    PROMOTED = "promoted"
    ARCHIVED = "archived"        # maintenance: a stale observation
    EXPIRED = "expired"          # maintenance: a state or commitment past its valid_until
    REINDEXED = "reindexed"
    IMPORTED = "imported"        # remember_many
    ERASED = "erased"            # a record or proposal left every layer (``wave delete``)
    PERSON_ERASED = "person erased"  # the whole person is gone (``wave forget-me``)
    EXTRACTED = "extracted"      # the post-processor wrote facts, the day log, core blocks
    MAINTAINED = "maintained"    # a maintenance pass changed something for the person


@dataclass(frozen=True, slots=True)
class MemoryChange:
    """One announcement: whose memory, what kind of change, which records (may be empty)."""

    user_id: str
    kind: ChangeKind
    ids: tuple[str, ...] = ()


Subscriber = Callable[[MemoryChange], None]


class MemoryChanges:
    """Synchronous publish/subscribe for memory changes within one process."""

    def __init__(self) -> None:
        self._subscribers: list[Subscriber] = []

    def subscribe(self, callback: Subscriber) -> Callable[[], None]:
        """Call ``callback`` on every later announcement; returns the unsubscribe."""
        self._subscribers.append(callback)

        def unsubscribe() -> None:
            if callback in self._subscribers:
                self._subscribers.remove(callback)

        return unsubscribe

    def announce(self, user_id: str, kind: ChangeKind, ids: Iterable[str | None] = ()) -> None:
        """Tell every subscriber; a subscriber's exception is logged, never raised."""
        change = MemoryChange(user_id, ChangeKind(kind), tuple(i for i in ids if i))
        for callback in list(self._subscribers):
            try:
                callback(change)
            except Exception:
                log.exception("a memory-change subscriber failed on %s for %s", change.kind.value,
                              user_id)


__all__ = ["ChangeKind", "MemoryChange", "MemoryChanges", "Subscriber"]
