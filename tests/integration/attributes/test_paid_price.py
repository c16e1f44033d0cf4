"""A new lesson price said as a payment ("перевела Лауре 1800 за сегодняшний испанский")
replaces the record of the old price against the real Neo4j (``write.paid_price``), so "сколько
стоит испанский?" no longer finds 1500 in force; someone else's monthly sum leaves the rent."""

from __future__ import annotations

import pytest

from graph.models import Status
from graph.store import GraphStore
from wave_agent.write import unread_old
from wave_agent.write.result import WriteStatus
from wave_agent.write.writer import Writer

pytestmark = pytest.mark.neo4j


async def test_a_payment_for_the_lesson_replaces_its_old_price(
    writer: Writer, graph: GraphStore, user_id: str
) -> None:
    if writer.archive.embedder.model_name != unread_old.READS:
        pytest.skip("the statement head reads multilingual-e5-small passage vectors only")
    old = await writer.remember(user_id, "а по субботам утром испанский с Лаурой по зуму, 1500 за урок")
    rent = await writer.remember(user_id, "аренда тут 38 тысяч, дороже, чем в Нижнем")
    new = await writer.remember(user_id, "перевела Лауре 1800 за сегодняшний испанский")
    assert old.fact is not None and rent.fact is not None and new.fact is not None
    assert new.status is WriteStatus.SUPERSEDED, new.message
    assert new.replaced is not None and new.replaced.id == old.fact.id
    alimony = await writer.remember(
        user_id, "Олег сказал, что алименты будет присылать как раньше, 15 тысяч в месяц")
    assert alimony.fact is not None
    active = {f.id for f in await graph.list_facts(user_id, statuses=[Status.ACTIVE])}
    assert old.fact.id not in active
    assert {rent.fact.id, new.fact.id, alimony.fact.id} <= active
