"""Another person's value said in passing (issue 30, round thirty-eight). (1) Their city said
otherwise with a word of news that is not about the city (month 40's miss by the lead's
reading: "Мама у себя в Самаре ..." after Саратов replaced the mother's city silently, where
the author meant a contradiction). Only a move said as done, a date, or a change word in the
clause that names the place is news of someone else's city (``tells_move``); a change word of
another clause, "again", a move refused or denied are not. (2) Their job said beside the name
by a remark ("Лена, кстати, хирург ..."), so an appointment replaces it. Sentences of our own
(pure: natasha, pymorphy3, navec)."""

from __future__ import annotations

import pytest

from tests.unit.world.test_attribute_decisions import NOW, fact
from wave_agent.world import read
from wave_agent.world.attributes import as_said, read_values
from wave_agent.write.attributes import (
    Decision,
    Held,
    decide,
    held_values,
    marks_change,
    tells_move,
    tells_news,
)


@pytest.mark.parametrize("text", [
    "Дима переехал в Тверь, нашёл там работу",
    "сестра перебралась в Казань насовсем",
    "Ola przeprowadziła się do Poznania",
    "Kasia od wczoraj mieszka w Łodzi",
    "брат теперь в Омске, звонил оттуда",
    "с этой недели Вика живёт в Сочи",
])
def test_a_move_is_news_of_the_city(text: str) -> None:
    assert tells_move(text)


@pytest.mark.parametrize("text", [
    "мама у себя в Самаре, теперь на йогу ходит",                 # "теперь" of the hobby
    "тётя всю жизнь в Пскове прожила, а теперь жалуется на скуку",
    "папа в Калуге, переезжать ко мне наотрез отказывается",    # a move refused
    "бабушка ни разу никуда не переезжала, так и живёт в Ельце",  # a move denied
    "Mama znowu narzeka na deszcz w Gdańsku",                    # "again"
])
def test_another_clauses_change_word_is_no_news_of_the_city(text: str) -> None:
    assert not tells_move(text)


def _decided(text: str, held: list[Held]) -> Decision:
    """What the writer decides for ``text`` against the held values, as it reads the message."""
    values = read_values(text, read(as_said(text)), [h.value for h in held])
    return decide(values, held, "new", changed=marks_change(text), news=tells_news(text),
                  at=NOW, moved=tells_move(text))


def test_a_mothers_city_said_otherwise_with_a_change_word_elsewhere_is_a_contradiction() -> None:
    old = fact("f1", "role:mother|city|Саратов|set")
    held = held_values([old])
    text = "мама у себя в Самаре, теперь на йогу ходит по утрам"
    values = read_values(text, read(as_said(text)), [h.value for h in held])
    assert "role:mother|city|Самара|set" in {v.encode() for v in values}
    assert tells_news(text)  # the change word of the hobby: news all the same before
    decision = decide(values, held, "new", changed=marks_change(text), news=tells_news(text),
                      at=NOW, moved=tells_move(text))
    assert not decision.replaces and [f.id for f, _ in decision.contradicts] == ["f1"]


def test_a_mothers_move_still_replaces_her_city() -> None:
    old = fact("f1", "role:mother|city|Саратов|set")
    held = held_values([old])
    text = "мама переехала к сестре в Самару, одной ей тяжело"
    decision = _decided(text, held)
    assert decision.replaces == [old] and not decision.contradicts


# another person's job said beside the name by a remark, with no verb (month 40's surgeon, by
# the lead's reading; sentences of our own): read, so a later appointment replaces it
@pytest.mark.parametrize(("text", "expected"), [
    ("Света, кстати, хирург в городской больнице", "Света|role|хирург|set"),
    ("Паша, между прочим, программист, мог бы и помочь", "Паша|role|программист|set"),
])
def test_a_job_said_beside_the_name_by_a_remark(text: str, expected: str) -> None:
    assert expected in {v.encode() for v in read_values(text, read(as_said(text)), [])}


@pytest.mark.parametrize("text", ["Света, кстати, приедет в субботу", "Света, кстати, беременна",
                                  "Артём, кстати, вегетарианец, двадцать лет уже"])
def test_a_remark_of_no_job_reads_no_role(text: str) -> None:
    assert not any(v.attribute == "role" for v in read_values(text, read(as_said(text)), []))


def test_an_appointment_then_replaces_the_job_said_by_a_remark() -> None:
    first = "Света, кстати, хирург в городской больнице"
    old = fact("f1", *(v.encode() for v in read_values(first, read(as_said(first)), [])))
    held = held_values([old])
    text = "у Светы новость: её назначили заведующей отделением"
    decision = _decided(text, held)
    assert decision.replaces == [old] and not decision.contradicts
