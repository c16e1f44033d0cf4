"""Session snapshots: one JSON file per finished session, returned once into the next session.

Layout: ``DATA_DIR/snapshots/<safe user dir>/<ended UTC>-<session>.json`` (names sort by end
time). ``take_for_new_session`` returns the newest readable snapshot if it has not been
returned before and durably marks it spent (the file is rewritten with ``spent_at``) before
handing it out, so a crash can lose the snapshot's one showing but never show it twice. A
corrupt or unreadable file is skipped with a warning. Writes are atomic (temp file + rename);
``flock`` on ``.lock`` serialises processes.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import re
from collections.abc import Callable
from contextlib import AbstractContextManager
from datetime import UTC, datetime
from pathlib import Path
from typing import ParamSpec, TypeVar

from common.files import atomic_write, in_thread, locked, remove_tree
from episodes.paths import user_path
from snapshots.errors import InvalidSnapshot, SnapshotStoreUnavailable
from snapshots.models import Snapshot

log = logging.getLogger("wave.snapshots")

P = ParamSpec("P")
T = TypeVar("T")

_SAFE = re.compile(r"[A-Za-z0-9_-]{1,64}")
_NAME = re.compile(r"^\d{8}T\d{12}Z-[A-Za-z0-9_-]+\.json$")


def atomic_write_json(path: Path, value: object) -> None:
    """``value`` as indented JSON, replacing ``path`` atomically (``common.files``)."""
    atomic_write(path, json.dumps(value, ensure_ascii=False, indent=2) + "\n")


def _safe_session(session_id: str) -> str:
    if _SAFE.fullmatch(session_id):
        return session_id
    return "h" + hashlib.sha256(session_id.encode("utf-8", "surrogatepass")).hexdigest()[:24]


def _check(snapshot: Snapshot) -> None:
    if not snapshot.session_id.strip():
        raise InvalidSnapshot("session_id is empty")
    if not snapshot.user_id.strip():
        raise InvalidSnapshot("user_id is empty")
    for name in ("started_at", "ended_at"):
        if getattr(snapshot, name).tzinfo is None:
            raise InvalidSnapshot(f"{name} has no time zone (use UTC-aware datetimes)")
    if snapshot.ended_at < snapshot.started_at:
        raise InvalidSnapshot("ended_at is before started_at")
    if snapshot.turns < 0:
        raise InvalidSnapshot("turns is negative")


class SnapshotStore:
    def __init__(self, root: Path) -> None:
        self.root = Path(root)
        self._locks: dict[str, asyncio.Lock] = {}

    async def save(self, snapshot: Snapshot) -> Path:
        """Store a finished session's snapshot (saving the same session again replaces it)."""
        _check(snapshot)
        async with self._lock(snapshot.user_id):
            return await self._run(self._save_sync, snapshot)

    async def take_for_new_session(self, user_id: str) -> Snapshot | None:
        """The previous session's snapshot, exactly once; None when there is none to return."""
        async with self._lock(user_id):
            return await self._run(self._take_sync, user_id)

    async def latest(self, user_id: str) -> Snapshot | None:
        """The newest readable snapshot, spent or not, without marking it (for /debug, reflect)."""
        found = await self.recent(user_id, limit=1)
        return found[0] if found else None

    async def recent(self, user_id: str, *, limit: int = 10) -> list[Snapshot]:
        """Newest first, skipping unreadable files."""
        return await self._run(self._recent_sync, user_id, limit)

    async def rewrite(
        self, user_id: str, change: Callable[[Snapshot], Snapshot | None]
    ) -> int:
        """Erasure: pass every snapshot of the person through ``change`` (same value: kept;
        another: written in place; None: the file is removed). Returns how many changed."""
        async with self._lock(user_id):
            return await self._run(self._rewrite_sync, user_id, change)

    async def erase_user(self, user_id: str) -> int:
        """Remove the person's whole snapshot folder; how many files went."""
        async with self._lock(user_id):
            return await self._run(remove_tree, user_path(self.root, user_id))

    async def close(self) -> None:
        self._locks.clear()

    # Internals -------------------------------------------------------------------------------

    def _lock(self, user_id: str) -> asyncio.Lock:
        return self._locks.setdefault(user_id, asyncio.Lock())

    async def _run(self, func: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
        return await in_thread(self._unavailable, func, *args, **kwargs)

    def _unavailable(self, exc: OSError) -> SnapshotStoreUnavailable:
        return SnapshotStoreUnavailable(str(exc.filename or self.root), exc.strerror or str(exc))

    def _file_lock(self, folder: Path) -> AbstractContextManager[None]:
        return locked(folder / ".lock")

    def _files(self, folder: Path) -> list[Path]:
        """Snapshot files, newest first."""
        if not folder.is_dir():
            return []
        return sorted(
            (p for p in folder.iterdir() if _NAME.match(p.name)),
            key=lambda p: p.name,
            reverse=True,
        )

    def _load(self, path: Path) -> Snapshot | None:
        try:
            snapshot = Snapshot.from_json(json.loads(path.read_text(encoding="utf-8")))
        except (OSError, UnicodeDecodeError, ValueError, KeyError, TypeError) as exc:
            log.warning("skipping unreadable session snapshot %s: %s", path, exc)
            return None
        return snapshot

    def _save_sync(self, snapshot: Snapshot) -> Path:
        folder = user_path(self.root, snapshot.user_id)
        session = _safe_session(snapshot.session_id)
        stamp = snapshot.ended_at.astimezone(UTC).strftime("%Y%m%dT%H%M%S%fZ")
        path = folder / f"{stamp}-{session}.json"
        with self._file_lock(folder):
            earlier = [p for p in self._files(folder) if p.name.endswith(f"-{session}.json")]
            for old in earlier:
                previous = self._load(old)
                if previous is not None and previous.spent_at and snapshot.spent_at is None:
                    snapshot = snapshot.marked_spent(previous.spent_at)
            atomic_write_json(path, snapshot.to_json())
            for old in earlier:
                if old != path:
                    old.unlink(missing_ok=True)  # the same session saved again, now superseded
        log.info("saved the snapshot of session %s for %s", snapshot.session_id, snapshot.user_id)
        return path

    def _take_sync(self, user_id: str) -> Snapshot | None:
        folder = user_path(self.root, user_id)
        if not folder.is_dir():
            return None
        with self._file_lock(folder):
            for path in self._files(folder):
                snapshot = self._load(path)
                if snapshot is None:
                    continue
                if snapshot.spent:
                    return None
                spent = snapshot.marked_spent(datetime.now(UTC))
                atomic_write_json(path, spent.to_json())  # durable before it is handed out
                log.info("returning the snapshot of session %s once", snapshot.session_id)
                return spent
        return None

    def _rewrite_sync(self, user_id: str, change: Callable[[Snapshot], Snapshot | None]) -> int:
        folder = user_path(self.root, user_id)
        if not folder.is_dir():
            return 0
        changed = 0
        with self._file_lock(folder):
            for path in self._files(folder):
                snapshot = self._load(path)
                if snapshot is None:
                    continue
                after = change(snapshot)
                if after is None:
                    path.unlink(missing_ok=True)
                    changed += 1
                elif after != snapshot:
                    atomic_write_json(path, after.to_json())
                    changed += 1
        return changed

    def _recent_sync(self, user_id: str, limit: int) -> list[Snapshot]:
        found: list[Snapshot] = []
        for path in self._files(user_path(self.root, user_id)):
            snapshot = self._load(path)
            if snapshot is not None:
                found.append(snapshot)
                if len(found) >= limit:
                    break
        return found
