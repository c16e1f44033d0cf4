"""A dated history told to the chat turn at its own times, as a person over several days: each
message at its moment (``WAVE_NOW`` and ``now``), the post-processor drained after it, and every
proposal approved as the person would tap "yes"."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime

import pytest

from wave_agent.services import Services


async def replay(services: Services, user_id: str, history: Iterable[tuple[str, str]],
                 monkeypatch: pytest.MonkeyPatch) -> None:
    turns, worker = await services.turns(), services.postprocessor()
    graph, writer = await services.graph(), await services.writer()
    for at, text in history:
        monkeypatch.setenv("WAVE_NOW", at)
        await turns.handle(user_id, text, now=datetime.fromisoformat(at))
        assert (await worker.drain(120)).pending == 0
        for proposal in await graph.list_proposals(user_id):  # the person taps "yes"
            await writer.approve(user_id, proposal.id)
