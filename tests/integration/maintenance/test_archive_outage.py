"""The archive down: writes land in the graph flagged ``needs_index``; the drift job records
the outage instead of raising; the next run with the archive back repairs everything."""

from __future__ import annotations

import socket
from datetime import datetime

from archive.embedder import Embedder
from tests.integration.maintenance.conftest import share_embedder
from wave_agent.ops.maintenance.runner import run_maintenance
from wave_agent.services import Services
from wave_agent.settings import Settings
from wave_agent.write.result import ArchiveState


async def test_drift_waits_for_the_archive_and_repairs_when_it_is_back(
    settings: Settings, embedder: Embedder, user_id: str, now: datetime
) -> None:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        dead = sock.getsockname()[1]
    down = settings.model_copy(update={"qdrant_url": f"http://127.0.0.1:{dead}"})
    async with Services(down) as services:
        share_embedder(services, embedder)
        writer = await services.writer()
        result = await writer.remember(user_id, "The user plays the cello on Sundays")
        assert result.archive is ArchiveState.PENDING and result.fact is not None
        (report,) = await run_maintenance(services.ops_stores(), jobs=["drift"], user_ids=[user_id], now=now)
        assert report.errors and not any(a.applied for a in report.actions)
        assert "retried next run" in report.summary()

    async with Services(settings) as services:
        share_embedder(services, embedder)
        (report,) = await run_maintenance(services.ops_stores(), jobs=["drift"], user_ids=[user_id], now=now)
        assert report.ok, report.errors
        graph = await services.graph()
        fact = await graph.get_fact(user_id, result.fact.id)
        assert fact is not None and not fact.needs_index
        assert await (await services.archive()).fact_ids(user_id) == {fact.id}
