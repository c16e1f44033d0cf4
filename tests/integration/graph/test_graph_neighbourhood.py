"""The ranked two-hop neighbourhood on a small graph whose answer is known."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from graph.errors import InvalidInput
from graph.models import Entity, Fact, RelationType, Status
from graph.store import GraphStore

pytestmark = pytest.mark.neo4j

MakeFact = Callable[..., Fact]


async def _entity(graph: GraphStore, user_id: str, name: str, kind: str) -> Entity:
    entity = await graph.resolve_entity(user_id, name, kind)
    assert entity is not None
    return entity


async def test_two_hops_ranked(graph: GraphStore, make_fact: MakeFact, user_id: str) -> None:
    # Игорь -WORKS_AT(x3)-> Яндекс -PART_OF-> IT ; Игорь -KNOWS-> Марина ; Берлин unconnected
    igor = await _entity(graph, user_id, "Игорь", "person")
    yandex = await _entity(graph, user_id, "Яндекс", "organisation")
    it = await _entity(graph, user_id, "IT", "topic")
    marina = await _entity(graph, user_id, "Марина", "person")
    berlin = await _entity(graph, user_id, "Берлин", "place")
    for source in ("f-a", "f-b", "f-c"):
        await graph.relate(user_id, igor.id, yandex.id, RelationType.WORKS_AT, source)
    await graph.relate(user_id, yandex.id, it.id, RelationType.PART_OF)
    await graph.relate(user_id, igor.id, marina.id, RelationType.KNOWS)

    f_igor = await graph.create_fact(make_fact("Игорь любит чай", age_s=50), [igor])
    f_both = await graph.create_fact(make_fact("Игорь работает в Яндексе", age_s=60),
                                     [igor, yandex])
    f_yandex = await graph.create_fact(make_fact("Яндекс в Москве", age_s=40), [yandex])
    f_marina = await graph.create_fact(make_fact("Марина пишет код", age_s=30), [marina])
    f_it = await graph.create_fact(make_fact("IT растёт", age_s=20), [it])
    await graph.create_fact(make_fact("Берлин большой", age_s=10), [berlin])
    await graph.create_fact(make_fact("Игорь жил в Казани", status=Status.SUPERSEDED), [igor])

    hits = await graph.neighbourhood(user_id, [igor.id])
    # seed 1.0; Яндекс 0.5*3/4 = 0.375; Марина 0.5*1/2 = 0.25; IT 0.375*0.25 = 0.09375
    assert [h.fact.id for h in hits] == [f_both.id, f_igor.id, f_yandex.id, f_marina.id, f_it.id]
    assert [round(h.score, 5) for h in hits] == [1.375, 1.0, 0.375, 0.25, 0.09375]

    one_hop = await graph.neighbourhood(user_id, [igor.id], hops=1)
    assert f_it.id not in {h.fact.id for h in one_hop}
    seeds_only = await graph.neighbourhood(user_id, [igor.id], hops=0)
    assert {h.fact.id for h in seeds_only} == {f_igor.id, f_both.id}
    assert len(await graph.neighbourhood(user_id, [igor.id], limit=2)) == 2
    with_history = await graph.neighbourhood(user_id, [igor.id], hops=0, statuses=None)
    assert len(with_history) == 3


async def test_two_seeds_add_up(graph: GraphStore, make_fact: MakeFact, user_id: str) -> None:
    a = await _entity(graph, user_id, "Анна", "person")
    b = await _entity(graph, user_id, "Борис", "person")
    both = await graph.create_fact(make_fact("Анна и Борис женаты"), [a, b])
    only_a = await graph.create_fact(make_fact("Анна поёт"), [a])
    hits = await graph.neighbourhood(user_id, [a.id, b.id], hops=2)
    assert [(h.fact.id, h.score) for h in hits] == [(both.id, 2.0), (only_a.id, 1.0)]


async def test_bounds(graph: GraphStore, user_id: str) -> None:
    assert await graph.neighbourhood(user_id, []) == []
    assert await graph.neighbourhood(user_id, ["e-missing"]) == []
    with pytest.raises(InvalidInput, match="hops"):
        await graph.neighbourhood(user_id, ["e-x"], hops=7)
