"""One person's memory is changed by one writer at a time, across the processes of one machine.

The bot (``wave run``), the CLI, and later the MCP server and the web page each have their own
``Writer``; an ``asyncio.Lock`` alone orders only the coroutines of one process. ``PersonLocks``
adds an exclusive ``flock`` on ``<directory>/<sha1(user)[:16]>.lock`` (under ``DATA_DIR/locks``),
taken without blocking the event loop (non-blocking attempts, a short sleep between them, so a
cancelled waiter never leaves a thread behind holding the lock). The kernel drops a ``flock``
when its process dies, so a killed writer never leaves the person locked.

The hold is re-entrant within one task (a writer method that calls another, e.g. ``approve``
carrying out a deletion): a context variable records which people the current task holds.
Across machines this does not hold: see docs/architecture.md ("One unit of mutation").
"""

from __future__ import annotations

import asyncio
import contextvars
import fcntl
import hashlib
import logging
import os
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

log = logging.getLogger("wave.writer.lock")

# Which people the current task already holds (re-entrancy: a held lock is not taken again).
_held: contextvars.ContextVar[frozenset[str]] = contextvars.ContextVar(
    "wave_person_locks_held", default=frozenset())

_FIRST_WAIT_S = 0.005
_MAX_WAIT_S = 0.1
_SLOW_S = 5.0  # log once when another process has held the person this long


def lock_name(user_id: str) -> str:
    """The lock file's name: a hash, so any user id (slashes, Cyrillic) makes a safe name."""
    return hashlib.sha1(user_id.encode("utf-8")).hexdigest()[:16] + ".lock"


class PersonLocks:
    """Per-person mutual exclusion: in the process (asyncio) and, with a directory, across
    the processes sharing it (``flock``). ``directory=None``: in-process only."""

    def __init__(self, directory: Path | None = None) -> None:
        self.directory = Path(directory) if directory is not None else None
        self._local: dict[str, asyncio.Lock] = {}

    @asynccontextmanager
    async def hold(self, user_id: str) -> AsyncIterator[None]:
        held = _held.get()
        if user_id in held:
            yield
            return
        local = self._local.setdefault(user_id, asyncio.Lock())
        async with local:
            fd = await self._acquire_file(user_id) if self.directory is not None else None
            token = _held.set(held | {user_id})
            try:
                yield
            finally:
                _held.reset(token)
                if fd is not None:
                    fcntl.flock(fd, fcntl.LOCK_UN)
                    os.close(fd)

    async def _acquire_file(self, user_id: str) -> int:
        assert self.directory is not None
        self.directory.mkdir(parents=True, exist_ok=True)
        path = self.directory / lock_name(user_id)
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
        wait, started, told = _FIRST_WAIT_S, time.monotonic(), False
        try:
            while True:
                try:
                    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                    return fd
                except BlockingIOError:
                    pass
                if not told and time.monotonic() - started > _SLOW_S:
                    told = True
                    log.warning("waiting for another Wave process writing %s's memory (%s)",
                                user_id, path)
                await asyncio.sleep(wait)
                wait = min(_MAX_WAIT_S, wait * 2)
        except BaseException:
            os.close(fd)
            raise
