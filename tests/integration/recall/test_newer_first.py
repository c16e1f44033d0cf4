"""A value written twice and never superseded: a question about now puts the newer record
first, a question about the past leaves the ranker's order (recall.newer)."""

from __future__ import annotations

from dataclasses import replace
from datetime import timedelta

import pytest

from archive.embedder import Embedder
from graph.models import Veracity, utcnow
from graph.store import GraphStore
from wave_agent.recall import Recall, RecallConfig
from wave_agent.write.writer import MemoryItem, Writer

pytestmark = pytest.mark.neo4j

# memory-ru-13's savings account: the first record matches the question's words better, the
# second says the rate went down (the writer keeps both: it does not know both set one rate)
TOLD = [("отложила 15 тыс на накопительный в Т-банке, там сейчас 16% годовых", 150),
        ("Тиме нашли репетитора по английскому — Алина, по зуму, пн и ср в 18:00.", 140),
        ("Соню записали на плавание в «Дельфин», по субботам в 10:00.", 120),
        ("На накопительном в Т-банке 98 тыс. Ставку снизили до 14%.", 60),
        ("Купили новый пылесос, старый совсем сдох.", 30)]


async def savings(writer: Writer, user_id: str) -> tuple[str, str]:
    now = utcnow()
    results = await writer.remember_many(user_id, [
        MemoryItem(text, veracity=Veracity.STATED, created_at=now - timedelta(days=days))
        for text, days in TOLD])
    old, new = results[0].fact, results[3].fact
    assert old is not None and new is not None, "both said as statements and kept"
    return old.id, new.id


async def test_a_question_about_now_puts_the_newer_record_first(
    writer: Writer, graph: GraphStore, archive: object, embedder: Embedder, recall: Recall,
    user_id: str
) -> None:
    old, new = await savings(writer, user_id)
    question = "Какой сейчас процент на накопительном счёте?"
    found = await recall.search(user_id, question, k=5)
    ids = [h.fact.id for h in found]
    assert ids[0] == new, [h.fact.text for h in found]
    assert old in ids  # the old rate stays in the answer, below

    # the step on its own, without the query map (which was trained on this set): the ranker
    # alone puts the old rate above, the step the new one first
    bare = replace(recall.config, query_adapter="off")
    plain = [h.fact.id for h in await Recall(graph, archive, embedder, config=replace(
        bare, newer_first=None)).search(user_id, question, k=5)]
    assert plain.index(old) < plain.index(new), "the ranker alone puts the old rate above"
    stepped = await Recall(graph, archive, embedder, config=bare).search(user_id, question, k=5)
    assert stepped[0].fact.id == new, [h.fact.text for h in stepped]

    before = "Какой процент был на накопительном раньше?"
    past = [h.fact.id for h in await recall.search(user_id, before, k=5)]
    unstepped = [h.fact.id for h in await Recall(graph, archive, embedder, config=replace(
        recall.config, newer_first=None)).search(user_id, before, k=5)]
    assert past == unstepped, "a question about the past is left alone"


def test_the_step_is_on_by_default() -> None:
    assert RecallConfig().newer_first is not None
