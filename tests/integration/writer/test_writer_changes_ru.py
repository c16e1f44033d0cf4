"""Changes found in Russian, Polish and English by the real writer: one remember at a
time, and imports (``remember_many``), against the real Neo4j and Qdrant local."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from graph.models import ProposalStatus, Status
from graph.store import GraphStore
from wave_agent.write.result import WriteStatus
from wave_agent.write.writer import MemoryItem, Writer

pytestmark = pytest.mark.neo4j


async def active(graph: GraphStore, user_id: str) -> list[str]:
    return sorted(f.text for f in await graph.list_facts(user_id, statuses=[Status.ACTIVE]))


def day(n: int) -> datetime:
    return datetime(2026, 1 + n, 1, 9, tzinfo=UTC)


async def test_price_changed_with_a_lead_in_is_proposed_then_linked_both_ways(
    writer: Writer, graph: GraphStore, user_id: str
) -> None:
    first = await writer.remember(user_id, "Пилотный проект стоит 150 тысяч рублей")
    assert first.status is WriteStatus.CREATED and first.fact is not None
    proposed = await writer.remember(
        user_id, "Цена изменилась: пилотный проект теперь стоит 200 тысяч рублей")
    assert proposed.status is WriteStatus.PROPOSED and proposed.proposal is not None
    assert proposed.proposal.target_ids == (first.fact.id,)
    assert "150 тысяч -> 200 тысяч" in (proposed.reason or "")
    assert await active(graph, user_id) == ["Пилотный проект стоит 150 тысяч рублей"]

    done = await writer.approve(user_id, proposed.proposal.id)
    assert done.status is WriteStatus.SUPERSEDED and done.fact is not None
    old = await graph.get_fact(user_id, first.fact.id)
    assert old is not None and old.status is Status.SUPERSEDED
    assert old.superseded_by == done.fact.id and done.fact.supersedes == first.fact.id


async def test_the_same_price_written_otherwise_confirms(
    writer: Writer, graph: GraphStore, user_id: str
) -> None:
    await writer.remember(user_id, "Пилотный проект стоит 150 тысяч рублей")
    again = await writer.remember(user_id, "Пилотный проект стоит 150 000 рублей")
    assert again.status is WriteStatus.CONFIRMED
    assert await active(graph, user_id) == ["Пилотный проект стоит 150 тысяч рублей"]


async def test_said_no_longer_is_a_proposal_not_a_conflict(
    writer: Writer, graph: GraphStore, user_id: str
) -> None:
    for old, new in (("Я пью кофе по утрам", "Я больше не пью кофе по утрам"),
                     ("Piję kawę rano", "Już nie piję kawy rano"),
                     ("I drink coffee in the morning", "I no longer drink coffee in the morning")):
        first = await writer.remember(user_id, old)
        said = await writer.remember(user_id, new)
        assert said.status is WriteStatus.PROPOSED, (new, said.status)
        assert said.conflict is None and first.fact is not None
        assert said.proposal is not None and said.proposal.target_ids == (first.fact.id,)
        assert "said it changed" in (said.reason or "")
    assert await graph.list_conflicts(user_id) == []


async def test_polish_rent_change_replaces_the_old_rent(
    writer: Writer, graph: GraphStore, user_id: str
) -> None:
    # the rent is a single-valued attribute (price:rent): a new value replaces the old one
    # (DESIGN section 4), where "same words, other numbers" alone only proposes
    old = await writer.remember(user_id, "Czynsz za mieszkanie wynosi 3000 zł miesięcznie")
    changed = await writer.remember(user_id, "Czynsz za mieszkanie wynosi teraz 3500 zł miesięcznie")
    assert changed.status is WriteStatus.SUPERSEDED
    assert changed.replaced is not None and changed.replaced.id == old.id
    assert await active(graph, user_id) == ["Czynsz za mieszkanie wynosi teraz 3500 zł miesięcznie"]


async def test_an_import_proposes_each_later_rent_and_approvals_chain_in_date_order(
    writer: Writer, graph: GraphStore, user_id: str
) -> None:
    rents = ["Аренда квартиры 45 000 рублей в месяц", "Аренда квартиры 50 000 рублей в месяц",
             "Аренда квартиры 55 тыс. рублей в месяц"]
    # given out of order: the import reads them by date
    items = [MemoryItem(rents[2], created_at=day(2)), MemoryItem(rents[0], created_at=day(0)),
             MemoryItem("Сосед сверху залил нам ванную", created_at=day(1)),
             MemoryItem(rents[1], created_at=day(1))]
    results = await writer.remember_many(user_id, items)
    assert [r.status for r in results] == [WriteStatus.PROPOSED, WriteStatus.CREATED,
                                           WriteStatus.CREATED, WriteStatus.PROPOSED]
    assert await active(graph, user_id) == sorted([rents[0], "Сосед сверху залил нам ванную"])
    first = results[1].fact
    assert first is not None
    later, middle = results[0].proposal, results[3].proposal
    assert later is not None and middle is not None
    assert later.target_ids == middle.target_ids == (first.id,)
    assert "45 000 -> 50 000" in middle.reason and "told 2026-02-01" in middle.reason
    assert "told 2026-03-01" in later.reason

    # approved in date order, each replaces the one in force: 45 -> 50 -> 55, history kept
    step = await writer.approve(user_id, middle.id)
    last = await writer.approve(user_id, later.id)
    assert step.fact is not None and last.fact is not None
    assert last.replaced is not None and last.replaced.id == step.fact.id
    assert await active(graph, user_id) == sorted([rents[2], "Сосед сверху залил нам ванную"])
    assert [f.text for f in await graph.history(user_id, last.fact.id)] == rents
    assert await graph.list_proposals(user_id) == []  # none left pending
    assert len(await graph.list_proposals(user_id, status=ProposalStatus.APPROVED)) == 2


async def test_an_import_checks_the_records_in_force_and_keeps_dated_events_apart(
    writer: Writer, graph: GraphStore, user_id: str
) -> None:
    said = await writer.remember(user_id, "Пилотный проект стоит 150 тысяч рублей")
    assert said.fact is not None
    results = await writer.remember_many(user_id, [
        MemoryItem("Пилотный проект стоит 200 000 рублей", created_at=day(3)),
        MemoryItem("Был у стоматолога 5 мая", created_at=day(4)),
        MemoryItem("Был у стоматолога 20 мая", created_at=day(5)),
        MemoryItem("The pilot costs 150 thousand dollars", created_at=day(4)),
    ])
    assert [r.status for r in results] == [WriteStatus.PROPOSED, WriteStatus.CREATED,
                                           WriteStatus.CREATED, WriteStatus.CREATED]
    assert results[0].proposal is not None
    assert results[0].proposal.target_ids == (said.fact.id,)
    # nothing of the import is lost: the proposed text waits in its proposal
    assert results[0].proposal.text == "Пилотный проект стоит 200 000 рублей"
