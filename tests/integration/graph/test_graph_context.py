"""Recall's context reads (graph/queries/context.py): entities of facts, facts said around one."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from graph.models import Fact, Status
from graph.store import GraphStore

pytestmark = pytest.mark.neo4j

MakeFact = Callable[..., Fact]


async def test_entities_of_most_shared_first(graph: GraphStore, make_fact: MakeFact,
                                             user_id: str) -> None:
    igor = await graph.resolve_entity(user_id, "Игорь", "person")
    wave = await graph.resolve_entity(user_id, "Wave", "project")
    assert igor and wave
    a = await graph.create_fact(make_fact("Игорь делает Wave"), [igor, wave])
    b = await graph.create_fact(make_fact("Игорь устал"), [igor])
    assert await graph.entities_of(user_id, [a.id, b.id]) == [igor.id, wave.id]
    assert await graph.entities_of(f"{user_id}-other", [a.id, b.id]) == []


async def test_facts_around_nearest_in_time(graph: GraphStore, make_fact: MakeFact,
                                            user_id: str) -> None:
    center = make_fact("центр", age_s=1000)
    near = make_fact("рядом", age_s=1010)
    nearer = make_fact("совсем рядом", age_s=1003)
    gone = make_fact("заменён", age_s=1001, status=Status.SUPERSEDED)
    far = make_fact("далеко", age_s=5000)
    await graph.create_facts([center, near, nearer, gone, far])
    around = await graph.facts_around(user_id, [center.id], window_s=300, per_fact=2)
    assert [f.id for f in around[center.id]] == [nearer.id, near.id]
    assert around[center.id][0] == nearer  # every field, datetimes included
    everything = await graph.facts_around(user_id, [center.id], per_fact=5, statuses=None)
    assert [f.id for f in everything[center.id]] == [gone.id, nearer.id, near.id]
    assert await graph.facts_around(f"{user_id}-other", [center.id]) == {}
