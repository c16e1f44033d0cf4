"""Regression: stopping `wave run` while a scheduled maintenance pass runs printed an
apscheduler traceback (CancelledError) into the bot's log."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import pytest

from wave_agent.ops.maintenance import scheduler


async def test_a_pass_cut_short_by_shutdown_ends_quietly(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    started = asyncio.Event()

    async def long_pass(services: Any, jobs: Any) -> list[Any]:
        started.set()
        await asyncio.Event().wait()  # a pass still going when the bot stops
        return []

    monkeypatch.setattr(scheduler, "run_maintenance", long_pass)
    caplog.set_level(logging.INFO, logger="wave.maintenance.scheduler")
    task = asyncio.create_task(scheduler._pass(object(), ("expire",)))  # type: ignore[arg-type]
    await started.wait()
    task.cancel()
    assert await task is None  # finished, not raised: the scheduler logs no traceback
    assert "interrupted by shutdown" in caplog.text
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
