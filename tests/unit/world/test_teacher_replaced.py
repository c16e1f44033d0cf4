"""A teacher or tutor of a subject replaced (issue 30, round thirty-nine; month 38's miss by the
lead's reading: "Английский ... с той же Мариной", then "английский теперь с Джеймсом", left
Марина's record active). The teacher is read as the single-valued ``teacher`` "<subject>:
<name>"; a new one of the same subject replaces the old record, one of another subject or the
same teacher said again does not, and talk of a subject with someone reads no teacher.
Sentences of our own (pure: natasha, pymorphy3, navec)."""

from __future__ import annotations

import pytest

from tests.support.held_attributes import after_one
from wave_agent.world import read
from wave_agent.world.attributes import Value, as_said, read_values


def teachers(text: str, held: list[Value] | None = None) -> set[str]:
    return {v.encode() for v in read_values(text, read(as_said(text)), held or [])
            if v.attribute == "teacher"}


@pytest.mark.parametrize(("text", "expected"), [
    ("гитара сегодня была тяжёлая. хожу к Денису по вторникам, 1800 за урок",
     "user|teacher|гитара: Денис|set"),
    ("нашла репетитора по испанскому — Кармен, 2000 за занятие", "user|teacher|испанский: Кармен|set"),
    ("Польский по средам с той же Ольгой, никуда не денешься", "user|teacher|польский: Ольга|set"),
    ("Ольга ушла в декрет, так что польский теперь с Томашем", "user|teacher|польский: Томаш|set"),
    ("на вокале опять, занятие у Натальи Игоревны 2000 за час", "user|teacher|вокал: Наталья Игоревна|set"),
    ("и ещё шахматы, с тренером Аркадием, по субботам, 1000 за урок", "user|teacher|шахматы: Аркадий|set"),
])
def test_a_teacher_of_a_subject_is_read(text: str, expected: str) -> None:
    assert teachers(text) == {expected}


@pytest.mark.parametrize("text", [
    "встретилась с Олей в кафе, английский у неё хромает",
    "говорили про испанский с Кармен весь вечер, она там жила",
    "ходила к Денису на день рождения, подарили гитару",
])
def test_talk_of_a_subject_with_someone_reads_no_teacher(text: str) -> None:
    assert teachers(text) == set()


_after = after_one


def test_a_new_teacher_of_the_subject_replaces_the_old_one() -> None:
    assert _after("Польский по средам с той же Ольгой, никуда не денешься",
                  "Ольга ушла в декрет, так что польский теперь с Томашем") == (["f1"], [])
    assert _after("гитара сегодня была тяжёлая. хожу к Денису по вторникам",
                  "нашла педагога по гитаре здесь — Артём. с Денисом по зуму было не то") == (
        ["f1"], [])


def test_another_subject_or_the_same_teacher_replaces_nothing() -> None:
    assert _after("Польский по средам с той же Ольгой, никуда не денешься",
                  "а гитара теперь с Денисом, по пятницам") == ([], [])
    assert _after("гитара сегодня была тяжёлая. хожу к Денису по вторникам",
                  "гитара сегодня опять, занятие у Дениса, пели под бой") == ([], [])
