"""The offline mode: heuristic extraction (Russian and English), labelled replies, budgets."""

from __future__ import annotations

import pytest

from graph.models import EntityType, FactType
from wave_agent.llm.offline import extract_heuristic, offline_reply
from wave_agent.postprocess.extract import MAX_FACTS, fact_budget
from wave_agent.tools import TOOL_SPECS
from wave_agent.turn import needs_search


def _texts(message: str, most: int = 8) -> list[str]:
    return [f.text for f in extract_heuristic(message, max_facts=most)]


def test_russian_name_city_work() -> None:
    facts = extract_heuristic("Привет! Меня зовут Влад. Я живу в Берлине и работаю в Яндексе.",
                              max_facts=8)
    assert [f.text for f in facts] == [
        "Пользователя зовут Влад", "Пользователь живёт в Берлине", "Пользователь работает в Яндексе"]
    assert all(f.type is FactType.IDENTITY for f in facts)
    assert (facts[0].entities[0].name, facts[0].entities[0].type) == ("Влад", EntityType.PERSON)
    assert facts[1].entities[0].type is EntityType.PLACE
    assert facts[2].entities[0].type is EntityType.ORGANISATION


def test_english_name_city_work_preference() -> None:
    facts = extract_heuristic(
        "My name is Anna. I live in Warsaw. I work at Google. I love hiking in the mountains.",
        max_facts=8,
    )
    assert [f.text for f in facts] == [
        "The user's name is Anna", "The user lives in Warsaw", "The user works at Google",
        "I love hiking in the mountains."]
    assert facts[3].type is FactType.PREFERENCE


@pytest.mark.parametrize(("message", "expected", "kind"), [
    ("Я люблю зелёный чай без сахара.", "Я люблю зелёный чай без сахара.", FactType.PREFERENCE),
    ("Аренда квартиры стоит 1200 евро в месяц.", "Аренда квартиры стоит 1200 евро в месяц.",
     FactType.EVENT),
    ("Запомни, что у жены день рождения 12 марта", "У жены день рождения 12 марта",
     FactType.RELATIONSHIP),
    ("remember that my dentist appointment is on Friday at 10",
     "My dentist appointment is on Friday at 10", FactType.EVENT),
    ("I paid $450 for the new bike", "I paid $450 for the new bike", FactType.EVENT),
    ("Я работаю программистом уже пять лет", "Пользователь работает программистом уже пять лет",
     FactType.IDENTITY),
])
def test_preferences_prices_and_remember(message: str, expected: str, kind: FactType) -> None:
    facts = extract_heuristic(message, max_facts=3)
    assert [(f.text, f.type) for f in facts] == [(expected, kind)]


@pytest.mark.parametrize("message", ["спасибо", "ok, thanks!", "как дела?", "what time is it?"])
def test_small_talk_yields_nothing(message: str) -> None:
    assert _texts(message) == []


def test_extraction_respects_the_cap() -> None:
    many = " ".join(f"I love thing number {i} very much." for i in range(20))
    assert len(_texts(many, most=3)) == 3


def test_fact_budget_grows_with_length_and_is_capped() -> None:
    assert fact_budget("спасибо", "пожалуйста") == 0
    assert fact_budget("ok sure", "x" * 5000) == 0
    short = fact_budget("I moved to Lisbon last month", "Nice!")
    medium = fact_budget("I moved to Lisbon last month. " * 20, "Nice!")
    assert 2 == short < medium <= MAX_FACTS
    assert fact_budget("word " * 5000, "") == MAX_FACTS


def test_offline_reply_says_it_is_offline_in_the_persons_language() -> None:
    ru = offline_reply("где я живу?", ["Пользователь живёт в Берлине"])
    assert ru.startswith("[офлайн") and "Пользователь живёт в Берлине" in ru
    en = offline_reply("where do I live?", [])
    assert en.startswith("[offline") and "nothing in memory" in en
    noted = offline_reply("remember that I like tea", [])
    assert "Noted" in noted


def test_two_real_words_rule() -> None:
    assert not needs_search("спасибо!")
    assert not needs_search("ok 123 !!")
    assert needs_search("где живу")
    assert needs_search("my city?")


def test_tool_specs_are_valid_json_schema_objects() -> None:
    names = {spec.name for spec in TOOL_SPECS}
    assert names == {"memory_search", "memory_reflect", "remember", "supersede", "forget"}
    for spec in TOOL_SPECS:
        assert spec.parameters["type"] == "object"
        assert spec.parameters.get("additionalProperties") is False
