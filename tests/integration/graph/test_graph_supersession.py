"""Supersession links both ways and its history reads from either end."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from graph.errors import FactNotFound, SupersessionError
from graph.models import Fact, Status
from graph.store import GraphStore

pytestmark = pytest.mark.neo4j

MakeFact = Callable[..., Fact]


async def test_chain_readable_both_ways(graph: GraphStore, make_fact: MakeFact,
                                        user_id: str) -> None:
    v1 = await graph.create_fact(make_fact("Живу в Казани", age_s=300))
    v2 = await graph.create_fact(make_fact("Живу в Москве", age_s=200))
    v3 = await graph.create_fact(make_fact("Живу в Берлине", age_s=100))
    old, new = await graph.supersede(user_id, v1.id, v2.id)
    assert (old.status, old.superseded_by, new.supersedes) == (Status.SUPERSEDED, v2.id, v1.id)
    await graph.supersede(user_id, v2.id, v3.id)

    expected = [v1.id, v2.id, v3.id]
    for fact in (v1, v2, v3):
        assert [f.id for f in await graph.history(user_id, fact.id)] == expected

    stored = {f.id: f for f in await graph.history(user_id, v2.id)}
    assert stored[v1.id].superseded_by == v2.id
    assert stored[v2.id].supersedes == v1.id and stored[v2.id].superseded_by == v3.id
    assert stored[v3.id].supersedes == v2.id and stored[v3.id].status is Status.ACTIVE
    edges = await graph._read(
        "MATCH (n:Fact)-[:SUPERSEDES]->(o:Fact) WHERE n.user_id = $u RETURN n.id AS n, o.id AS o",
        u=user_id,
    )
    assert {(r["n"], r["o"]) for r in edges} == {(v2.id, v1.id), (v3.id, v2.id)}
    # The old versions are out of the prompt path but still answer history questions.
    assert [h.fact.id for h in await graph.fulltext_search(user_id, "Казань")] == []
    found = await graph.fulltext_search(user_id, "Казань", statuses=(Status.SUPERSEDED,))
    assert [h.fact.id for h in found] == [v1.id]


async def test_history_of_a_lone_fact(graph: GraphStore, make_fact: MakeFact, user_id: str) -> None:
    fact = await graph.create_fact(make_fact("один"))
    assert await graph.history(user_id, fact.id) == [fact]
    with pytest.raises(FactNotFound):
        await graph.history(user_id, "f-missing")


async def test_refusals(graph: GraphStore, make_fact: MakeFact, user_id: str) -> None:
    a = await graph.create_fact(make_fact("a", age_s=3))
    b = await graph.create_fact(make_fact("b", age_s=2))
    c = await graph.create_fact(make_fact("c", age_s=1))
    with pytest.raises(SupersessionError, match="itself"):
        await graph.supersede(user_id, a.id, a.id)
    await graph.supersede(user_id, a.id, b.id)
    await graph.supersede(user_id, a.id, b.id)  # the same pair again: no-op
    with pytest.raises(SupersessionError, match=f"already superseded by {b.id}") as caught:
        await graph.supersede(user_id, a.id, c.id)
    assert b.id in (caught.value.next_step or "")
    with pytest.raises(SupersessionError, match="itself superseded"):
        await graph.supersede(user_id, b.id, a.id)  # would close a cycle
    with pytest.raises(FactNotFound):
        await graph.supersede(user_id, c.id, "f-missing")
    assert [f.id for f in await graph.history(user_id, a.id)] == [a.id, b.id]


async def test_deleting_a_version_leaves_no_dangling_pointer(
    graph: GraphStore, make_fact: MakeFact, user_id: str
) -> None:
    v1 = await graph.create_fact(make_fact("v1", age_s=3))
    v2 = await graph.create_fact(make_fact("v2", age_s=2))
    v3 = await graph.create_fact(make_fact("v3", age_s=1))
    await graph.supersede(user_id, v1.id, v2.id)
    await graph.supersede(user_id, v2.id, v3.id)
    assert await graph.delete_fact(user_id, v2.id)
    left = {f.id: f for f in await graph.list_facts(user_id)}
    assert left[v1.id].superseded_by is None and left[v1.id].status is Status.SUPERSEDED
    assert left[v3.id].supersedes is None
    assert [f.id for f in await graph.history(user_id, v3.id)] == [v3.id]
