"""The query map's switch in recall (``RECALL_QUERY_ADAPTER=auto``, the default): over a chat
transcript recall answers as it does without the map, over a person's notes as it does with it
(recall.kind; docs/benchmarks.md, "Round twenty-two (2026-12-06, h/recall20)")."""

from __future__ import annotations

from dataclasses import replace
from datetime import timedelta

import pytest

from archive.embedder import Embedder
from graph.models import FactType, Veracity, utcnow
from graph.store import GraphStore
from wave_agent.recall import Recall, adapter
from wave_agent.recall.result import RecallResult
from wave_agent.write.writer import MemoryItem, Writer

pytestmark = pytest.mark.neo4j

TRANSCRIPT = [
    ("Jordan", "Hey Priya! How was the pottery workshop last weekend? I saw your photos."),
    ("Priya", "It was amazing, thanks for asking! I made a lopsided bowl but I'm proud of it."),
    ("Jordan", "Ha, lopsided is charming. Are you going back next month?"),
    ("Priya", "Definitely. My sister wants to come too, she's been stressed with her new job."),
    ("Jordan", "That's sweet of you. I've been trying to get back into running, actually."),
    ("Priya", "Oh nice! Didn't you run a half marathon in Portland a couple of years ago?"),
    ("Jordan", "Yeah, I'm nowhere near that shape now, but it feels good to move again."),
    ("Priya", "Let me know if you want a running buddy on Saturdays, I'm free most weeks."),
]

NOTES = [
    "Записала Тимура к ортодонту на 14 марта, 16:30, клиника на Гагарина.",
    "Перешла на новый тариф МТС: 450 р в месяц, 30 гигов.",
    "У Лёши аллергия на цитрусовые, в школу передала справку.",
    "Купила абонемент в бассейн «Волна», 12 занятий за 5400.",
    "Сменили страховую на «Согласие», полис до конца января.",
    "Машину отдали в сервис на Садовой, обещали к пятнице.",
]


def ids(hits: object) -> list[str]:
    return [h.fact.id for h in hits]  # type: ignore[attr-defined]


async def asked_three_ways(graph: GraphStore, archive: object, embedder: Embedder,
                           recall: Recall, user_id: str, question: str
                           ) -> tuple[RecallResult, list[str], list[str]]:
    def with_map(mode: str) -> Recall:
        return Recall(graph, archive, embedder, clock=recall.clock,
                      config=replace(recall.config, query_adapter=mode))

    return (await recall.search(user_id, question, k=5),
            ids(await with_map("off").search(user_id, question, k=5)),
            ids(await with_map("all").search(user_id, question, k=5)))


async def test_a_chat_transcript_is_searched_without_the_map(
    writer: Writer, graph: GraphStore, archive: object, embedder: Embedder, recall: Recall,
    user_id: str
) -> None:
    if embedder.model_name != adapter.READS:
        pytest.skip("the map and its switch read multilingual-e5-small")
    start = utcnow() - timedelta(days=3)
    await writer.remember_many(user_id, [
        MemoryItem(f"{who}: {text}", type=FactType.EVENT, veracity=Veracity.STATED,
                   created_at=start + timedelta(minutes=n), speaker=who)
        for n, (who, text) in enumerate(TRANSCRIPT)])
    auto, off, _ = await asked_three_ways(graph, archive, embedder, recall, user_id,
                                          "Where did Jordan run a half marathon?")
    assert not auto.query_map
    assert ids(auto) and ids(auto) == off


async def test_a_persons_notes_are_searched_with_the_map(
    writer: Writer, graph: GraphStore, archive: object, embedder: Embedder, recall: Recall,
    user_id: str
) -> None:
    if embedder.model_name != adapter.READS:
        pytest.skip("the map and its switch read multilingual-e5-small")
    now = utcnow()
    await writer.remember_many(user_id, [
        MemoryItem(text, veracity=Veracity.STATED, created_at=now - timedelta(days=10 - n))
        for n, text in enumerate(NOTES)])
    auto, _, on = await asked_three_ways(graph, archive, embedder, recall, user_id,
                                         "На что у Лёши аллергия?")
    assert auto.query_map
    assert ids(auto) and ids(auto) == on
