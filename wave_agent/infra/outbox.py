"""The durable outbox: post-processing work that survives a crash, a restart or a store that
is down.

One SQLite file under the data directory (``Settings.outbox_path``). A job is keyed by the
exchange id (the idempotency key): enqueuing the same exchange twice stores one job. A job's
steps record their completion (and result) in ``steps``, so a retry resumes where the last
attempt stopped and never repeats a finished step. A failing job is retried with exponential
backoff (capped, with jitter) and is never dropped; its last error stays visible in ``stats``.

Several processes may share the file (``wave chat`` next to the bot): a job is claimed with a
lease that names its holder; a lease held by a process that no longer exists on this host is
taken over at once, any other lease when it expires.
"""

from __future__ import annotations

import json
import logging
import os
import random
import socket
import sqlite3
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from wave_agent.errors import Unavailable
from wave_agent.infra.sqlite import Scrubbed, SqliteFile

log = logging.getLogger("wave.outbox")

PENDING = "pending"
DONE = "done"

_SCHEMA = """
CREATE TABLE IF NOT EXISTS jobs (
    key TEXT PRIMARY KEY,
    kind TEXT NOT NULL,
    user_id TEXT NOT NULL,
    payload TEXT NOT NULL,
    status TEXT NOT NULL DEFAULT 'pending',
    attempts INTEGER NOT NULL DEFAULT 0,
    next_at REAL NOT NULL,
    lease_owner TEXT,
    lease_until REAL,
    last_error TEXT,
    created_at REAL NOT NULL,
    updated_at REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS jobs_due ON jobs (status, next_at);
CREATE TABLE IF NOT EXISTS steps (
    key TEXT NOT NULL,
    step TEXT NOT NULL,
    result TEXT,
    done_at REAL NOT NULL,
    PRIMARY KEY (key, step)
);
"""


class OutboxUnavailable(Unavailable):
    def __init__(self, path: Path, detail: str) -> None:
        super().__init__(
            f"the outbox at {path} cannot be used: {detail}",
            next_step="check that DATA_DIR is writable and the disk is not full; the file "
            "is SQLite and can be inspected with the sqlite3 command",
        )


@dataclass(frozen=True, slots=True)
class Job:
    key: str
    kind: str
    user_id: str
    payload: dict[str, Any]
    attempts: int
    created_at: float


@dataclass(frozen=True, slots=True)
class OutboxStats:
    pending: int
    done: int
    failing: int  # pending jobs that failed at least once
    oldest_pending_age_s: float | None
    last_error: str | None
    next_retry_in_s: float | None


def _owner() -> str:
    return f"{socket.gethostname()}:{os.getpid()}"


def _owner_alive(owner: str) -> bool:
    host, _, pid_text = owner.rpartition(":")
    if host != socket.gethostname():
        return True  # another host: trust the lease's expiry
    try:
        pid = int(pid_text)
        os.kill(pid, 0)
    except (ValueError, ProcessLookupError):
        return False
    except PermissionError:
        return True
    return True


class Outbox:
    """The job table and its step markers. Calls are short, local and synchronous."""

    def __init__(
        self,
        path: Path,
        *,
        base_delay_s: float = 2.0,
        max_delay_s: float = 600.0,
        lease_s: float = 300.0,
    ) -> None:
        self.path = Path(path)
        self.base_delay_s = base_delay_s
        self.max_delay_s = max_delay_s
        self.lease_s = lease_s
        self.owner = _owner()
        # payloads hold what people said: freed bytes are zeroed (erasure)
        self._file = SqliteFile(self.path, _SCHEMA, OutboxUnavailable, synchronous_full=True,
                                secure_delete=True)
        self._db = self._file.db
        self._lock = self._file.lock
        self._tx = self._file.tx

    def close(self) -> None:
        self._file.close()

    # jobs ----------------------------------------------------------------------------------

    def enqueue(self, key: str, kind: str, user_id: str, payload: dict[str, Any],
                *, now: float | None = None) -> bool:
        """Store a job once per key; False when the key was already there (nothing changes)."""
        now = time.time() if now is None else now
        with self._tx() as db:
            cursor = db.execute(
                "INSERT OR IGNORE INTO jobs (key, kind, user_id, payload, next_at, created_at, "
                "updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
                (key, kind, user_id, json.dumps(payload, ensure_ascii=False), now, now, now),
            )
            return cursor.rowcount == 1

    def claim(self, *, limit: int = 1, now: float | None = None) -> list[Job]:
        """Take due jobs (oldest first) under a lease held by this process."""
        now = time.time() if now is None else now
        with self._tx() as db:
            rows = db.execute(
                "SELECT key, kind, user_id, payload, attempts, created_at, lease_owner, "
                "lease_until FROM jobs WHERE status = ? AND next_at <= ? "
                "ORDER BY created_at, key LIMIT ?",
                (PENDING, now, max(limit * 4, limit)),
            ).fetchall()
            jobs: list[Job] = []
            for key, kind, user_id, payload, attempts, created_at, owner, until in rows:
                if len(jobs) >= limit:
                    break
                held = owner is not None and until is not None and until > now
                if held and owner != self.owner and _owner_alive(owner):
                    continue
                if held and owner == self.owner:
                    continue  # this process is already working on it
                db.execute(
                    "UPDATE jobs SET lease_owner = ?, lease_until = ?, updated_at = ? "
                    "WHERE key = ?",
                    (self.owner, now + self.lease_s, now, key),
                )
                jobs.append(Job(key, kind, user_id, json.loads(payload), attempts, created_at))
            return jobs

    def complete(self, key: str, *, now: float | None = None) -> None:
        now = time.time() if now is None else now
        with self._tx() as db:
            db.execute(
                "UPDATE jobs SET status = ?, lease_owner = NULL, lease_until = NULL, "
                "last_error = NULL, updated_at = ? WHERE key = ?",
                (DONE, now, key),
            )

    def fail(self, key: str, error: str, *, now: float | None = None) -> float:
        """Record a failed attempt; returns the delay before the next one."""
        now = time.time() if now is None else now
        with self._tx() as db:
            row = db.execute("SELECT attempts FROM jobs WHERE key = ?", (key,)).fetchone()
            attempts = (row[0] if row else 0) + 1
            delay = self.delay_for(attempts)
            db.execute(
                "UPDATE jobs SET attempts = ?, next_at = ?, last_error = ?, lease_owner = NULL, "
                "lease_until = NULL, updated_at = ? WHERE key = ?",
                (attempts, now + delay, error[:2000], now, key),
            )
        return delay

    def delay_for(self, attempts: int) -> float:
        raw = min(self.max_delay_s, self.base_delay_s * (2 ** max(0, attempts - 1)))
        return float(raw * (0.75 + 0.5 * random.random()))

    def release(self, key: str) -> None:
        """Give a claimed job back without counting an attempt (shutdown)."""
        with self._tx() as db:
            db.execute(
                "UPDATE jobs SET lease_owner = NULL, lease_until = NULL WHERE key = ? "
                "AND lease_owner = ?",
                (key, self.owner),
            )

    def retry_now(self, *, now: float | None = None) -> int:
        """Make every pending job due at once (a store came back; ``wave chat`` exiting)."""
        now = time.time() if now is None else now
        with self._tx() as db:
            return db.execute(
                "UPDATE jobs SET next_at = ? WHERE status = ? AND next_at > ?",
                (now, PENDING, now),
            ).rowcount

    # steps -----------------------------------------------------------------------------------

    def step(self, key: str, step: str) -> tuple[bool, Any]:
        """(done, result) of one step of a job."""
        with self._lock:
            row = self._db.execute(
                "SELECT result FROM steps WHERE key = ? AND step = ?", (key, step)
            ).fetchone()
        if row is None:
            return False, None
        return True, json.loads(row[0]) if row[0] is not None else None

    def mark(self, key: str, step: str, result: Any = None, *, now: float | None = None) -> None:
        now = time.time() if now is None else now
        with self._tx() as db:
            db.execute(
                "INSERT OR REPLACE INTO steps (key, step, result, done_at) VALUES (?, ?, ?, ?)",
                (key, step, json.dumps(result, ensure_ascii=False, default=str), now),
            )

    def steps(self, key: str) -> dict[str, Any]:
        with self._lock:
            rows = self._db.execute(
                "SELECT step, result FROM steps WHERE key = ?", (key,)
            ).fetchall()
        return {step: json.loads(result) if result is not None else None for step, result in rows}

    # a person's jobs: export and erasure ------------------------------------------------------

    def person_jobs(self, user_id: str) -> list[dict[str, Any]]:
        """Every job of the person with its payload and step results, oldest first
        (``wave export``)."""
        with self._file.read() as db:
            rows = db.execute("SELECT key, status, payload FROM jobs WHERE user_id = ? "
                              "ORDER BY created_at", (user_id,)).fetchall()
            jobs = []
            for key, status, payload in rows:
                steps = {step: json.loads(result) if result else None for step, result in
                         db.execute("SELECT step, result FROM steps WHERE key = ?", (key,))}
                jobs.append({"key": key, "status": status, "payload": json.loads(payload),
                             "steps": steps})
        return jobs

    def jobs_quoting(self, user_id: str, proposal_id: str, text: str) -> list[str]:
        """Keys of the person's jobs whose step results name the proposal or whose extracted
        facts include its text: the exchanges a proposal came from."""
        with self._file.read() as db:
            rows = db.execute(
                "SELECT s.key, s.step, s.result FROM steps s JOIN jobs j ON j.key = s.key "
                "WHERE j.user_id = ? AND (s.step = 'extract' OR s.step LIKE 'fact:%')",
                (user_id,)).fetchall()
        keys: list[str] = []
        for key, step, raw in rows:
            result = json.loads(raw) if raw else None
            if step == "extract" and isinstance(result, list):
                if any(isinstance(i, dict) and i.get("text") == text for i in result):
                    keys.append(key)
            elif isinstance(result, dict) and result.get("proposal") == proposal_id:
                keys.append(key)
        return list(dict.fromkeys(keys))

    def redact_jobs(self, user_id: str, exchange_ids: Sequence[str], record_ids: set[str],
                    redact: Callable[[str], str], erased_texts: set[str]) -> Scrubbed:
        """Redact the person's jobs of ``exchange_ids``: the payload's message and reply, the
        extracted fact that became an erased record (its text and entities blanked), and the
        record id in the step results (a retry then skips it). Compacted after a change."""
        changed = 0
        with self._tx() as db:
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
        return Scrubbed(changed, self.compact() if changed else True)

    def erase_user(self, user_id: str) -> Scrubbed:
        """Delete every job of the person and its steps, then compact the file."""
        with self._tx() as db:
            db.execute("DELETE FROM steps WHERE key IN (SELECT key FROM jobs WHERE user_id = ?)",
                       (user_id,))
            rows = db.execute("DELETE FROM jobs WHERE user_id = ?", (user_id,)).rowcount
        return Scrubbed(rows, self.compact())

    def compact(self) -> bool:
        """WAL checkpoint and VACUUM (``SqliteFile.compact``); False when another process
        held the file busy."""
        return self._file.compact()

    # reading ---------------------------------------------------------------------------------

    def status(self, key: str) -> str | None:
        with self._lock:
            row = self._db.execute("SELECT status FROM jobs WHERE key = ?", (key,)).fetchone()
        return row[0] if row else None

    def pending_count(self) -> int:
        with self._lock:
            row = self._db.execute("SELECT count(*) FROM jobs WHERE status = ?", (PENDING,)).fetchone()
        return int(row[0])

    def next_due_in(self, *, now: float | None = None) -> float | None:
        now = time.time() if now is None else now
        with self._lock:
            row = self._db.execute(
                "SELECT min(next_at) FROM jobs WHERE status = ?", (PENDING,)
            ).fetchone()
        return None if row[0] is None else max(0.0, float(row[0]) - now)

    def stats(self, *, now: float | None = None) -> OutboxStats:
        now = time.time() if now is None else now
        with self._lock:
            pending, failing, oldest, next_at = self._db.execute(
                "SELECT count(*), sum(attempts > 0), min(created_at), min(next_at) FROM jobs "
                "WHERE status = ?",
                (PENDING,),
            ).fetchone()
            done = self._db.execute("SELECT count(*) FROM jobs WHERE status = ?", (DONE,)).fetchone()[0]
            error = self._db.execute(
                "SELECT last_error FROM jobs WHERE status = ? AND last_error IS NOT NULL "
                "ORDER BY updated_at DESC LIMIT 1",
                (PENDING,),
            ).fetchone()
        return OutboxStats(
            pending=int(pending),
            done=int(done),
            failing=int(failing or 0),
            oldest_pending_age_s=None if oldest is None else now - float(oldest),
            last_error=error[0] if error else None,
            next_retry_in_s=None if next_at is None else max(0.0, float(next_at) - now),
        )


def _redact_steps(db: sqlite3.Connection, key: str, record_ids: set[str],
                  erased_texts: set[str]) -> bool:
    """Inside ``redact_jobs``: the job's step results that name an erased record."""
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
