"""A question about the past searches the records that were replaced, not only those in force:
the preset the question picks carries the statuses it searches, through every voice."""

from __future__ import annotations

from datetime import timedelta

import pytest

from graph.models import Status, Veracity, utcnow
from graph.store import GraphStore
from wave_agent.recall import DEFAULT, HISTORY, Recall
from wave_agent.write.writer import MemoryItem, Writer

pytestmark = pytest.mark.neo4j


async def rent_changed(writer: Writer, user_id: str) -> tuple[str, str]:
    """The rent was 30 thousand in winter; in spring the person said it is 35 now and approved
    the change; a few unrelated records on other days. The old and the new record's ids."""
    now = utcnow()
    told = [("Аренда стоила 30 тысяч", 120), ("Коммуналка обходится в 6 тысяч в месяц", 100),
            ("Купили новый диван в гостиную", 80), ("Хозяйку квартиры зовут Марина Петровна", 60),
            ("Соседи сверху затеяли ремонт", 40), ("Теперь аренда стоит 35 тысяч", 10)]
    results = await writer.remember_many(user_id, [
        MemoryItem(text, veracity=Veracity.STATED, created_at=now - timedelta(days=days))
        for text, days in told])
    old, proposal = results[0].fact, results[-1].proposal
    assert old is not None
    assert proposal is not None, "a new price of the same thing is proposed as a change"
    new = (await writer.approve(user_id, proposal.id)).fact
    assert new is not None
    return old.id, new.id


async def test_a_question_about_the_past_finds_the_replaced_record(
    writer: Writer, graph: GraphStore, recall: Recall, user_id: str
) -> None:
    old, new = await rent_changed(writer, user_id)
    stored = await graph.get_fact(user_id, old)
    assert stored is not None and stored.status is Status.SUPERSEDED

    found = await recall.search(user_id, "сколько стоила аренда раньше?", k=5)
    assert found.preset is HISTORY and Status.SUPERSEDED in found.statuses
    assert not found.degraded, found.degraded.reasons
    top = [h.fact.id for h in found[:3]]
    assert old in top, [(h.fact.text, h.fact.status, h.ranks) for h in found]
    by_id = {h.fact.id: h for h in found}
    assert new in by_id  # the price in force is part of the answer too
    # every voice that filters by status searched the replaced record too
    assert by_id[old].ranks["lexical"] and by_id[old].ranks["semantic"], by_id[old].ranks


async def test_a_question_about_now_puts_the_current_record_first(
    writer: Writer, recall: Recall, user_id: str
) -> None:
    old, new = await rent_changed(writer, user_id)
    current = await recall.search(user_id, "сколько стоит аренда?", k=5)
    assert current.preset is DEFAULT and current.statuses == (Status.ACTIVE,)
    assert current[0].fact.id == new, [(h.fact.text, h.ranks) for h in current]
    assert old not in {h.fact.id for h in current}
    # asked with history (the memory page does): the old record is there, the current first
    both = await recall.search(user_id, "сколько стоит аренда?", k=5, history=True)
    assert both[0].fact.id == new, [(h.fact.text, h.fact.status) for h in both]
    assert old in {h.fact.id for h in both}



async def test_a_replaced_record_answers_before_the_one_that_replaced_it(
    writer: Writer, graph: GraphStore, recall: Recall, user_id: str
) -> None:
    """"What was it before?" is answered by the replaced record even when the record that
    replaced it says more of the question's words: asked for one record, the person gets the
    old coffee shop (regression: round twenty's history questions found the replaced record below
    the fifth, the record in force above it)."""
    now = utcnow()
    told = [("Кофе беру в «Скуратове»", 120), ("Купили новый диван в гостиную", 80)]
    results = await writer.remember_many(user_id, [
        MemoryItem(text, veracity=Veracity.STATED, created_at=now - timedelta(days=days))
        for text, days in told])
    old = results[0].fact
    assert old is not None
    new = (await writer.supersede(
        user_id, old.id, "Теперь кофе беру в кофейне у дома, где раньше брала, закрылось")).fact
    assert new is not None
    stored = await graph.get_fact(user_id, new.id)
    assert stored is not None and stored.supersedes == old.id

    question = "где я раньше брала кофе?"
    first = await recall.search(user_id, question, k=1)
    assert [h.fact.id for h in first] == [old.id], [h.fact.text for h in first]
    ids = [h.fact.id for h in await recall.search(user_id, question, k=5)]
    assert new.id in ids and ids.index(old.id) < ids.index(new.id)
