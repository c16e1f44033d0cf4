"""A pet first named with no pet noun ("Мурка заболела") is read as a person; when a later
record says "кошка Мурка", the entity becomes the pet, in an import and one record at a time,
against real Neo4j."""

from __future__ import annotations

import pytest

from graph.models import EntityType, Veracity
from graph.store import GraphStore
from wave_agent.write.writer import MemoryItem, Writer

pytestmark = pytest.mark.neo4j

MURKA = ["Мурка заболела. В ветклинике сказали, что у неё почечная недостаточность.",
         "У меня кошка Мурка, ей семь лет."]


async def _types(graph: GraphStore, user_id: str, name: str) -> list[EntityType]:
    return [e.type for e in await graph.list_entities(user_id) if e.name == name]


async def test_a_pet_first_read_as_a_person_becomes_the_pet_in_an_import(
    writer: Writer, graph: GraphStore, user_id: str
) -> None:
    await writer.remember_many(user_id, [MemoryItem(t, veracity=Veracity.STATED) for t in MURKA])
    assert await _types(graph, user_id, "Мурка") == [EntityType.PET]


async def test_a_pet_first_read_as_a_person_becomes_the_pet_record_by_record(
    writer: Writer, graph: GraphStore, user_id: str
) -> None:
    for text in MURKA:
        await writer.remember(user_id, text)
    assert await _types(graph, user_id, "Мурка") == [EntityType.PET]
    first = await writer.remember(user_id, "Мурка опять не ест корм.")
    assert first.fact is not None
    assert [e.type for e in await graph.about(user_id, first.fact.id)
            if e.name == "Мурка"] in ([EntityType.PET], [])

