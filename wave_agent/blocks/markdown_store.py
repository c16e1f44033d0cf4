"""Core blocks as markdown files: ``DATA_DIR/blocks/<user>/<label>.md`` plus its history.

The ``.md`` file holds the block's current text and nothing else, so a person can open and
edit it. ``<label>.history.jsonl`` keeps every version (one JSON object a line: version,
value, updated_at, reason), append-only. A file edited by hand is noticed on the next read
and recorded as a new version ("edited by hand"), so history stays complete. Writes are
atomic (temp file + rename), serialised per block by an asyncio lock and, across processes,
by ``flock`` on ``<label>.lock``. An edit's read and write together (``BlockEditor.apply``) hold
``<label>.edit.lock`` (``edit_lock_path``), so another process's edit is never written over.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
from collections.abc import Callable
from contextlib import AbstractContextManager
from dataclasses import replace
from datetime import datetime
from pathlib import Path
from typing import ParamSpec, TypeVar

from common.files import atomic_write, in_thread, locked, remove_tree
from episodes.paths import user_path
from wave_agent.blocks.store import (
    DEFAULT_LIMIT,
    Block,
    BlockStoreUnavailable,
    BlockVersion,
    BlockVersionNotFound,
    check_label,
    check_user,
    check_value,
    default_value,
)
from wave_agent.infra import clock

log = logging.getLogger("wave.blocks.markdown")

HAND_EDIT_REASON = "edited by hand outside Wave"

P = ParamSpec("P")
T = TypeVar("T")


class MarkdownBlockStore:
    """``BlockStore`` over plain files; the default when ``LETTA_BASE_URL`` is unset."""

    def __init__(self, root: Path, *, limit: int = DEFAULT_LIMIT) -> None:
        self.root = Path(root)
        self.limit = limit
        self._locks: dict[tuple[str, str], asyncio.Lock] = {}

    # Protocol --------------------------------------------------------------------------------

    async def get(self, user_id: str, label: str) -> Block:
        check_user(user_id)
        check_label(label)
        async with self._lock(user_id, label):
            return await self._run(self._get_sync, user_id, label)

    async def set(self, user_id: str, label: str, value: str, *, reason: str) -> Block:
        check_user(user_id)
        check_label(label)
        check_value(label, value, self.limit)
        async with self._lock(user_id, label):
            return await self._run(self._set_sync, user_id, label, value, reason)

    async def history(self, user_id: str, label: str) -> list[BlockVersion]:
        check_user(user_id)
        check_label(label)
        async with self._lock(user_id, label):
            return await self._run(self._history_sync, user_id, label)

    async def revert(self, user_id: str, label: str, version: int) -> Block:
        check_user(user_id)
        check_label(label)
        async with self._lock(user_id, label):
            return await self._run(self._revert_sync, user_id, label, version)

    # Erasure (beyond the protocol) -------------------------------------------------------------

    async def rewrite_versions(
        self, user_id: str, label: str, change: Callable[[str, str], str]
    ) -> int:
        """Erasure: pass the value of every stored version (and the current file) through
        ``change(value, reason)``; history is rewritten in place, numbering kept. Returns how
        many versions changed."""
        check_user(user_id)
        check_label(label)
        async with self._lock(user_id, label):
            return await self._run(self._rewrite_sync, user_id, label, change)

    async def erase_user(self, user_id: str) -> int:
        """Remove the person's block folder (both blocks, their history); files removed."""
        check_user(user_id)
        return await self._run(remove_tree, user_path(self.root, user_id))

    async def close(self) -> None:
        self._locks.clear()

    def edit_lock_path(self, user_id: str, label: str) -> Path:
        """The file whose ``flock`` serialises edits (read, change, write) across processes."""
        check_user(user_id)
        check_label(label)
        return user_path(self.root, user_id) / f"{label}.edit.lock"

    # Internals -------------------------------------------------------------------------------

    def _lock(self, user_id: str, label: str) -> asyncio.Lock:
        return self._locks.setdefault((user_id, label), asyncio.Lock())

    async def _run(self, func: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
        return await in_thread(self._unavailable, func, *args, **kwargs)

    def _unavailable(self, exc: OSError) -> BlockStoreUnavailable:
        return BlockStoreUnavailable(
            "markdown",
            f"{exc.strerror or exc} ({exc.filename or self.root})",
            f"check that {self.root} exists and is writable (DATA_DIR)",
        )

    def _paths(self, user_id: str, label: str) -> tuple[Path, Path, Path]:
        folder = user_path(self.root, user_id)
        return (
            folder / f"{label}.md",
            folder / f"{label}.history.jsonl",
            folder / f"{label}.lock",
        )

    def _file_lock(self, lock_path: Path) -> AbstractContextManager[None]:
        return locked(lock_path)

    def _read_history(self, path: Path) -> list[BlockVersion]:
        if not path.exists():
            return []
        versions: list[BlockVersion] = []
        with open(path, encoding="utf-8", errors="replace") as handle:
            for number, line in enumerate(handle, start=1):
                if not line.strip():
                    continue
                try:
                    raw = json.loads(line)
                    versions.append(
                        BlockVersion(
                            version=int(raw["version"]),
                            value=str(raw["value"]),
                            updated_at=datetime.fromisoformat(raw["updated_at"]),
                            reason=str(raw.get("reason", "")),
                        )
                    )
                except (ValueError, KeyError, TypeError) as exc:
                    log.warning("skipping unreadable line %d of %s: %s", number, path, exc)
        versions.sort(key=lambda v: v.version)
        return versions

    def _append_history(self, path: Path, entry: BlockVersion) -> None:
        line = json.dumps(
            {
                "version": entry.version,
                "value": entry.value,
                "updated_at": entry.updated_at.isoformat(),
                "reason": entry.reason,
            },
            ensure_ascii=False,
        )
        path.parent.mkdir(parents=True, exist_ok=True)
        with open(path, "a", encoding="utf-8") as handle:
            handle.write(line + "\n")
            handle.flush()
            os.fsync(handle.fileno())

    def _current(self, user_id: str, label: str) -> tuple[Block, list[BlockVersion]]:
        """The block as it is now; a hand edit of the ``.md`` file becomes a new version."""
        md, hist_path, _ = self._paths(user_id, label)
        history = self._read_history(hist_path)
        last = history[-1] if history else None
        if md.exists():
            text = md.read_text(encoding="utf-8", errors="replace")
            if last is None or text != last.value:
                if last is None and text == default_value(label):
                    return self._block(user_id, label, text, 0, None), history
                if len(text) > self.limit:
                    log.warning(
                        "%s was edited by hand to %d characters (limit %d); kept as it is",
                        md, len(text), self.limit,
                    )
                entry = BlockVersion(
                    version=(last.version if last else 0) + 1,
                    value=text,
                    updated_at=clock.now(),
                    reason=HAND_EDIT_REASON,
                )
                self._append_history(hist_path, entry)
                log.info("recorded a hand edit of %s as version %d", md, entry.version)
                history.append(entry)
                last = entry
        elif last is not None:
            log.warning("%s is missing; restoring version %d from its history", md, last.version)
            atomic_write(md, last.value)
        if last is None:
            return self._block(user_id, label, default_value(label), 0, None), history
        return self._block(user_id, label, last.value, last.version, last.updated_at), history

    def _block(
        self, user_id: str, label: str, value: str, version: int, at: datetime | None
    ) -> Block:
        return Block(user_id, label, value, self.limit, version, at)

    def _get_sync(self, user_id: str, label: str) -> Block:
        with self._file_lock(self._paths(user_id, label)[2]):
            return self._current(user_id, label)[0]

    def _history_sync(self, user_id: str, label: str) -> list[BlockVersion]:
        with self._file_lock(self._paths(user_id, label)[2]):
            return self._current(user_id, label)[1]

    def _write(self, user_id: str, label: str, value: str, reason: str) -> Block:
        md, hist_path, _ = self._paths(user_id, label)
        current, _history = self._current(user_id, label)
        if current.version > 0 and current.value == value:
            return current
        entry = BlockVersion(current.version + 1, value, clock.now(), reason)
        # The file first: a crash between the two leaves the new text in place, and the next
        # read records it (as a hand edit); a value is never lost.
        atomic_write(md, value)
        self._append_history(hist_path, entry)
        log.info("block %s of %s is now version %d (%s)", label, user_id, entry.version, reason)
        return self._block(user_id, label, value, entry.version, entry.updated_at)

    def _rewrite_sync(
        self, user_id: str, label: str, change: Callable[[str, str], str]
    ) -> int:
        md, hist_path, lock = self._paths(user_id, label)
        if not md.parent.is_dir():
            return 0
        with self._file_lock(lock):
            _current, history = self._current(user_id, label)  # records a pending hand edit
            rewritten = [replace(v, value=change(v.value, v.reason)) for v in history]
            changed = sum(1 for a, b in zip(history, rewritten, strict=True) if a != b)
            if not changed:
                return 0
            lines = [json.dumps({"version": v.version, "value": v.value,
                                 "updated_at": v.updated_at.isoformat(), "reason": v.reason},
                                ensure_ascii=False) for v in rewritten]
            atomic_write(hist_path, "\n".join(lines) + "\n")
            if rewritten:
                atomic_write(md, rewritten[-1].value)
            return changed

    def _set_sync(self, user_id: str, label: str, value: str, reason: str) -> Block:
        with self._file_lock(self._paths(user_id, label)[2]):
            return self._write(user_id, label, value, reason)

    def _revert_sync(self, user_id: str, label: str, version: int) -> Block:
        with self._file_lock(self._paths(user_id, label)[2]):
            _current, history = self._current(user_id, label)
            chosen = next((h for h in history if h.version == version), None)
            if chosen is None:
                raise BlockVersionNotFound(label, version, [h.version for h in history])
            check_value(label, chosen.value, self.limit)
            return self._write(user_id, label, chosen.value, f"revert to version {version}")
