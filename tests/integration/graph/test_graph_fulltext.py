"""Full-text search: Russian and English inflections, scores, statuses, hostile query text."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from graph.models import Fact, Status
from graph.store import GraphStore

pytestmark = pytest.mark.neo4j

MakeFact = Callable[..., Fact]


@pytest.mark.parametrize(
    ("text", "query"),
    [
        ("Я живу в Москве", "Москва"),
        ("Встреча с Игорем в пятницу", "Игорь"),
        ("Купил новые кроссовки для бега", "кроссовками"),
        ("He prefers running in the mornings", "run morning"),
        ("She was working on the Wave project", "works projects"),
    ],
)
async def test_inflections_match(graph: GraphStore, make_fact: MakeFact, user_id: str,
                                 text: str, query: str) -> None:
    fact = await graph.create_fact(make_fact(text))
    await graph.create_fact(make_fact("Совсем другое: погода хорошая"))
    hits = await graph.fulltext_search(user_id, query)
    assert [h.fact.id for h in hits] == [fact.id]
    assert hits[0].score > 0


async def test_better_match_scores_higher(graph: GraphStore, make_fact: MakeFact,
                                          user_id: str) -> None:
    both = await graph.create_fact(make_fact("Игорь переехал в Москву"))
    one = await graph.create_fact(make_fact("Игорь любит чай"))
    hits = await graph.fulltext_search(user_id, "Игорь Москва")
    assert [h.fact.id for h in hits] == [both.id, one.id]
    assert hits[0].score > hits[1].score


async def test_statuses_filter(graph: GraphStore, make_fact: MakeFact, user_id: str) -> None:
    active = await graph.create_fact(make_fact("работаю в Яндексе"))
    old = await graph.create_fact(make_fact("работал в Сбере", status=Status.SUPERSEDED))
    assert [h.fact.id for h in await graph.fulltext_search(user_id, "работал")] == [active.id]
    both = await graph.fulltext_search(user_id, "работал",
                                       statuses=(Status.ACTIVE, Status.SUPERSEDED))
    assert {h.fact.id for h in both} == {active.id, old.id}


async def test_limit(graph: GraphStore, make_fact: MakeFact, user_id: str) -> None:
    await graph.create_facts([make_fact(f"кофе номер {i}") for i in range(8)])
    assert len(await graph.fulltext_search(user_id, "кофе", limit=3)) == 3
    assert await graph.fulltext_search(user_id, "кофе", limit=0) == []


@pytest.mark.parametrize(
    "query",
    ['AND OR NOT', '"unbalanced', "~ * ? : \\ /", "(((", "title:x^5", "a && b || !c",
     "[1 TO 5]", "{}", "+-", "", "   ", "*:*", "кофе) OR (scope:*"],
)
async def test_lucene_syntax_never_breaks_the_query(graph: GraphStore, make_fact: MakeFact,
                                                    user_id: str, query: str) -> None:
    await graph.create_fact(make_fact("кофе по утрам"))
    hits = await graph.fulltext_search(user_id, query)
    assert all(h.fact.user_id == user_id for h in hits)
    if "кофе" not in query:
        assert hits == []


async def test_syntax_around_real_words_still_finds(graph: GraphStore, make_fact: MakeFact,
                                                    user_id: str) -> None:
    fact = await graph.create_fact(make_fact('Кофе "эспрессо" (двойной) ~ 3* раза'))
    hits = await graph.fulltext_search(user_id, 'эспрессо~2 AND "двойной" OR кофе*')
    assert [h.fact.id for h in hits] == [fact.id]


async def test_mixed_and_digit_queries(graph: GraphStore, make_fact: MakeFact,
                                       user_id: str) -> None:
    mixed = await graph.create_fact(make_fact("Работаю над проектом Wave с 2024 года"))
    assert [h.fact.id for h in await graph.fulltext_search(user_id, "Wave")] == [mixed.id]
    assert [h.fact.id for h in await graph.fulltext_search(user_id, "проекты")] == [mixed.id]
    assert [h.fact.id for h in await graph.fulltext_search(user_id, "2024")] == [mixed.id]
    assert [h.fact.id for h in await graph.fulltext_search(user_id, "wave проект")] == [mixed.id]


async def test_prefixes_widen_russian_forms_on_request(graph: GraphStore, make_fact: MakeFact,
                                                       user_id: str) -> None:
    verb = await graph.create_fact(make_fact("работаю в Яндексе"))
    noun = await graph.create_fact(make_fact("Моя работа скучная"))
    exact = await graph.fulltext_search(user_id, "работа")
    assert [h.fact.id for h in exact] == [noun.id]
    widened = await graph.fulltext_search(user_id, "работа", prefixes=True)
    assert [h.fact.id for h in widened] == [noun.id, verb.id]
    assert widened[0].score > widened[1].score
    assert await graph.fulltext_search(user_id, "AND работ* OR", prefixes=True)
