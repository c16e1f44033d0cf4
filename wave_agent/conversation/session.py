"""Sessions: a new one starts after an idle gap (default 30 minutes) or ``/reset``.

The conversation window lives here: every exchange of a session is persisted (SQLite under the
data directory), so a restarted process continues the same session and knows how long the
person has been away. When a session ends (idle gap noticed at the next message, or
``/reset``), its snapshot is written for the next session to get back exactly once.
"""

from __future__ import annotations

import asyncio
import logging
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from wave_agent.conversation.composer import Exchange
from wave_agent.errors import Unavailable
from wave_agent.infra.sqlite import Scrubbed, SqliteFile

if TYPE_CHECKING:
    from snapshots.models import Snapshot
    from snapshots.store import SnapshotStore

log = logging.getLogger("wave.session")

EndReason = Literal["idle", "reset", "shutdown"]
WINDOW_EXCHANGES = 20  # verbatim exchanges kept as the window; older ones are folded
FOLDED_LINES = 30

_SCHEMA = """
CREATE TABLE IF NOT EXISTS sessions (
    id TEXT PRIMARY KEY,
    user_id TEXT NOT NULL,
    started_at TEXT NOT NULL,
    last_at TEXT NOT NULL,
    turns INTEGER NOT NULL DEFAULT 0,
    ended_at TEXT,
    end_reason TEXT,
    carry TEXT
);
CREATE INDEX IF NOT EXISTS sessions_user ON sessions (user_id, ended_at, started_at);
CREATE TABLE IF NOT EXISTS exchanges (
    id TEXT PRIMARY KEY,
    session_id TEXT NOT NULL,
    user_id TEXT NOT NULL,
    seq INTEGER NOT NULL,
    at TEXT NOT NULL,
    user_text TEXT NOT NULL,
    reply TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS exchanges_session ON exchanges (session_id, seq);
"""


class SessionLogUnavailable(Unavailable):
    def __init__(self, path: Path, detail: str) -> None:
        super().__init__(
            f"the session log at {path} cannot be used: {detail}",
            next_step="check that DATA_DIR is writable and the disk is not full",
        )


@dataclass(frozen=True, slots=True)
class SessionInfo:
    id: str
    user_id: str
    started_at: datetime
    last_at: datetime
    turns: int
    carry: str | None = None  # the previous session's snapshot text, kept for this session


@dataclass(frozen=True, slots=True)
class SessionTurn:
    session: SessionInfo
    started: bool  # this message opens a new session
    ended: SessionInfo | None = None  # the session that ended because of it


def _ts(value: datetime) -> str:
    return value.astimezone(UTC).isoformat()


def _dt(value: str) -> datetime:
    return datetime.fromisoformat(value)


class SessionLog:
    """Persisted sessions and their exchanges (SQLite)."""

    def __init__(self, path: Path) -> None:
        self.path = Path(path)
        # what people said lives here: freed bytes are zeroed (erasure)
        self._file = SqliteFile(self.path, _SCHEMA, SessionLogUnavailable, secure_delete=True)
        self._db = self._file.db
        self._lock = self._file.lock
        self._tx = self._file.tx

    def close(self) -> None:
        self._file.close()

    def current(self, user_id: str) -> SessionInfo | None:
        with self._lock:
            row = self._db.execute(
                "SELECT id, user_id, started_at, last_at, turns, carry FROM sessions "
                "WHERE user_id = ? AND ended_at IS NULL ORDER BY started_at DESC LIMIT 1",
                (user_id,),
            ).fetchone()
        return _info(row) if row else None

    def get(self, session_id: str) -> SessionInfo | None:
        with self._lock:
            row = self._db.execute(
                "SELECT id, user_id, started_at, last_at, turns, carry FROM sessions WHERE id = ?",
                (session_id,),
            ).fetchone()
        return _info(row) if row else None

    def start(self, user_id: str, now: datetime) -> SessionInfo:
        info = SessionInfo(f"s-{uuid.uuid4().hex[:12]}", user_id, now, now, 0)
        with self._tx() as db:
            db.execute(
                "INSERT INTO sessions (id, user_id, started_at, last_at) VALUES (?, ?, ?, ?)",
                (info.id, user_id, _ts(now), _ts(now)),
            )
        return info

    def set_carry(self, session_id: str, carry: str | None) -> None:
        with self._tx() as db:
            db.execute("UPDATE sessions SET carry = ? WHERE id = ?", (carry, session_id))

    def end(self, session_id: str, now: datetime, reason: EndReason) -> None:
        with self._tx() as db:
            db.execute(
                "UPDATE sessions SET ended_at = ?, end_reason = ? WHERE id = ? AND ended_at IS NULL",
                (_ts(now), reason, session_id),
            )

    def add(self, session_id: str, user_id: str, exchange: Exchange) -> None:
        at = exchange.at or datetime.now(UTC)
        with self._tx() as db:
            row = db.execute(
                "SELECT coalesce(max(seq), 0) FROM exchanges WHERE session_id = ?", (session_id,)
            ).fetchone()
            db.execute(
                "INSERT OR IGNORE INTO exchanges (id, session_id, user_id, seq, at, user_text, reply) "
                "VALUES (?, ?, ?, ?, ?, ?, ?)",
                (exchange.id, session_id, user_id, int(row[0]) + 1, _ts(at), exchange.user_text,
                 exchange.reply),
            )
            if db.execute("SELECT changes()").fetchone()[0]:  # not an exchange logged before
                db.execute(
                    "UPDATE sessions SET last_at = ?, turns = turns + 1 WHERE id = ?",
                    (_ts(at), session_id),
                )

    def exchanges(self, session_id: str, *, limit: int | None = None) -> list[Exchange]:
        """The session's exchanges, oldest first (the newest ``limit`` when given)."""
        with self._lock:
            rows = self._db.execute(
                "SELECT id, user_text, reply, at FROM exchanges WHERE session_id = ? "
                "ORDER BY seq DESC" + (" LIMIT ?" if limit is not None else ""),
                (session_id, limit) if limit is not None else (session_id,),
            ).fetchall()
        return [Exchange(r[0], r[1], r[2], _dt(r[3])) for r in reversed(rows)]

    # a person's rows: export and erasure ----------------------------------------------------

    def person_exchanges(self, user_id: str) -> list[dict[str, Any]]:
        """Every exchange of the person, oldest first, with its session's carried snapshot
        text (``wave export``)."""
        with self._file.read() as db:
            rows = db.execute(
                "SELECT e.session_id, e.at, e.user_text, e.reply, s.carry FROM exchanges e "
                "JOIN sessions s ON s.id = e.session_id WHERE e.user_id = ? "
                "ORDER BY e.at, e.seq", (user_id,)).fetchall()
        return [{"session": r[0], "at": r[1], "user_text": r[2], "reply": r[3],
                 "carried_snapshot": r[4]} for r in rows]

    def count_exchanges(self, user_id: str) -> int:
        """How many exchanges of the person are logged (what forget-me would erase)."""
        with self._file.read() as db:
            row = db.execute("SELECT count(*) FROM exchanges WHERE user_id = ?",
                             (user_id,)).fetchone()
        return int(row[0])

    def redact_exchanges(self, user_id: str, exchange_ids: Sequence[str],
                         redact: Callable[[str], str]) -> Scrubbed:
        """Pass the person's exchanges ``exchange_ids`` and the carried snapshot text of their
        sessions through ``redact``; the rows changed and the sessions those exchanges belong
        to. The file is compacted after a change, so the old text leaves the disk."""
        changed = 0
        sessions: list[str] = []
        with self._tx() as db:
            for xid in dict.fromkeys(exchange_ids):
                row = db.execute(
                    "SELECT session_id, user_text, reply FROM exchanges WHERE id = ? AND user_id = ?",
                    (xid, user_id)).fetchone()
                if row is None:
                    continue
                sessions.append(row[0])
                text, reply = redact(row[1]), redact(row[2])
                if (text, reply) != (row[1], row[2]):
                    db.execute("UPDATE exchanges SET user_text = ?, reply = ? WHERE id = ?",
                               (text, reply, xid))
                    changed += 1
            for sid, carry in db.execute(
                    "SELECT id, carry FROM sessions WHERE user_id = ? AND carry IS NOT NULL",
                    (user_id,)).fetchall():
                after = redact(carry)
                if after != carry:
                    db.execute("UPDATE sessions SET carry = ? WHERE id = ?", (after, sid))
                    changed += 1
        return Scrubbed(changed, self.compact() if changed else True,
                        tuple(dict.fromkeys(sessions)))

    def erase_user(self, user_id: str) -> Scrubbed:
        """Delete every session and exchange of the person, then compact the file."""
        with self._tx() as db:
            rows = db.execute("DELETE FROM exchanges WHERE user_id = ?", (user_id,)).rowcount
            rows += db.execute("DELETE FROM sessions WHERE user_id = ?", (user_id,)).rowcount
        return Scrubbed(rows, self.compact())

    def compact(self) -> bool:
        """WAL checkpoint and VACUUM (``SqliteFile.compact``); False when another process
        held the file busy."""
        return self._file.compact()


def _info(row: tuple[str, str, str, str, int, str | None]) -> SessionInfo:
    return SessionInfo(row[0], row[1], _dt(row[2]), _dt(row[3]), int(row[4]), row[5])


@dataclass(frozen=True, slots=True)
class Window:
    """What the composer gets from the session: the last exchange, the deeper window and
    the folded older exchanges (as summary lines)."""

    last: Exchange | None
    deeper: tuple[Exchange, ...]
    folded: tuple[str, ...]


class Sessions:
    """Starts, ends and remembers sessions; writes the snapshot of each one that ends."""

    def __init__(
        self,
        log: SessionLog,
        *,
        idle: timedelta,
        snapshots: SnapshotStore | None = None,
        timeout_s: float = 2.0,
    ) -> None:
        self.log = log
        self.idle = idle
        self.snapshots = snapshots
        self.timeout_s = timeout_s
        self._locks: dict[str, asyncio.Lock] = {}

    def lock(self, user_id: str) -> asyncio.Lock:
        """One turn at a time per person (messages are answered in order)."""
        return self._locks.setdefault(user_id, asyncio.Lock())

    async def begin(self, user_id: str, now: datetime) -> SessionTurn:
        # SQLite calls run in a worker thread: another process may hold the file for seconds.
        current = await asyncio.to_thread(self.log.current, user_id)
        if current is not None and now - current.last_at <= self.idle:
            return SessionTurn(current, started=False)
        if current is not None:
            await self.end(current, now, "idle")
        return SessionTurn(await asyncio.to_thread(self.log.start, user_id, now), started=True,
                           ended=current)

    async def reset(self, user_id: str, now: datetime) -> SessionInfo | None:
        """End the current session now; the next message starts a new one."""
        current = await asyncio.to_thread(self.log.current, user_id)
        if current is not None:
            await self.end(current, now, "reset")
        return current

    async def end(self, info: SessionInfo, now: datetime, reason: EndReason) -> None:
        await asyncio.to_thread(self.log.end, info.id, now, reason)
        if self.snapshots is None or info.turns == 0:
            return
        try:
            async with asyncio.timeout(self.timeout_s):
                snapshot = await asyncio.to_thread(self.snapshot_of, info, now, reason)
                await self.snapshots.save(snapshot)
        except Exception as exc:  # the snapshot is a nicety; the turn goes on
            log.warning("snapshot of session %s not written: %r", info.id, exc)

    def snapshot_of(self, info: SessionInfo, now: datetime, reason: EndReason) -> Snapshot:
        from snapshots.models import Reply, Snapshot

        exchanges = self.log.exchanges(info.id)
        topics = [_first_line(e.user_text, 90) for e in exchanges[-8:]]
        summary = (
            f"{len(exchanges)} exchanges from {info.started_at:%Y-%m-%d %H:%M} UTC. "
            "The person wrote about: " + "; ".join(t for t in topics if t)
        )
        replies: list[Reply] = []
        for e in exchanges[-3:]:
            replies.append(Reply("user", e.user_text[:500], e.at))
            replies.append(Reply("assistant", e.reply[:500], e.at))
        return Snapshot(
            session_id=info.id,
            user_id=info.user_id,
            started_at=info.started_at,
            ended_at=max(now, info.last_at),
            turns=len(exchanges),
            summary=summary[:1500],
            last_replies=tuple(replies),
            end_reason=reason,
            extra={"summary_source": "heuristic"},
        )

    async def take_previous_snapshot(self, user_id: str) -> str | None:
        """The previous session's snapshot as prompt text, exactly once (then spent)."""
        if self.snapshots is None:
            return None
        async with asyncio.timeout(self.timeout_s):
            snapshot = await self.snapshots.take_for_new_session(user_id)
        if snapshot is None:
            return None
        lines = [f"Previous session (ended {snapshot.ended_at:%Y-%m-%d %H:%M} UTC, "
                 f"{snapshot.turns} exchanges): {snapshot.summary}"]
        for reply in snapshot.last_replies[-4:]:
            who = "Person" if reply.role == "user" else "Wave"
            lines.append(f"  {who}: {_first_line(reply.text, 200)}")
        lines.extend(f"  Observation: {o}" for o in snapshot.observations)
        return "\n".join(lines)

    def window(self, info: SessionInfo, *, size: int = WINDOW_EXCHANGES) -> Window:
        recent = self.log.exchanges(info.id, limit=size + 1 + FOLDED_LINES)
        older, kept = recent[: -(size + 1)] if len(recent) > size + 1 else [], recent[-(size + 1):]
        folded = tuple(
            f"{e.at:%H:%M} person: {_first_line(e.user_text, 140)} / Wave: {_first_line(e.reply, 80)}"
            for e in older
            if e.at is not None
        )
        last = kept[-1] if kept else None
        return Window(last, tuple(kept[:-1]), folded)


def _first_line(text: str, limit: int) -> str:
    line = " ".join(text.split())
    return line if len(line) <= limit else line[: limit - 1].rstrip() + "…"
