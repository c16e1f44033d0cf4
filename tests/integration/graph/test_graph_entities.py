"""Entities: Russian-aware resolution, spotting in text, ABOUT links and relations."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from graph.errors import EntityNotFound, FactNotFound, InvalidInput
from graph.models import Entity, EntityType, Fact, Relation, RelationType, new_id
from graph.store import GraphStore

pytestmark = pytest.mark.neo4j

MakeFact = Callable[..., Fact]


async def test_inflected_forms_resolve_to_one_person(graph: GraphStore, user_id: str) -> None:
    igor = await graph.resolve_entity(user_id, "Игорь", EntityType.PERSON)
    assert igor is not None and igor.name == "Игорь" and igor.type is EntityType.PERSON
    for form in ("Игорь", "игорь", "Игорем", "с Игорем", "Игоря", "ИГОРЮ", "у Игоря"):
        assert await graph.resolve_entity(user_id, form, create=False) == igor, form
        assert await graph.resolve_entity(user_id, form, EntityType.PERSON) == igor, form
    assert len(await graph.list_entities(user_id)) == 1


async def test_places_and_english_names(graph: GraphStore, user_id: str) -> None:
    moscow = await graph.resolve_entity(user_id, "Москва", "place")
    assert await graph.resolve_entity(user_id, "в Москве", create=False) == moscow
    assert await graph.resolve_entity(user_id, "Москвой", create=False) == moscow
    meetings = await graph.resolve_entity(user_id, "Weekly meetings", "event")
    assert await graph.resolve_entity(user_id, "weekly meeting", create=False) == meetings
    assert await graph.resolve_entity(user_id, "Пётр", create=False) is None


async def test_alias_and_yo_folding(graph: GraphStore, user_id: str) -> None:
    petr = await graph.resolve_entity(user_id, "Пётр Иванов", "person", aliases=("Петя",))
    assert petr is not None
    assert await graph.resolve_entity(user_id, "Петр Иванов", create=False) == petr
    assert await graph.resolve_entity(user_id, "с Петей", create=False) == petr
    more = await graph.add_aliases(user_id, petr.id, ["Petya"])
    assert more.aliases == ("Петя", "Petya")
    assert await graph.resolve_entity(user_id, "petya", create=False) == more


async def test_new_entity_name_drops_leading_preposition(graph: GraphStore, user_id: str) -> None:
    created = await graph.resolve_entity(user_id, "с Мариной", "person")
    assert created is not None and created.name == "Мариной"
    assert await graph.resolve_entity(user_id, "Марина", create=False) == created


async def test_nameless_entity_is_refused(graph: GraphStore, user_id: str) -> None:
    with pytest.raises(InvalidInput, match="no letters"):
        await graph.resolve_entity(user_id, " !!! ")


async def test_entities_in_text(graph: GraphStore, user_id: str) -> None:
    igor = await graph.resolve_entity(user_id, "Игорь", "person")
    wave = await graph.resolve_entity(user_id, "Wave", "project")
    bank = await graph.resolve_entity(user_id, "Банк России", "organisation")
    await graph.resolve_entity(user_id, "Берлин", "place")
    found = await graph.entities_in_text(
        user_id, "Вчера с Игорем обсуждали wave и письмо из Банка России."
    )
    assert found == [igor, wave, bank]
    assert await graph.entities_in_text(user_id, "просто слова") == []
    assert await graph.entities_in_text(user_id, "") == []


async def test_link_about_all_or_nothing(graph: GraphStore, make_fact: MakeFact,
                                         user_id: str) -> None:
    fact = await graph.create_fact(make_fact("Игорь работает в Яндексе"))
    igor = await graph.resolve_entity(user_id, "Игорь", "person")
    yandex = await graph.resolve_entity(user_id, "Яндекс", "organisation")
    assert igor and yandex
    with pytest.raises(EntityNotFound):
        await graph.link_about(user_id, fact.id, [igor.id, "e-missing"])
    assert await graph.about(user_id, fact.id) == []
    assert await graph.link_about(user_id, fact.id, [igor.id, yandex.id, igor.id]) == 2
    assert await graph.link_about(user_id, fact.id, [igor.id]) == 1  # idempotent
    assert {e.id for e in await graph.about(user_id, fact.id)} == {igor.id, yandex.id}
    with pytest.raises(FactNotFound):
        await graph.link_about(user_id, "f-missing", [igor.id])


async def test_relate_merges_and_keeps_provenance(graph: GraphStore, user_id: str) -> None:
    igor = await graph.resolve_entity(user_id, "Игорь", "person")
    yandex = await graph.resolve_entity(user_id, "Яндекс", "organisation")
    assert igor and yandex
    first = await graph.relate(user_id, igor.id, yandex.id, RelationType.WORKS_AT, ["f-1"])
    assert first.type is RelationType.WORKS_AT and first.provenance == ("f-1",)
    again = await graph.relate(user_id, igor.id, yandex.id, "WORKS_AT", "f-2")
    assert again.provenance == ("f-1", "f-2")
    rels = await graph.relations(user_id, yandex.id)
    assert len(rels) == 1 and rels[0].source_id == igor.id and rels[0].target_id == yandex.id
    weight = await graph._read(
        "MATCH (:Entity {id: $a})-[r:WORKS_AT]->(:Entity {id: $b}) RETURN r.weight AS w",
        a=igor.id, b=yandex.id,
    )
    assert weight[0]["w"] == 2


async def test_relate_refusals(graph: GraphStore, user_id: str) -> None:
    igor = await graph.resolve_entity(user_id, "Игорь", "person")
    assert igor
    with pytest.raises(InvalidInput, match="unknown relation type"):
        await graph.relate(user_id, igor.id, igor.id, "KNOWS]->() DETACH DELETE n //")
    with pytest.raises(InvalidInput, match="itself"):
        await graph.relate(user_id, igor.id, igor.id, RelationType.KNOWS)
    with pytest.raises(EntityNotFound):
        await graph.relate(user_id, igor.id, "e-missing", RelationType.KNOWS)
    with pytest.raises(EntityNotFound):
        await graph.relate(user_id, "e-missing", igor.id, RelationType.KNOWS)


async def test_batch_entities_and_relations(graph: GraphStore, user_id: str) -> None:
    existing = await graph.resolve_entity(user_id, "Игорь", "person")
    batch = [
        Entity(new_id("e"), user_id, "Игорем", EntityType.PERSON),  # same person, other form
        Entity(new_id("e"), user_id, "Казань", EntityType.PLACE, aliases=("Kazan",)),
        Entity(new_id("e"), user_id, "Wave", EntityType.PROJECT),
    ]
    stored = await graph.create_entities(batch)
    assert stored[0] == existing
    assert stored[1:] == batch[1:]
    assert await graph.resolve_entity(user_id, "kazan", create=False) == batch[1]
    assert existing
    count = await graph.relate_many([
        Relation(user_id, existing.id, batch[1].id, RelationType.LIVES_IN, ("f-1",)),
        Relation(user_id, existing.id, batch[1].id, RelationType.LIVES_IN, ("f-2",)),
        Relation(user_id, existing.id, batch[2].id, RelationType.WORKS_ON),
        Relation(user_id, existing.id, "e-missing", RelationType.KNOWS),
        Relation(user_id, existing.id, existing.id, RelationType.KNOWS),
    ])
    assert count == 3
    rels = {(r.type, r.target_id): r for r in await graph.relations(user_id, existing.id)}
    assert set(rels) == {(RelationType.LIVES_IN, batch[1].id), (RelationType.WORKS_ON, batch[2].id)}
    assert rels[(RelationType.LIVES_IN, batch[1].id)].provenance == ("f-1", "f-2")
    assert await graph.create_entities([]) == []


async def test_names_of_function_words_stay_distinct(graph: GraphStore, user_id: str) -> None:
    me = await graph.resolve_entity(user_id, "Я", "person")
    we = await graph.resolve_entity(user_id, "Мы", "person")
    assert me and we and me.id != we.id
    assert await graph.resolve_entity(user_id, "я", create=False) == me


async def test_concurrent_resolution_creates_one_entity(graph: GraphStore, user_id: str) -> None:
    import asyncio

    forms = ["Игорь", "Игорем", "с Игорем", "Игоря", "Игорю", "Игорь"]
    found = await asyncio.gather(*(graph.resolve_entity(user_id, f, "person") for f in forms))
    assert len({e.id for e in found if e}) == 1
    assert len(await graph.list_entities(user_id)) == 1
