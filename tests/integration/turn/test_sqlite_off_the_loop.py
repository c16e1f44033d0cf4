"""The outbox and the session log are SQLite files that another process (the CLI beside the
bot) may hold for seconds; SQLite then waits up to 10 s for it. That wait must not stop the
event loop: the bot keeps answering other people meanwhile.

Another OS process takes the file's write lock; Wave's call starts; the loop must still run
other coroutines while the call waits, and the call completes once the lock is let go.
"""

from __future__ import annotations

import asyncio
import subprocess
import sys
import textwrap
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from wave_agent.services import Services
from wave_agent.settings import Settings

HOLDER = textwrap.dedent(
    """
    import sqlite3, sys
    db = sqlite3.connect(sys.argv[1], isolation_level=None)
    db.execute("BEGIN IMMEDIATE")
    print("held", flush=True)
    sys.stdin.readline()
    db.execute("ROLLBACK")
    """
)


@contextmanager
def held(path: Path) -> Iterator[subprocess.Popen[str]]:
    proc = subprocess.Popen([sys.executable, "-c", HOLDER, str(path)], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None and proc.stdout.readline().strip() == "held"
        yield proc
    finally:
        if proc.poll() is None:
            assert proc.stdin is not None
            proc.stdin.write("go\n")
            proc.stdin.flush()
            proc.wait(timeout=30)


async def _loop_stays_free(path: Path, call: Callable[[], Awaitable[Any]]) -> None:
    with held(path) as holder:
        task = asyncio.create_task(call())
        ticks = 0
        for _ in range(5):  # the loop runs this coroutine while the call waits for the file
            await asyncio.sleep(0.02)
            ticks += 1
        assert ticks == 5 and not task.done(), "the SQLite wait ran on the event loop"
        assert holder.stdin is not None
        holder.stdin.write("go\n")
        holder.stdin.flush()
        async with asyncio.timeout(60):  # a deadline, not a measurement
            await task


async def test_the_outbox_waits_for_another_process_off_the_event_loop(
    settings: Settings,
) -> None:
    async with Services(settings) as services:
        processor = services.postprocessor()
        await _loop_stays_free(settings.outbox_path, lambda: processor.drain(timeout_s=30))


async def test_the_session_log_waits_for_another_process_off_the_event_loop(
    settings: Settings, user_id: str,
) -> None:
    async with Services(settings) as services:
        sessions = await services.sessions()
        await _loop_stays_free(settings.data_dir / "sessions.sqlite3",
                               lambda: sessions.begin(user_id, datetime.now(UTC)))


pytestmark = pytest.mark.neo4j
