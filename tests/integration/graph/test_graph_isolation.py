"""User B never reads, finds or traverses user A's facts or entities."""

from __future__ import annotations

import uuid
from collections.abc import Callable

import pytest

from graph.errors import EntityNotFound, FactNotFound
from graph.models import Conflict, Fact, Proposal, ProposalKind, RelationType, new_id
from graph.store import GraphStore

pytestmark = pytest.mark.neo4j

MakeFact = Callable[..., Fact]


async def test_user_b_sees_nothing_of_user_a(graph: GraphStore, make_fact: MakeFact,
                                              user_id: str) -> None:
    a = user_id
    b = f"test-b-{uuid.uuid4().hex[:8]}"
    igor_a = await graph.resolve_entity(a, "Игорь", "person")
    yandex_a = await graph.resolve_entity(a, "Яндекс", "organisation")
    assert igor_a and yandex_a
    await graph.relate(a, igor_a.id, yandex_a.id, RelationType.WORKS_AT)
    secret = await graph.create_fact(make_fact("Игорь секретно переезжает в Москву"), [igor_a])
    await graph.create_proposal(Proposal(new_id("p"), a, ProposalKind.DELETE, (secret.id,), "r"))
    await graph.create_conflict(Conflict(new_id("c"), a, (secret.id, secret.id), "s", "r"))

    # B has its own Игорь: resolution must not return A's, and never A's id.
    igor_b = await graph.resolve_entity(b, "Игорем", "person")
    assert igor_b and igor_b.id != igor_a.id and igor_b.user_id == b

    assert await graph.get_fact(b, secret.id) is None
    assert await graph.get_facts(b, [secret.id]) == []
    assert await graph.list_facts(b) == []
    assert await graph.recent_facts(b, limit=10) == []
    assert await graph.fulltext_search(b, "Игорь переезжает Москва") == []
    assert await graph.neighbourhood(b, [igor_a.id, yandex_a.id]) == []
    assert await graph.neighbourhood(b, [igor_b.id]) == []
    assert await graph.entities_in_text(b, "Яндекс") == []
    assert await graph.get_entity(b, igor_a.id) is None
    assert await graph.relations(b, igor_a.id) == []
    assert await graph.count_facts(b) == []
    assert await graph.list_proposals(b) == [] and await graph.list_conflicts(b) == []
    with pytest.raises(FactNotFound):
        await graph.history(b, secret.id)

    # ...nor write through A's ids.
    with pytest.raises(FactNotFound):
        await graph.update_fact(b, secret.id, text="перезаписано")
    assert await graph.delete_fact(b, secret.id) is False
    with pytest.raises(FactNotFound):
        await graph.link_about(b, secret.id, [igor_b.id])
    mine = await graph.create_fact(make_fact("факт B", user_id=b))
    with pytest.raises(EntityNotFound):
        await graph.link_about(b, mine.id, [igor_a.id])
    with pytest.raises(EntityNotFound):
        await graph.relate(b, igor_b.id, igor_a.id, RelationType.KNOWS)
    with pytest.raises(FactNotFound):
        await graph.supersede(b, secret.id, mine.id)

    # A's data is untouched.
    assert await graph.get_fact(a, secret.id) == secret
    assert [h.fact.id for h in await graph.neighbourhood(a, [igor_a.id])] == [secret.id]


async def test_create_facts_never_links_another_users_entity(
    graph: GraphStore, make_fact: MakeFact, user_id: str
) -> None:
    other = f"test-o-{uuid.uuid4().hex[:8]}"
    foreign = await graph.resolve_entity(other, "Чужой", "person")
    assert foreign
    fact = make_fact("мой факт")
    await graph.create_facts([fact], about={fact.id: [foreign.id]})
    await graph.create_fact(make_fact("ещё факт"), [foreign])
    assert await graph.neighbourhood(other, [foreign.id]) == []
    assert await graph.about(user_id, fact.id) == []
