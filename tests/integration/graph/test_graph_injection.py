"""Hostile text in facts, queries and entity names is data, never Cypher or Lucene."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from graph.entities import MAX_GRAM, stem_key
from graph.models import Fact
from graph.store import GraphStore

pytestmark = pytest.mark.neo4j

MakeFact = Callable[..., Fact]

HOSTILE = [
    '"}) DETACH DELETE n //',
    "'}) MATCH (n) DETACH DELETE n RETURN 1 //",
    "x` DETACH DELETE n //",
    "$user_id } ) RETURN n",
    "Robert'); DROP TABLE facts;--",
    'AND OR ~ * " \\ : ^ [ ] { } ( ) ! ? / + -',
]


@pytest.mark.parametrize("payload", HOSTILE)
async def test_fact_text_is_stored_verbatim(graph: GraphStore, make_fact: MakeFact,
                                            user_id: str, payload: str) -> None:
    before = await graph._read("MATCH (n) RETURN count(n) AS c")
    fact = await graph.create_fact(make_fact(f"заметка {payload}"))
    assert (await graph.get_fact(user_id, fact.id)) == fact
    updated = await graph.update_fact(user_id, fact.id, text=payload + " заметка")
    assert updated.text == payload + " заметка"
    hits = await graph.fulltext_search(user_id, payload + " заметка")
    assert [h.fact.id for h in hits] == [fact.id]
    after = await graph._read("MATCH (n) RETURN count(n) AS c")
    assert after[0]["c"] >= before[0]["c"] + 1  # nothing was deleted


@pytest.mark.parametrize("payload", HOSTILE)
async def test_entity_names_are_data(graph: GraphStore, user_id: str, payload: str) -> None:
    name = f"Игорь {payload}"
    entity = await graph.resolve_entity(user_id, name, "person")
    assert entity is not None and entity.name == name
    again = await graph.resolve_entity(user_id, name, create=False)
    assert again == entity
    spotted = await graph.entities_in_text(user_id, f"вчера {name} звонил")
    if len(stem_key(name).split()) <= MAX_GRAM:  # longer names are not spotted in text
        assert entity in spotted
    await graph.add_aliases(user_id, entity.id, [payload + "alias"])
    assert (await graph.get_entity(user_id, entity.id)) is not None
