"""How the chat door cuts a short message into records (offline): one record for one thing said,
a new record only where a sentence states a value of another attribute."""

from __future__ import annotations

from graph.models import FactType
from wave_agent.llm.offline import extract_heuristic
from wave_agent.postprocess.extract import fact_budget, whole_statements, with_stated_attributes


async def _records(text: str) -> list[tuple[FactType, str]]:
    budget = fact_budget(text, "")
    facts = await with_stated_attributes(text, extract_heuristic(text, max_facts=budget),
                                         max_facts=budget)
    return [(f.type, f.text) for f in await whole_statements(text, facts)]


async def test_a_fragment_that_says_nothing_alone_stays_with_its_statement() -> None:
    for text in ("айфон 11 у меня уже еле живой, батареи хватает до обеда. может в Вологде куплю новый",
                 "Żyję. Przeprowadziłam się do Gdańska w zeszłym tygodniu.",
                 "Got a new job at Google. Starting Monday, a bit nervous."):
        records = await _records(text)
        assert len(records) == 1, records
        assert records[0][1].casefold().rstrip(".") == text.casefold().rstrip(".")


async def test_sentences_about_different_attributes_are_separate_records() -> None:
    records = [text for _, text in await _records("Я переехала в Казань. У меня кот Барсик, ему три года.")]
    assert records == ["Я переехала в Казань.", "У меня кот Барсик, ему три года."]


async def test_a_reminder_keeps_its_own_record() -> None:
    records = await _records("Купила Редми. Напомни завтра позвонить маме.")
    assert (FactType.COMMITMENT, "Завтра позвонить маме.") in records
    assert len(records) == 2
