"""Archive after 30 days, expiry past valid_until, promotion after two exchanges: each rule
with its boundary, run twice to show the jobs are idempotent."""

from __future__ import annotations

from datetime import datetime, timedelta

from graph.models import Fact, FactType, Status, Tier, Veracity, new_id
from tests.integration.maintenance.conftest import days_ago
from wave_agent.ops.maintenance.runner import run_maintenance
from wave_agent.services import Services
from wave_agent.write.writer import MemoryItem


async def _one(services: Services, job: str, user_id: str, now: datetime) -> list[str]:
    (report,) = await run_maintenance(services.ops_stores(), jobs=[job], user_ids=[user_id], now=now)
    assert report.ok, report.errors
    return [i for a in report.actions for i in a.ids]


async def test_observation_archived_at_31_days_kept_at_29(
    services: Services, user_id: str, now: datetime
) -> None:
    writer = await services.writer()
    kept, gone = await writer.remember_many(user_id, [
        MemoryItem("The user collects vintage fountain pens", created_at=days_ago(now, 29)),
        MemoryItem("The user's sister lives in Lisbon", created_at=days_ago(now, 31)),
    ])
    pinned = await writer.remember(user_id, "The user was born in Gdansk", pin=True,
                                   created_at=days_ago(now, 90))
    assert kept.fact and gone.fact and pinned.fact

    touched = await _one(services, "archive-stale", user_id, now)

    assert touched == [gone.fact.id]
    graph = await services.graph()
    after = {f.id: f for f in await graph.list_facts(user_id)}
    assert after[gone.fact.id].status is Status.ARCHIVED
    assert after[gone.fact.id].tier is Tier.ARCHIVE
    assert after[gone.fact.id].text == gone.fact.text  # archived, never deleted
    assert after[kept.fact.id].status is Status.ACTIVE
    assert after[pinned.fact.id].status is Status.ACTIVE  # a fact stays until replaced
    assert await _one(services, "archive-stale", user_id, now) == []  # idempotent


async def test_state_and_commitment_expire_past_valid_until(
    services: Services, user_id: str, now: datetime
) -> None:
    writer = await services.writer()
    results = await writer.remember_many(user_id, [
        MemoryItem("The user is at the dentist this afternoon", type=FactType.STATE,
                   created_at=days_ago(now, 1), valid_until=now - timedelta(minutes=5)),
        MemoryItem("The user promised to send the report by Friday", type=FactType.COMMITMENT,
                   created_at=days_ago(now, 2), valid_until=now + timedelta(days=2)),
        MemoryItem("The user promised to call his mother", type=FactType.COMMITMENT,
                   created_at=days_ago(now, 3), valid_until=now - timedelta(hours=1)),
        # no valid_until given: a state lives STATE_LIFETIME (7 days) from when it was said
        MemoryItem("The user feels exhausted", type=FactType.STATE, created_at=days_ago(now, 6)),
        MemoryItem("The user is on sick leave", type=FactType.STATE, created_at=days_ago(now, 8)),
        MemoryItem("The user prefers window seats", type=FactType.PREFERENCE,
                   created_at=days_ago(now, 20), valid_until=now - timedelta(days=1)),
    ])
    dentist, report_due, call, tired, sick, seats = (r.fact for r in results)

    touched = await _one(services, "expire", user_id, now)

    assert sorted(touched) == sorted([dentist.id, call.id, sick.id])  # type: ignore[union-attr]
    graph = await services.graph()
    after = {f.id: f for f in await graph.list_facts(user_id)}
    for fact in (dentist, call, sick):
        assert after[fact.id].status is Status.ARCHIVED  # type: ignore[union-attr]
    for fact in (report_due, tired, seats):
        assert after[fact.id].status is Status.ACTIVE  # type: ignore[union-attr]
    assert await _one(services, "expire", user_id, now) == []


async def _legacy_observation(services: Services, user_id: str, text: str,
                              exchanges: tuple[str, ...], now: datetime) -> Fact:
    """A record as an older Wave stored it: confirmed in ``exchanges`` but left an
    observation (today's writer promotes on confirmation, so only such records need the job).
    Written with the graph store directly, as an import from that version would have."""
    graph = await services.graph()
    when = days_ago(now, 3)
    return await graph.create_fact(Fact(
        id=new_id("f"), user_id=user_id, text=text, type=FactType.EVENT, tier=Tier.OBSERVATION,
        status=Status.ACTIVE, veracity=Veracity.STATED, confidence=1.0, created_at=when,
        last_confirmed_at=when, mention_count=len(exchanges), exchange_ids=exchanges))


async def test_promotion_needs_two_different_exchanges(
    services: Services, user_id: str, now: datetime
) -> None:
    runs = await _legacy_observation(services, user_id, "The user runs every morning",
                                     ("x-1", "x-2"), now)
    learns = await _legacy_observation(services, user_id, "The user learns Japanese",
                                       ("x-3", "x-3"), now)
    graph = await services.graph()

    touched = await _one(services, "promote", user_id, now)

    assert touched == [runs.id]
    assert (await graph.get_fact(user_id, runs.id)).tier is Tier.FACT  # type: ignore[union-attr]
    assert (await graph.get_fact(user_id, learns.id)).tier is Tier.OBSERVATION  # type: ignore[union-attr]
    assert await _one(services, "promote", user_id, now) == []
