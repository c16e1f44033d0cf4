"""Schema creation is idempotent and creates what the queries rely on."""

from __future__ import annotations

import pytest

from graph.schema import FACT_TEXT_INDEXES
from graph.store import GraphStore

pytestmark = pytest.mark.neo4j


async def test_ensure_schema_twice_is_harmless(graph: GraphStore) -> None:
    await graph.ensure_schema()
    await graph.ensure_schema()
    records = await graph._read("SHOW INDEXES YIELD name, type, options RETURN name, type, options")
    by_name = {r["name"]: r for r in records}
    for name, analyzer in FACT_TEXT_INDEXES.items():
        assert by_name[name]["type"] == "FULLTEXT"
        assert by_name[name]["options"]["indexConfig"]["fulltext.analyzer"] == analyzer
    constraints = await graph._read("SHOW CONSTRAINTS YIELD name RETURN collect(name) AS names")
    assert {"fact_id", "entity_id", "proposal_id", "conflict_id"} <= set(constraints[0]["names"])


async def test_ping(graph: GraphStore) -> None:
    assert await graph.ping() is True


async def test_ensure_schema_gives_older_entities_lookup_keys(graph: GraphStore,
                                                               user_id: str) -> None:
    from graph.models import Entity, EntityType, new_id, utcnow
    from graph.records import entity_props

    old = Entity(new_id("e"), user_id, "Игорь", EntityType.PERSON, created_at=utcnow())
    await graph._write("CREATE (e:Entity) SET e = $props", props=entity_props(old))
    assert await graph.entities_in_text(user_id, "с Игорем") == []  # no keys yet
    await graph.ensure_schema()
    assert await graph.entities_in_text(user_id, "с Игорем") == [old]
    assert await graph.resolve_entity(user_id, "Игорем", create=False) == old
