"""The person's world built without a model, on every write path, against real Neo4j: the
entities ten everyday Russian statements name, their typed relations with the records they came
from, a move that ends the old "lives in" (kept as history), one entity across inflection,
diminutives and roles, and erasure reaching a relation through its records."""

from __future__ import annotations

import pytest

from graph.models import EntityType, RelationType, Veracity
from graph.store import GraphStore
from wave_agent.write.entities import SELF_NAME, link_type_of
from wave_agent.write.writer import MemoryItem, Writer

pytestmark = pytest.mark.neo4j

MARINA = [
    "Меня зовут Марина, я живу в Самаре.",
    "У меня кот Барсик.",
    "Работаю бухгалтером в компании «Волга-Сервис».",
    "Моя дочь Соня ходит во второй класс.",
    "Муж Олег работает водителем.",
]


async def _world(graph: GraphStore, user_id: str) -> tuple[dict[str, object], set[tuple[str, str, str]]]:
    entities = {e.id: e for e in await graph.list_entities(user_id)}
    relations: set[tuple[str, str, str]] = set()
    for entity in entities.values():
        for rel in await graph.relations(user_id, entity.id):
            if rel.ended_at is None:
                relations.add((entities[rel.source_id].name, link_type_of(rel),
                               entities[rel.target_id].name))
    return {e.name: e for e in entities.values()}, relations


async def test_an_import_of_everyday_statements_builds_people_places_pets_and_relations(
    writer: Writer, graph: GraphStore, user_id: str
) -> None:
    await writer.remember_many(user_id, [MemoryItem(t, veracity=Veracity.STATED) for t in MARINA])
    names, relations = await _world(graph, user_id)
    assert {"Самара", "Барсик", "Волга-Сервис", "Соня", "Олег"} <= set(names), names
    assert "Марина" not in names  # the speaker's own name: the person themself, not a third
    assert names["Самара"].type is EntityType.PLACE  # type: ignore[attr-defined]
    assert names["Барсик"].type is EntityType.PET  # type: ignore[attr-defined]
    assert names["Волга-Сервис"].type is EntityType.ORGANISATION  # type: ignore[attr-defined]
    assert {(SELF_NAME, "lives_in", "Самара"), ("Барсик", "pet_of", SELF_NAME),
            (SELF_NAME, "works_at", "Волга-Сервис"), (SELF_NAME, "works_as", "бухгалтер"),
            (SELF_NAME, "kin:daughter", "Соня"), (SELF_NAME, "kin:husband", "Олег"),
            ("Олег", "works_as", "водитель")} <= relations, relations


async def test_an_emoji_read_as_a_name_does_not_refuse_the_record(
    writer: Writer, graph: GraphStore, user_id: str
) -> None:
    # the reader once read "😄" after a pet's name as a second name, and the writer refused the
    # whole import ("entity name '😄' has no letters or digits")
    await writer.remember_many(user_id, [MemoryItem("Завели собаку по кличке Рекс 😄",
                                                    veracity=Veracity.STATED),
                                         MemoryItem("У меня кот Барсик.", veracity=Veracity.STATED)])
    names, _ = await _world(graph, user_id)
    assert "Барсик" in names and "Рекс" in names, names
    assert not [n for n in names if not any(ch.isalnum() for ch in n)], names


async def test_a_relation_keeps_the_record_it_came_from_and_erasure_reaches_it(
    writer: Writer, graph: GraphStore, user_id: str
) -> None:
    written = await writer.remember(user_id, "Работаю бухгалтером в компании «Волга-Сервис».")
    assert written.fact is not None
    org = await graph.resolve_entity(user_id, "Волга-Сервис", create=False)
    assert org is not None
    [works_at] = [r for r in await graph.relations(user_id, org.id)
                  if r.type is RelationType.WORKS_AT]
    assert works_at.provenance == (written.fact.id,)
    await graph.erase_record_traces(user_id, written.fact.id)
    assert not [r for r in await graph.relations(user_id, org.id)
                if r.type is RelationType.WORKS_AT]


async def test_moving_ends_the_old_lives_in_which_stays_as_history(
    writer: Writer, graph: GraphStore, user_id: str
) -> None:
    first = await writer.remember(user_id, "Я живу в Самаре.")
    moved = await writer.remember(user_id, "В мае переехала в Казань.")
    assert first.fact is not None and moved.fact is not None
    me = await graph.resolve_entity(user_id, SELF_NAME, EntityType.PERSON, create=False)
    assert me is not None
    lives = {r.target_id: r for r in await graph.relations(user_id, me.id)
             if r.type is RelationType.LIVES_IN}
    places = {e.id: e.name for e in await graph.list_entities(user_id)}
    by_name = {places[t]: r for t, r in lives.items()}
    assert set(by_name) == {"Самара", "Казань"}
    assert by_name["Казань"].ended_at is None
    assert by_name["Самара"].ended_at is not None
    assert by_name["Самара"].ended_by == moved.fact.id


async def test_one_entity_across_inflection_diminutives_and_roles(
    writer: Writer, graph: GraphStore, user_id: str
) -> None:
    await writer.remember(user_id, "Мой сын Игорь ходит в третий класс.")
    await writer.remember(user_id, "Ходили с Игорьком на хоккей.")
    await writer.remember(user_id, "Купила Игорю новый велосипед.")
    await writer.remember(user_id, "Муж Олег работает водителем.")
    await writer.remember(user_id, "Муж работает в «Волга-Транс».")
    people = [e for e in await graph.list_entities(user_id)
              if e.type is EntityType.PERSON and e.name != SELF_NAME]
    assert sorted(p.name for p in people) == ["Игорь", "Олег"], people
    igor = next(p for p in people if p.name == "Игорь")
    assert "Игорёк" in igor.aliases
    oleg = next(p for p in people if p.name == "Олег")
    assert any(r.type is RelationType.WORKS_AT for r in await graph.relations(user_id, oleg.id))


async def test_maintenance_backfill_reads_records_written_before_the_world_graph(
    writer: Writer, graph: GraphStore, user_id: str
) -> None:
    from datetime import UTC, datetime, timedelta

    from graph.models import Fact, FactType, Status, Tier, new_id

    start = datetime(2026, 1, 1, tzinfo=UTC)
    older = [Fact(new_id("f"), user_id, text, FactType.EVENT, Tier.OBSERVATION, Status.ACTIVE,
                  Veracity.STATED, 0.5, start + timedelta(days=i), start + timedelta(days=i))
             for i, text in enumerate(["Я живу в Самаре.", "Моя дочь Соня ходит в школу.",
                                       "Переехала в Казань."])]
    await graph.create_facts(older)  # as the writer stored them before entities were read
    assert await graph.list_entities(user_id) == []
    assert await writer.read_world(user_id) == (3, 3, 3)
    names, relations = await _world(graph, user_id)
    assert {"Самара", "Соня", "Казань"} <= set(names)
    assert (SELF_NAME, "lives_in", "Казань") in relations
    assert (SELF_NAME, "lives_in", "Самара") not in relations  # ended by the later move
    assert await writer.read_world(user_id) == (0, 0, 0)  # read once


LONG = [
    "Моя сестра Дина живёт в Твери и работает в «Ростелекоме», а сын Миша в этом году пошёл "
    "в первый класс и занимается футболом.",
    "Мы с мужем Андреем живём в Рязани, свекровь Тамара Ивановна живёт одна в Липецке, у неё "
    "гипертония.",
]


async def test_a_long_statement_gives_every_clause_its_people_places_and_relations(
    writer: Writer, graph: GraphStore, user_id: str
) -> None:
    """Several clauses and people in one statement: each clause's verb is about its own
    subject (Дина works at Ростелеком, Миша plays football), a clause without one carries the
    one before, "мы с мужем" lives where the speaker lives, and names come nominative."""
    await writer.remember_many(user_id, [MemoryItem(t, veracity=Veracity.STATED) for t in LONG])
    names, relations = await _world(graph, user_id)
    assert {"Дина", "Тверь", "Ростелеком", "Миша", "Андрей", "Рязань", "Тамара Ивановна",
            "Липецк"} <= set(names), names
    assert "Дин" not in names  # "сестра Дина" is Дина, not the genitive of Дин
    assert names["Ростелеком"].type is EntityType.ORGANISATION  # type: ignore[attr-defined]
    assert names["Тверь"].type is EntityType.PLACE  # type: ignore[attr-defined]
    assert {(SELF_NAME, "kin:sister", "Дина"), ("Дина", "lives_in", "Тверь"),
            ("Дина", "works_at", "Ростелеком"), (SELF_NAME, "kin:son", "Миша"),
            ("Миша", "does", "футбол"), (SELF_NAME, "kin:husband", "Андрей"),
            (SELF_NAME, "lives_in", "Рязань"), ("Андрей", "lives_in", "Рязань"),
            (SELF_NAME, "kin:mother_in_law", "Тамара Ивановна"),
            ("Тамара Ивановна", "lives_in", "Липецк"),
            ("Тамара Ивановна", "has_condition", "гипертония")} <= relations, relations
    # nobody does what another clause's subject does
    assert ("Дина", "does", "футбол") not in relations
    assert (SELF_NAME, "lives_in", "Липецк") not in relations


async def test_a_move_told_in_a_long_statement_ends_the_old_lives_in(
    writer: Writer, graph: GraphStore, user_id: str
) -> None:
    first = await writer.remember(user_id, LONG[0])
    moved = await writer.remember(
        user_id, "Сестра Дина в мае переехала из Твери в Москву, а Миша остался с нами.")
    assert first.fact is not None and moved.fact is not None
    dina = await graph.resolve_entity(user_id, "Дина", EntityType.PERSON, create=False)
    assert dina is not None
    places = {e.id: e.name for e in await graph.list_entities(user_id)}
    lives = {places[r.target_id]: r for r in await graph.relations(user_id, dina.id)
             if r.type is RelationType.LIVES_IN and r.source_id == dina.id}
    assert set(lives) == {"Тверь", "Москва"}, lives
    assert lives["Москва"].ended_at is None
    assert lives["Тверь"].ended_at is not None and lives["Тверь"].ended_by == moved.fact.id


async def test_a_role_word_naming_someone_else_is_not_the_speakers_relative(
    writer: Writer, graph: GraphStore, user_id: str
) -> None:
    """"муж" is Андрей once said; "сестра Наташа с мужем Сергеем" names Наташа's husband, so
    that record is about Наташа and Сергей, not about Андрей."""
    await writer.remember(user_id, LONG[1])
    other = await writer.remember(user_id, "Моя сестра Наташа с мужем Сергеем живут в Москве.")
    assert other.fact is not None
    about = {e.name for e in await graph.about(user_id, other.fact.id)}
    assert {"Наташа", "Сергей", "Москва"} <= about, about
    assert "Андрей" not in about
    _names, relations = await _world(graph, user_id)
    assert ("Наташа", "kin:husband", "Сергей") in relations, relations
    assert (SELF_NAME, "kin:husband", "Сергей") not in relations


async def test_a_short_name_and_the_full_one_are_one_person_and_piter_is_petersburg(
    writer: Writer, graph: GraphStore, user_id: str
) -> None:
    # pymorphy derives no Екатерина from Катя; the names dictionary does
    await writer.remember_many(user_id, [
        MemoryItem(t, veracity=Veracity.STATED) for t in (
            "Сестра моя Екатерина живёт в Санкт-Петербурге.",
            "Катя звонила вчера, у них в Питере снег.")])
    names, _ = await _world(graph, user_id)
    people = [n for n, e in names.items() if e.type is EntityType.PERSON  # type: ignore[attr-defined]
              and n != SELF_NAME]
    places = [n for n, e in names.items() if e.type is EntityType.PLACE]  # type: ignore[attr-defined]
    assert len(people) == 1 and len(places) == 1, names


async def test_a_relative_said_only_by_the_role_is_one_person_named_later(
    writer: Writer, graph: GraphStore, user_id: str
) -> None:
    """"Мама живёт в Туле" names no one, yet says where the mother lives: she is an entity
    of her own ("мама"), the same one the next record's "у мамы" means, and the one a later
    record names (Галина joins her as a name, not as a second mother)."""
    await writer.remember(user_id, "Мама живёт в Туле.")
    await writer.remember(user_id, "У мамы диабет.")
    await writer.remember(user_id, "Мою маму зовут Галина.")
    people = [e for e in await graph.list_entities(user_id)
              if e.type is EntityType.PERSON and e.name != SELF_NAME]
    assert len(people) == 1, people
    mother = people[0]
    assert mother.name == "мама" and "Галина" in mother.aliases, mother
    _names, relations = await _world(graph, user_id)
    assert {(SELF_NAME, "kin:mother", "мама"), ("мама", "lives_in", "Тула"),
            ("мама", "has_condition", "диабет")} <= relations, relations


async def test_a_second_import_finds_the_people_and_places_the_first_one_made(
    writer: Writer, graph: GraphStore, user_id: str
) -> None:
    """An import resolves its names from one read of the person's entity keys, not one query a
    name: the entities an earlier import made are found there, in another case, by a
    diminutive or by the full form of a short name, and are not made twice."""
    await writer.remember_many(user_id, [MemoryItem(t, veracity=Veracity.STATED) for t in (
        "Мой сын Игорь ходит в третий класс.",
        "Сестра моя Екатерина живёт в Санкт-Петербурге.")])
    await writer.remember_many(user_id, [MemoryItem(t, veracity=Veracity.STATED) for t in (
        "Ходили с Игорьком на хоккей.",
        "Купила Игорю новый велосипед.",
        "Катя звонила вчера, у них в Санкт-Петербурге снег.")])
    names, _ = await _world(graph, user_id)
    people = sorted(n for n, e in names.items()
                    if e.type is EntityType.PERSON and n != SELF_NAME)  # type: ignore[attr-defined]
    places = [n for n, e in names.items() if e.type is EntityType.PLACE]  # type: ignore[attr-defined]
    assert people == ["Екатерина", "Игорь"], names
    assert len(places) == 1, places
    assert "Игорёк" in names["Игорь"].aliases  # type: ignore[attr-defined]


async def test_polish_typed_without_its_letters_names_the_same_town_and_wife(
    writer: Writer, graph: GraphStore, user_id: str
) -> None:
    # one message typed on a phone without "ł ż", a later one with them: one town, one wife
    await writer.remember_many(user_id, [
        MemoryItem("Zona Magda jest farmaceutka. Mieszkam we Wroclawiu", veracity=Veracity.STATED),
        MemoryItem("Od roku mieszkam we Wrocławiu, na Krzykach", veracity=Veracity.STATED)])
    names, relations = await _world(graph, user_id)
    assert [n for n in names if n.startswith("Wroc")] == ["Wrocław"], names
    assert {(SELF_NAME, "lives_in", "Wrocław"), (SELF_NAME, "kin:wife", "Magda")} <= relations
