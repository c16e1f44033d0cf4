"""A phone said in passing by its make ("Мой Xiaomi 12 совсем тормозит") is held as the person's
device (``unread_old.with_device``), so the new phone said with the old one's end replaces it,
against the real Neo4j; a record about something else stays."""

from __future__ import annotations

import pytest

from graph.models import Status
from graph.store import GraphStore
from wave_agent.write import unread_old
from wave_agent.write.writer import Writer

pytestmark = pytest.mark.neo4j


async def test_a_new_phone_replaces_the_old_one_said_in_passing(
    writer: Writer, graph: GraphStore, user_id: str
) -> None:
    if writer.archive.embedder.model_name != unread_old.READS:
        pytest.skip("the head reads multilingual-e5-small passage vectors only")
    old = await writer.remember(user_id, "Мой Xiaomi 12 совсем тормозит, памяти уже ни на что не хватает")
    shoes = await writer.remember(user_id, "Сегодня купила новые кроссовки")
    new = await writer.remember(user_id, "Xiaomi всё, разбила окончательно. Купила Pixel 8")
    assert old.fact is not None and shoes.fact is not None and new.fact is not None
    assert new.replaced is not None and new.replaced.id == old.fact.id, new.message
    active = [f.text for f in await graph.list_facts(user_id, statuses=[Status.ACTIVE])]
    assert sorted(active) == sorted([shoes.fact.text, new.fact.text])
