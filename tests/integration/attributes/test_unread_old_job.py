"""A new job replaces the record of the old one said in words the reader does not read as a job
(the learned head finds it, ``write.unread_old``), against the real Neo4j; a record about
something else stays."""

from __future__ import annotations

import pytest

from graph.models import Status
from graph.store import GraphStore
from wave_agent.write import unread_old
from wave_agent.write.result import WriteStatus
from wave_agent.write.writer import Writer

pytestmark = pytest.mark.neo4j


async def test_a_new_job_replaces_the_old_job_said_in_other_words(
    writer: Writer, graph: GraphStore, user_id: str
) -> None:
    if writer.archive.embedder.model_name != unread_old.READS:
        pytest.skip("the head reads multilingual-e5-small passage vectors only")
    old = await writer.remember(user_id, "я уже восьмой год как веду бухгалтерию в «Ромашке», главбух")
    shoes = await writer.remember(user_id, "Сегодня купила новые кроссовки")
    new = await writer.remember(user_id, "Со вчерашнего дня я финансовый директор")
    assert old.fact is not None and shoes.fact is not None and new.fact is not None
    assert new.status is WriteStatus.SUPERSEDED, new.message
    assert new.replaced is not None and new.replaced.id == old.fact.id
    active = [f.text for f in await graph.list_facts(user_id, statuses=[Status.ACTIVE])]
    assert sorted(active) == sorted([shoes.fact.text, new.fact.text])
