"""An illness said to be over is no one's (round forty, issue 29's has_condition), against real
Neo4j: "гастрит отпустил" records no one holding gastritis, and "ангина прошла" after "у меня
ангина" does not give the held angina a second record that says it is held. The attribute
reader still reads the link (the condition removed), so only the graph write leaves it out."""

from __future__ import annotations

import pytest

from graph.models import RelationType, Veracity
from graph.store import GraphStore
from wave_agent.write.writer import MemoryItem, Writer

pytestmark = pytest.mark.neo4j


async def _conditions(graph: GraphStore, user_id: str) -> list[tuple[str, tuple[str, ...]]]:
    entities = {e.id: e for e in await graph.list_entities(user_id)}
    out = []
    for entity in entities.values():
        for rel in await graph.relations(user_id, entity.id):
            if rel.type is RelationType.HAS_CONDITION and rel.source_id == entity.id:
                out.append((entities[rel.target_id].name, rel.provenance))
    return out


async def test_an_illness_said_over_is_recorded_as_no_ones(
    writer: Writer, graph: GraphStore, user_id: str
) -> None:
    await writer.remember_many(user_id, [MemoryItem("Гастрит наконец отпустил, можно снова кофе.",
                                                    veracity=Veracity.STATED)])
    assert await _conditions(graph, user_id) == []


async def test_an_illness_held_keeps_only_the_record_that_says_so(
    writer: Writer, graph: GraphStore, user_id: str
) -> None:
    held = await writer.remember(user_id, "У меня ангина, неделю лежу дома.")
    over = await writer.remember(user_id, "Ангина прошла, снова бегаю по утрам.")
    assert held.fact is not None and over.fact is not None
    conditions = await _conditions(graph, user_id)
    assert [name for name, _ in conditions] == ["ангина"], conditions
    assert conditions[0][1] == (held.fact.id,)
