"""Erasure in Wave's own SQLite files: the session log and the outbox.

Each change is made on a connection of its own with ``secure_delete`` on (SQLite overwrites
the freed bytes with zeros), followed by a WAL checkpoint that truncates the ``-wal`` file and
a ``VACUUM`` (no free page keeps an old copy). Other processes may have the files open (the
bot, ``wave chat``): the WAL allows it; if they hold a read open at that instant the
checkpoint or the VACUUM is retried by ``wave maintain`` (job ``erasure``), and the report says
so.
"""

from __future__ import annotations

import json
import logging
import sqlite3
from collections.abc import Callable, Iterator, Sequence
from contextlib import closing, contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

log = logging.getLogger("wave.erasure")

Redact = Callable[[str], str]


@dataclass(frozen=True, slots=True)
class Scrubbed:
    rows: int = 0
    compacted: bool = True
    sessions: tuple[str, ...] = ()


@contextmanager
def _connect(path: Path) -> Iterator[sqlite3.Connection]:
    with closing(sqlite3.connect(path, timeout=10, isolation_level=None)) as db:
        db.execute("PRAGMA secure_delete=ON")
        yield db


def compact(path: Path) -> bool:
    """Checkpoint (truncating the WAL) and VACUUM; False when another process held it busy."""
    if not path.exists():
        return True
    try:
        with _connect(path) as db:
            busy = db.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
            db.execute("VACUUM")
            busy = db.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
        return not (busy and busy[0])
    except sqlite3.OperationalError as exc:
        log.warning("%s not compacted yet (%s); `wave maintain --job erasure` retries", path, exc)
        return False


def _tables(db: sqlite3.Connection) -> set[str]:
    return {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}


# -- the session log (sessions.sqlite3) --------------------------------------------------------


def redact_exchanges(path: Path, user_id: str, exchange_ids: Sequence[str],
                     redact: Redact) -> Scrubbed:
    """Redact the exchanges a record came from, and the carried snapshot text of the
    person's sessions; returns the rows changed and the sessions those exchanges belong to."""
    if not path.exists():
        return Scrubbed()
    changed = 0
    sessions: list[str] = []
    with _connect(path) as db:
        if not {"exchanges", "sessions"} <= _tables(db):
            return Scrubbed()
        db.execute("BEGIN IMMEDIATE")
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
        db.execute("COMMIT")
    return Scrubbed(changed, compact(path) if changed else True, tuple(dict.fromkeys(sessions)))


def erase_sessions(path: Path, user_id: str) -> Scrubbed:
    if not path.exists():
        return Scrubbed()
    with _connect(path) as db:
        if not {"exchanges", "sessions"} <= _tables(db):
            return Scrubbed()
        db.execute("BEGIN IMMEDIATE")
        rows = db.execute("DELETE FROM exchanges WHERE user_id = ?", (user_id,)).rowcount
        rows += db.execute("DELETE FROM sessions WHERE user_id = ?", (user_id,)).rowcount
        db.execute("COMMIT")
    return Scrubbed(rows, compact(path))


# -- the outbox (outbox.sqlite3) ------------------------------------------------------------


def redact_jobs(path: Path, user_id: str, exchange_ids: Sequence[str], record_ids: set[str],
                redact: Redact, erased_texts: set[str]) -> Scrubbed:
    """Redact the outbox jobs of the record's exchanges: the payload's message and reply,
    the extracted fact that became the record (its text and entities blanked), and the record
    id in the step results (a retry then skips it)."""
    if not path.exists():
        return Scrubbed()
    changed = 0
    with _connect(path) as db:
        if not {"jobs", "steps"} <= _tables(db):
            return Scrubbed()
        db.execute("BEGIN IMMEDIATE")
        for key in dict.fromkeys(exchange_ids):
            row = db.execute("SELECT payload FROM jobs WHERE key = ? AND user_id = ?",
                             (key, user_id)).fetchone()
            if row is None:
                continue
            payload: dict[str, Any] = json.loads(row[0])
            after = {k: redact(v) if k in ("user_text", "reply") and isinstance(v, str) else v
                     for k, v in payload.items()}
            touched = after != payload
            if touched:
                db.execute("UPDATE jobs SET payload = ? WHERE key = ?",
                           (json.dumps(after, ensure_ascii=False), key))
            touched = _redact_steps(db, key, record_ids, erased_texts) or touched
            changed += int(touched)
        db.execute("COMMIT")
    return Scrubbed(changed, compact(path) if changed else True)


def _redact_steps(db: sqlite3.Connection, key: str, record_ids: set[str],
                  erased_texts: set[str]) -> bool:
    steps = {s: (json.loads(r) if r is not None else None) for s, r in db.execute(
        "SELECT step, result FROM steps WHERE key = ?", (key,)).fetchall()}
    hit: set[int] = set()
    for step, result in steps.items():
        if (step.startswith("fact:") and not step.endswith(":begun")
                and isinstance(result, dict)
                and (result.get("id") in record_ids or result.get("proposal") in record_ids)):
            hit.add(int(step.split(":")[1]))
            db.execute("UPDATE steps SET result = ? WHERE key = ? AND step = ?",
                       (json.dumps({"id": None, "status": "erased"}), key, step))
    extracted = steps.get("extract")
    changed = bool(hit)
    if isinstance(extracted, list):
        for index, item in enumerate(extracted):
            if isinstance(item, dict) and (index in hit or item.get("text") in erased_texts):
                extracted[index] = {"text": "", "type": item.get("type", "event"), "entities": []}
                changed = True
        if changed:
            db.execute("UPDATE steps SET result = ? WHERE key = ? AND step = 'extract'",
                       (json.dumps(extracted, ensure_ascii=False), key))
    return changed


def erase_jobs(path: Path, user_id: str) -> Scrubbed:
    if not path.exists():
        return Scrubbed()
    with _connect(path) as db:
        if not {"jobs", "steps"} <= _tables(db):
            return Scrubbed()
        db.execute("BEGIN IMMEDIATE")
        db.execute("DELETE FROM steps WHERE key IN (SELECT key FROM jobs WHERE user_id = ?)",
                   (user_id,))
        rows = db.execute("DELETE FROM jobs WHERE user_id = ?", (user_id,)).rowcount
        db.execute("COMMIT")
    return Scrubbed(rows, compact(path))
