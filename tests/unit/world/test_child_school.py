"""A child's school and class changed (issue 30, round thirty-eight; month 40's miss by the
lead's reading: a child's class "1«Б»", then a new school and "1«А»", left the old record
active). The school and class are read as the child's ``school``; another one replaces the old
record; the same school said again, a teacher's workplace, the speaker's own school and a
school with no child named read nothing new. Sentences of our own (pure: natasha, pymorphy3,
navec)."""

from __future__ import annotations

import pytest

from tests.unit.world.test_attribute_decisions import NOW, fact
from wave_agent.world import read
from wave_agent.world.attributes import Value, as_said, read_values
from wave_agent.world.school import same_school
from wave_agent.write.attributes import decide, held_values, marks_change, tells_news


def schools(text: str, held: list[Value] | None = None) -> set[str]:
    return {v.encode() for v in read_values(text, read(as_said(text)), held or [])
            if v.attribute == "school"}


@pytest.mark.parametrize(("text", "expected"), [
    ("Даня учится в 57-й школе, во втором классе", "Даня|school|школа № 57|set"),
    ("Даню перевели в гимназию №3, завтра первый день", "Даня|school|гимназия № 3|set"),
    ("Полину взяли в девятую школу, в 2 «В». учительница вроде строгая",
     "Полина|school|школа № 9, 2 «В»|set"),
    ("отвела Егора в новую школу, 212-я, возле метро", "Егор|school|школа № 212|set"),
    ("Вере 7, учится в 1«Г», читает уже бегло", "Вера|school|1 «Г»|set"),
    ("Егор у меня в 64-й школе, в 3 «А». классная у них Ирина Павловна",
     "Егор|school|школа № 64, 3 «А»|set"),
])
def test_a_childs_school_and_class_are_read(text: str, expected: str) -> None:
    assert schools(text) == {expected}


@pytest.mark.parametrize(("text", "expected"), [
    ("Вика ходит в частный садик «Ромашка», 20 тысяч в месяц", "Вика|school|садик «Ромашка»|set"),
    ("Вику устроили в садик на Лесной улице, частный", "Вика|school|садик на Лесной улице|set"),
    ("Вику перевели в детский сад № 14, ближе к дому", "Вика|school|садик № 14|set"),
])
def test_a_childs_kindergarten_is_read(text: str, expected: str) -> None:
    assert schools(text) == {expected}


def test_the_childs_school_is_not_read_as_where_the_child_works() -> None:
    text = "Егор у меня в 64-й школе, в 3 «А». классная у них Ирина Павловна"
    read_now = {v.encode() for v in read_values(text, read(as_said(text)), [])}
    assert not any("|employer|" in v for v in read_now if v.startswith("Егор|"))


@pytest.mark.parametrize("text", [
    "я в 11 «А» учусь, выпускной скоро",                     # the speaker's own class
    "Оля работает в 57-й школе учителем музыки",             # a workplace, not a child's school
    "в 57-й школе опять карантин, говорят",                  # nobody's school
    "Лена, моя подруга, преподаёт в гимназии №3",            # a teacher
])
def test_no_childs_school_where_none_is_said(text: str) -> None:
    assert schools(text) == set()


@pytest.mark.parametrize(("a", "b", "same"), [
    ("школа № 124", "школа № 124, 1 «Б»", True),
    ("школа № 124, 1 «Б»", "гимназия № 7", False),
    ("1 «Б»", "1 «А»", False),
    ("школа № 17", "школа № 8, 3 «Б»", False),
    ("1 «Б»", "школа № 40", True),   # nothing said twice differs
])
def test_same_school(a: str, b: str, same: bool) -> None:
    assert same_school(a, b) is same


@pytest.mark.parametrize(("old", "new"), [
    ("Даня|school|школа № 57|set", "Даню перевели в гимназию №3, завтра первый день"),
    ("Вера|school|1 «Г»|set", "нашла Вере школу рядом с домом, взяли в 1«Д», с понедельника пойдёт"),
    # a kindergarten named another way (round thirty-nine)
    ("Вика|school|садик «Ромашка»|set", "Вику устроили в садик на Лесной улице, частный"),
    ("Вика|school|садик «Ромашка»|set", "Вику перевели в детский сад № 14, ближе к дому"),
    ("Егор|school|школа № 64, 3 «А»|set", "Егор пошёл в новую школу, 212-ю, в 3 «Б»"),
])
def test_another_school_replaces_the_old_record(old: str, new: str) -> None:
    held_fact = fact("f1", old, "Егор|age|9|set")
    held = held_values([held_fact])
    values = read_values(new, read(as_said(new)), [h.value for h in held])
    decision = decide(values, held, "new", changed=marks_change(new), news=tells_news(new), at=NOW)
    assert decision.replaces == [held_fact] and not decision.contradicts
    assert "Егор|age|9|set" in decision.carried


@pytest.mark.parametrize(("old", "new"), [
    ("Даня|school|школа № 57|set", "у Дани в 57-й школе опять карантин"),
    ("Даня|school|школа № 57|set", "Даня в 57-й школе уже в 2 «Б», быстро растут"),
    ("Вика|school|садик «Ромашка»|set", "Вика в садике «Ромашка» опять на карантине"),
    ("Вика|school|садик «Ромашка»|set", "забрала Вику из садика пораньше, устала"),
])
def test_the_same_school_said_again_replaces_nothing(old: str, new: str) -> None:
    held = held_values([fact("f1", old)])
    values = read_values(new, read(as_said(new)), [h.value for h in held])
    decision = decide(values, held, "new", changed=marks_change(new), news=tells_news(new), at=NOW)
    assert not decision.replaces and not decision.contradicts
