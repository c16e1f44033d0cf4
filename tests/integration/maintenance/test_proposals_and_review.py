"""Generalisation vs merge (three paraphrases over three weeks vs three in one minute vs two),
and the review list (numbers at 6 months, text at 2 years; never demoted)."""

from __future__ import annotations

from datetime import datetime, timedelta

from graph.models import ProposalKind, Status, Tier
from tests.integration.maintenance.conftest import days_ago
from wave_agent.ops.maintenance.runner import run_maintenance
from wave_agent.services import Services
from wave_agent.write.writer import MemoryItem

PARAPHRASES = (
    "Igor always pays in advance",
    "With Igor we work on prepayment",
    "Igor never asks for an invoice, he prepays",
)


async def _proposals(services: Services, user_id: str) -> list:  # type: ignore[type-arg]
    graph = await services.graph()
    return await graph.list_proposals(user_id, status=None)


async def _generalise(services: Services, user_id: str, now: datetime):  # type: ignore[no-untyped-def]
    (report,) = await run_maintenance(services.ops_stores(), jobs=["generalise"], user_ids=[user_id], now=now)
    assert report.ok, report.errors
    return report


async def test_three_paraphrases_over_three_weeks_are_proposed_as_one_fact(
    services: Services, user_id: str, now: datetime
) -> None:
    writer = await services.writer()
    results = await writer.remember_many(user_id, [
        MemoryItem(PARAPHRASES[0], created_at=days_ago(now, 21)),
        MemoryItem(PARAPHRASES[1], created_at=days_ago(now, 10)),
        MemoryItem(PARAPHRASES[2], created_at=days_ago(now, 1)),
        MemoryItem("The user lives in Berlin", created_at=days_ago(now, 5)),
    ])
    ids = {r.fact.id for r in results[:3]}  # type: ignore[union-attr]

    await _generalise(services, user_id, now)

    (proposal,) = await _proposals(services, user_id)
    assert proposal.kind is ProposalKind.GENERALISE
    assert set(proposal.target_ids) == ids
    assert proposal.text in PARAPHRASES
    again = await _generalise(services, user_id, now)  # idempotent: no second proposal
    assert len(await _proposals(services, user_id)) == 1
    assert again.count("already-proposed") == 1

    result = await writer.approve(user_id, proposal.id)  # the person agrees: one fact
    graph = await services.graph()
    live = await graph.list_facts(user_id, statuses=(Status.ACTIVE,))
    assert result.status.value == "approved"
    assert {f.text for f in live} == {proposal.text, "The user lives in Berlin"}
    assert [f.tier for f in live if f.text == proposal.text] == [Tier.FACT]


async def test_seed_example_in_russian_is_proposed_as_one_fact(
    services: Services, user_id: str, now: datetime
) -> None:
    """Seed 002: «Игорь платит по предоплате», «счета Игорь не просит», «с Игорем работаем
    предоплатой», said over a month."""
    writer = await services.writer()
    results = await writer.remember_many(user_id, [
        MemoryItem("Игорь платит по предоплате", created_at=days_ago(now, 28)),
        MemoryItem("Счета Игорь не просит", created_at=days_ago(now, 15)),
        MemoryItem("С Игорем работаем предоплатой", created_at=days_ago(now, 2)),
        MemoryItem("Анна живёт в Казани", created_at=days_ago(now, 9)),
    ])

    await _generalise(services, user_id, now)

    (proposal,) = await _proposals(services, user_id)
    assert proposal.kind is ProposalKind.GENERALISE
    assert set(proposal.target_ids) == {r.fact.id for r in results[:3]}  # type: ignore[union-attr]


async def test_three_paraphrases_within_one_minute_are_a_glitch_not_confirmation(
    services: Services, user_id: str, now: datetime
) -> None:
    writer = await services.writer()
    start = days_ago(now, 2)
    await writer.remember_many(user_id, [
        MemoryItem(text, created_at=start + timedelta(seconds=20 * i))
        for i, text in enumerate(PARAPHRASES)
    ])

    await _generalise(services, user_id, now)

    (proposal,) = await _proposals(services, user_id)
    assert proposal.kind is ProposalKind.MERGE
    assert len(proposal.target_ids) == 3


async def test_two_paraphrases_are_one_thought_written_twice(
    services: Services, user_id: str, now: datetime
) -> None:
    writer = await services.writer()
    await writer.remember_many(user_id, [
        MemoryItem(PARAPHRASES[0], created_at=days_ago(now, 20)),
        MemoryItem(PARAPHRASES[1], created_at=days_ago(now, 3)),
    ])

    await _generalise(services, user_id, now)

    (proposal,) = await _proposals(services, user_id)
    assert proposal.kind is ProposalKind.MERGE
    assert proposal.text is None


async def test_review_list_numbers_after_6_months_text_after_2_years_never_demoted(
    services: Services, user_id: str, now: datetime
) -> None:
    writer = await services.writer()
    cases = {
        "numbers-5mo": ("The pilot project costs 150 thousand roubles", 150, False),
        "numbers-7mo": ("The team has 7 engineers", 213, True),
        "text-7mo": ("The user prefers window seats on planes", 213, False),
        "text-23mo": ("The user's favourite composer is Arvo Part", 700, False),
        "text-25mo": ("The user works as a structural engineer", 760, True),
    }
    ids = {}
    for name, (text, age, _) in cases.items():
        result = await writer.remember(user_id, text, pin=True, created_at=days_ago(now, age))
        assert result.fact is not None, result
        ids[name] = result.fact.id

    (report,) = await run_maintenance(services.ops_stores(), jobs=["review"], user_ids=[user_id], now=now)

    listed = {i for a in report.actions for i in a.ids}
    assert listed == {ids[n] for n, (_, _, due) in cases.items() if due}
    graph = await services.graph()
    for fact in await graph.list_facts(user_id):
        assert fact.status is Status.ACTIVE and fact.tier is Tier.FACT  # shown, not demoted
