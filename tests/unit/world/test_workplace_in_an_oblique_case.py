"""A new employer said in passing after a preposition ("первый день в «Глобусе»") is held in the
nominative (``oblique.workplace_nominative``), so the firm said two ways is one value and a new
one replaces the old (round thirty, h/employer30). Sentences of our own, no month's."""

from __future__ import annotations

import asyncio

from tests.support.held_attributes import held_fact
from wave_agent.world.attributes import as_said, read_values
from wave_agent.world.oblique import workplace_nominative
from wave_agent.world.reader import rule_readings
from wave_agent.write.attributes import decide, held_values, read


def employers(text: str) -> list[str]:
    reading = rule_readings([as_said(text)], learned_nouns=False)[0]
    return [v.value for v in read_values(text, reading)
            if v.attribute == "employer" and v.entity == "user"]


def test_a_first_day_at_a_quoted_firm_names_it_in_the_nominative() -> None:
    assert employers("ура, первый день в «Глобусе»! дали бейдж и кружку") == ["Глобус"]


def test_a_firm_of_several_words_has_its_last_word_in_the_nominative() -> None:
    assert workplace_nominative("вышла в «Газ Банке» на новую должность",
                                "Газ Банке") == "Газ Банк"
    assert workplace_nominative("с понедельника сижу в Т-Банке", "Т-Банке") == "Т-Банк"


def test_a_name_said_in_the_nominative_or_not_after_a_preposition_is_left_as_it_is() -> None:
    assert workplace_nominative("устроилась в «Северсталь»", "Северсталь") == "Северсталь"
    assert workplace_nominative("Глобусе привет передавай", "Глобусе") == "Глобусе"
    assert workplace_nominative("first day at Acme", "Acme") == "Acme"


def test_the_new_firm_said_in_passing_replaces_the_old_one() -> None:
    old = held_fact("f1", "работаю в Ростелекоме", "user|employer|Ростелеком|set")
    held = held_values([old])
    said = asyncio.run(read("первый день в «Граните»! руководитель смены, волнуюсь", held))
    decision = decide(said, held, "new")
    assert decision.replaces == [old]
    assert [c["new"] for c in decision.changes] == ["Гранит"]


def test_the_same_firm_said_in_another_case_is_no_change() -> None:
    held = held_values([held_fact("f1", "работаю в «Гранит»", "user|employer|Гранит|set")])
    said = asyncio.run(read("работаю в «Граните» уже третий год, кассиром", held))
    assert any(v.attribute == "employer" for v in said)
    assert not decide(said, held, "new").replaces
