"""Facts: every field round-trips; list, recent, update, delete, counts, transactions."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime, timedelta

import pytest

from graph.errors import FactNotFound, InvalidInput
from graph.models import Fact, FactType, Status, Tier, Veracity, utcnow
from graph.store import GraphStore

pytestmark = pytest.mark.neo4j

MakeFact = Callable[..., Fact]


async def test_every_field_round_trips(graph: GraphStore, make_fact: MakeFact) -> None:
    fact = make_fact(
        "Дедлайн по отчёту в пятницу",
        type=FactType.COMMITMENT, tier=Tier.FACT, veracity=Veracity.INFERRED, confidence=0.7,
        mention_count=3, recall_count=5,
        valid_until=datetime(2027, 1, 15, 12, 30, tzinfo=UTC),
        supersedes="f-older", superseded_by=None,
        source_message_ids=("tg-1", "tg-2"), episode_date="2026-11-30",
        quarantine_reason=None, speaker="user", pinned=True, exchange_ids=("x-1", "x-2"),
    )
    created = await graph.create_fact(fact)
    assert created == fact
    assert await graph.get_fact(fact.user_id, fact.id) == fact
    assert created.created_at.tzinfo is not None


async def test_get_missing_is_none(graph: GraphStore, user_id: str) -> None:
    assert await graph.get_fact(user_id, "f-nothere") is None


async def test_naive_datetime_is_refused(graph: GraphStore, make_fact: MakeFact) -> None:
    naive = datetime(2026, 1, 1)  # noqa: DTZ001 - the point of the test
    with pytest.raises(InvalidInput, match="naive"):
        await graph.create_fact(make_fact("x", created_at=naive))


async def test_list_newest_first_with_filters(graph: GraphStore, make_fact: MakeFact,
                                              user_id: str) -> None:
    old = make_fact("старое наблюдение", age_s=300)
    mid = make_fact("решение про проект", age_s=200, type=FactType.DECISION, tier=Tier.FACT)
    new = make_fact("свежий факт", age_s=100, status=Status.ARCHIVED, tier=Tier.ARCHIVE)
    assert await graph.create_facts([old, mid, new]) == 3

    assert [f.id for f in await graph.list_facts(user_id)] == [new.id, mid.id, old.id]
    assert [f.id for f in await graph.list_facts(user_id, limit=2)] == [new.id, mid.id]
    assert [f.id for f in await graph.list_facts(user_id, tiers=[Tier.FACT])] == [mid.id]
    assert [f.id for f in await graph.list_facts(user_id, statuses=["active"])] == [mid.id, old.id]
    assert [f.id for f in await graph.list_facts(user_id, types=[FactType.DECISION])] == [mid.id]
    with pytest.raises(InvalidInput, match="Tier"):
        await graph.list_facts(user_id, tiers=["gold"])


async def test_recent_facts_by_last_confirmation(graph: GraphStore, make_fact: MakeFact,
                                                 user_id: str) -> None:
    a = make_fact("A", age_s=1000)
    b = make_fact("B", age_s=10)
    c = make_fact("C", age_s=500, status=Status.SUPERSEDED)
    await graph.create_facts([a, b, c])
    await graph.update_fact(user_id, a.id, last_confirmed_at=utcnow())
    assert [f.id for f in await graph.recent_facts(user_id, limit=5)] == [a.id, b.id]
    everything = await graph.recent_facts(user_id, limit=5, statuses=None)
    assert [f.id for f in everything] == [a.id, b.id, c.id]


async def test_update_checks_field_names(graph: GraphStore, make_fact: MakeFact,
                                         user_id: str) -> None:
    fact = await graph.create_fact(make_fact("Люблю кофе", valid_until=utcnow()))
    updated = await graph.update_fact(user_id, fact.id, tier=Tier.FACT, mention_count=2,
                                      valid_until=None, exchange_ids=("e1", "e2"))
    assert (updated.tier, updated.mention_count, updated.valid_until) == (Tier.FACT, 2, None)
    assert updated.exchange_ids == ("e1", "e2")
    with pytest.raises(InvalidInput, match="colour"):
        await graph.update_fact(user_id, fact.id, colour="blue")
    with pytest.raises(InvalidInput, match="status"):
        await graph.update_fact(user_id, fact.id, status="gone")
    with pytest.raises(FactNotFound):
        await graph.update_fact(user_id, "f-missing", tier=Tier.FACT)


async def test_delete(graph: GraphStore, make_fact: MakeFact, user_id: str) -> None:
    fact = await graph.create_fact(make_fact("удалить меня"))
    assert await graph.delete_fact(user_id, fact.id) is True
    assert await graph.get_fact(user_id, fact.id) is None
    assert await graph.delete_fact(user_id, fact.id) is False


async def test_count_facts_groups(graph: GraphStore, make_fact: MakeFact, user_id: str) -> None:
    await graph.create_facts([
        make_fact("a"), make_fact("b"), make_fact("c", type=FactType.IDENTITY, tier=Tier.CORE),
    ])
    counts = {(c.type, c.tier, c.status): c.count for c in await graph.count_facts(user_id)}
    assert counts == {
        (FactType.STATE, Tier.OBSERVATION, Status.ACTIVE): 2,
        (FactType.IDENTITY, Tier.CORE, Status.ACTIVE): 1,
    }
    everyone = await graph.count_facts()
    assert sum(c.count for c in everyone if c.user_id == user_id) == 3


async def test_transaction_commits(graph: GraphStore, make_fact: MakeFact, user_id: str) -> None:
    a, b = make_fact("первый"), make_fact("второй")
    async with graph.transaction() as tx:
        await tx.create_fact(a)
        await tx.create_fact(b)
        assert await tx.get_fact(user_id, a.id) == a  # visible inside its transaction
    assert len(await graph.list_facts(user_id)) == 2


async def test_transaction_rolls_back_on_error(graph: GraphStore, make_fact: MakeFact,
                                               user_id: str) -> None:
    a = make_fact("не должно остаться")
    with pytest.raises(RuntimeError):
        async with graph.transaction() as tx:
            await tx.create_fact(a)
            raise RuntimeError("boom")
    assert await graph.get_fact(user_id, a.id) is None


async def test_failed_supersede_inside_transaction_rolls_back_everything(
    graph: GraphStore, make_fact: MakeFact, user_id: str
) -> None:
    a = make_fact("живу в Казани", age_s=10)
    with pytest.raises(FactNotFound):
        async with graph.transaction() as tx:
            await tx.create_fact(a)
            await tx.supersede(user_id, a.id, "f-missing")
    assert await graph.get_fact(user_id, a.id) is None


async def test_create_facts_links_entities(graph: GraphStore, make_fact: MakeFact,
                                           user_id: str) -> None:
    igor = await graph.resolve_entity(user_id, "Игорь", "person")
    assert igor is not None
    facts = [make_fact(f"факт {i}", age_s=i) for i in range(3)]
    await graph.create_facts(facts, about={facts[0].id: [igor], facts[2].id: [igor.id]})
    about = await graph.neighbourhood(user_id, [igor.id], hops=0)
    assert {s.fact.id for s in about} == {facts[0].id, facts[2].id}
    assert await graph.create_facts([]) == 0


def test_make_fact_is_aware(make_fact: MakeFact) -> None:
    assert make_fact("x").created_at.utcoffset() == timedelta(0)
