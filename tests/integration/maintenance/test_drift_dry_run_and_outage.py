"""Drift repair on a deliberately broken index, a dry run that changes nothing, weekly
compression, and a pass with the graph down (recorded, retried next run, never raised)."""

from __future__ import annotations

import socket
from datetime import date, datetime, time, timedelta
from pathlib import Path

from archive.models import ArchiveRecord
from episodes.models import EpisodeEntry
from graph.models import FactType, utcnow
from tests.integration.maintenance.conftest import days_ago, share_embedder
from wave_agent.ops.maintenance.runner import JOB_NAMES, run_maintenance
from wave_agent.services import Services
from wave_agent.settings import Settings
from wave_agent.write.archive_sync import ArchiveSync
from wave_agent.write.writer import MemoryItem, Writer


async def _state(services: Services, user_id: str) -> tuple[object, ...]:
    graph = await services.graph()
    archive = await services.archive()
    facts = sorted((f for f in await graph.list_facts(user_id)), key=lambda f: f.id)
    proposals = sorted(await graph.list_proposals(user_id, status=None), key=lambda p: p.id)
    return (facts, proposals, sorted(await archive.fact_ids(user_id)),
            [c.count for c in await graph.count_facts(user_id)])


async def _broken_index(services: Services, user_id: str) -> tuple[str, str, str]:
    """Three facts; one loses its vector, one is written while the archive is away
    (flagged), and an orphan vector with no fact is added."""
    writer = await services.writer()
    a = await writer.remember(user_id, "The user plays the cello")
    b = await writer.remember(user_id, "The user's daughter is called Mira")
    assert a.fact and b.fact
    offline = Writer(writer.graph, ArchiveSync(services.embedder(), None, problem="test"))
    c = await offline.remember(user_id, "The user is allergic to cats")
    assert c.fact and c.fact.needs_index
    archive = await services.archive()
    await archive.delete(user_id, [a.fact.id])
    await archive.upsert(user_id, [ArchiveRecord(
        fact_id="f-orphan22", text="a vector whose fact is gone", type="event",
        tier="observation", status="active", created_at=utcnow())])
    return a.fact.id, c.fact.id, "f-orphan22"


async def test_drift_repair_reembeds_missing_and_drops_orphans(
    services: Services, user_id: str, now: datetime
) -> None:
    missing, flagged, orphan = await _broken_index(services, user_id)

    (report,) = await run_maintenance(services.ops_stores(), jobs=["drift"], user_ids=[user_id], now=now)

    assert report.ok, report.errors
    graph = await services.graph()
    archive = await services.archive()
    facts = {f.id: f for f in await graph.list_facts(user_id)}
    assert await archive.fact_ids(user_id) == set(facts)
    assert not facts[flagged].needs_index
    touched = {i for a in report.actions for i in a.ids}
    assert {missing, flagged, orphan} <= touched
    (again,) = await run_maintenance(services.ops_stores(), jobs=["drift"], user_ids=[user_id], now=now)
    assert again.actions == []


async def test_dry_run_changes_nothing(services: Services, user_id: str, now: datetime) -> None:
    writer = await services.writer()
    await writer.remember_many(user_id, [
        MemoryItem("The user collects vintage fountain pens", created_at=days_ago(now, 40)),
        MemoryItem("The user feels anxious about the move", type=FactType.STATE,
                   created_at=days_ago(now, 2), valid_until=now - timedelta(hours=1)),
        MemoryItem("The user runs every morning", exchange_id="x-1", created_at=days_ago(now, 3)),
        MemoryItem("The user runs every morning", exchange_id="x-2", created_at=days_ago(now, 2)),
        MemoryItem("Igor always pays in advance", created_at=days_ago(now, 21)),
        MemoryItem("With Igor we work on prepayment", created_at=days_ago(now, 10)),
        MemoryItem("Igor never asks for an invoice, he prepays", created_at=days_ago(now, 4)),
    ])
    await writer.remember(user_id, "The team has 7 engineers", pin=True,
                          created_at=days_ago(now, 300))
    await _broken_index(services, user_id)
    before = await _state(services, user_id)

    reports = await run_maintenance(services.ops_stores(), dry_run=True, user_ids=[user_id], now=now)

    assert [r.job for r in reports] == list(JOB_NAMES)
    kinds = {a.kind for r in reports for a in r.actions}
    assert {"archived", "expired", "proposed-generalise", "review",
            "reindexed", "orphans-removed"} <= kinds, [r.actions for r in reports]
    assert not any(a.applied for r in reports for a in r.actions)
    assert await _state(services, user_id) == before


async def test_weekly_compression_of_old_episodes(
    services: Services, user_id: str, settings: Settings
) -> None:
    store = await services.episodes()
    monday = date(2026, 11, 2)  # ISO week 2026-W45
    for offset in range(3):
        day = monday + timedelta(days=offset)
        await store.append(user_id, [EpisodeEntry(
            f"Day {offset}: the user talked about the garden", fact_ids=(f"f-day{offset}aaa",),
            at=datetime.combine(day, time(10), tzinfo=utcnow().tzinfo))], key=f"k-{offset}")
    now = datetime(2026, 11, 30, 12, tzinfo=utcnow().tzinfo)

    (dry,) = await run_maintenance(services.ops_stores(), jobs=["compress"], dry_run=True,
                                   user_ids=[user_id], now=now)
    assert [a.ids for a in dry.actions] == [("2026-W45",)]
    assert await store.weekly(user_id, "2026-W45") is None

    (done,) = await run_maintenance(services.ops_stores(), jobs=["compress"], user_ids=[user_id], now=now)
    assert done.ok and [a.ids for a in done.actions] == [("2026-W45",)]
    weekly = await store.weekly(user_id, "2026-W45")
    assert weekly is not None and "2026-11-02" in weekly
    assert len(await store.days(user_id)) == 3  # day files kept
    (again,) = await run_maintenance(services.ops_stores(), jobs=["compress"], user_ids=[user_id], now=now)
    assert again.actions == []


async def test_graph_down_is_recorded_and_retried_not_raised(
    tmp_path: Path, embedder: object
) -> None:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        dead_port = sock.getsockname()[1]
    settings = Settings(_env_file=None, data_dir=tmp_path / "data",  # type: ignore[call-arg]
                        neo4j_uri=f"bolt://127.0.0.1:{dead_port}")
    async with Services(settings) as services:
        share_embedder(services, embedder)  # type: ignore[arg-type]
        reports = await run_maintenance(services.ops_stores())
    graph_jobs = [r for r in reports if r.job not in ("compress", "blocks", "erasure")]
    assert all(r.errors and not r.actions for r in graph_jobs)
    assert all("retried next run" in r.summary() for r in graph_jobs)
    # none of these needs the graph (erasure: no erasure happened, nothing to compact)
    assert [r.job for r in reports if r.ok] == ["compress", "blocks", "erasure"]
