"""Someone's age said with a pronoun ("сын Гриша, ему 6") or as a clause of its own after their
name ("дочка Варя, 5 лет") is theirs, so another age of theirs said in passing later is a
contradiction (issue 30: "Тимофею же девять" against a son of seven went unraised on eight
honest months, the seven said "ему 7", "ей 27", "он у меня первоклассник, 7 лет"). The
pronoun stands for the one person or pet named before it whose gender it has; no one, or two,
and the age is no one's. Sentences of our own, not a month's."""

from __future__ import annotations

import asyncio

import pytest

from graph.models import Fact, FactType, Status, Tier, Veracity
from tests.support.held_attributes import NOW, contradicted_by
from wave_agent.write.attributes import decide, held_values, marks_change, read


def _ages(text: str) -> set[str]:
    return {v.encode() for v in asyncio.run(read(text, [])) if v.attribute == "age"}


@pytest.mark.parametrize(("first", "later"), [
    ("сын у меня Гриша, ему 6, ходит в подготовительную группу", "Грише же десять, а он всё ещё просится ко мне спать"),
    ("дочь Варя, ей пять, обожает рисовать", "Варе уже девять, пора на танцы записывать"),
    ("Вика, моя старшая сестра, приезжает в пятницу. Ей 38, живёт в Твери", "Вике 45, а она всё на роликах катается"),
    ("кот у меня Барсик, британец, ему 4 года", "Барсику же 11, он уже старичок"),
    ("дочка Варя, 5 лет, ходит в садик", "Варе уже восемь, не верится"),
    ("забрала Гришу из садика. он у меня старшая группа, 6 лет, уже читает", "Грише девять, а он всё ещё боится темноты"),
])
def test_another_age_of_someone_said_by_a_pronoun_is_a_contradiction(first: str, later: str) -> None:
    # (with no time between them, an age up by one or two may be a birthday: each is three up)
    assert contradicted_by(first, later) == ["first"]


@pytest.mark.parametrize(("first", "later"), [
    ("сын у меня Гриша, ему 6, ходит в подготовительную группу", "Грише 6, а он уже читает по слогам"),
    ("дочь Варя, ей пять, обожает рисовать", "Варе исполнилось шесть! праздновали всем двором"),
])
def test_the_same_age_or_a_birthday_raises_nothing(first: str, later: str) -> None:
    assert contradicted_by(first, later) == []


def test_the_age_is_the_named_ones() -> None:
    assert _ages("сын у меня Гриша, ему 6") == {"Гриша|age|6|set"}
    assert _ages("Вика, моя старшая сестра, приезжает в пятницу. Ей 38") == {"Вика|age|38|set"}
    assert _ages("дочка Варя, 5 лет, ходит в садик") == {"Варя|age|5|set"}


@pytest.mark.parametrize("text", [
    "Артём звонил, у его отца юбилей, ему 60",   # the father, not Artyom
    "Гриша и Петя во дворе, ему 6, а тому 9",      # two of one gender: whose is unknown
    "Вика звонила, ему 40 в субботу",               # no one of his gender named
    "встречаемся с Олегом, 3 года уже",             # a time together, not Oleg's age
    "живём в Казани, 3 года",                       # a time somewhere
    "ему 5 минут идти до школы",                    # a count, not an age
])
def test_no_age_for_anyone_when_whose_is_unclear(text: str) -> None:
    assert _ages(text) == set()


def test_the_persons_own_age_is_never_a_pronouns() -> None:
    # "ему" is never the speaker: the person's own held age is not set against it
    assert contradicted_by("мне 34, день рождения в марте", "сын у меня Гриша, ему 6") == []


@pytest.mark.parametrize(("first", "later"), [
    # a word of a change elsewhere in the message does not move an age back, nor two years on
    ("мне 36, день рождения в мае", "в мои 33 вроде поздно начинать, а вот начала же"),
    ("сын у меня Гриша, ему 6", "Грише 9, а он опять забыл сменку"),
])
def test_a_change_word_elsewhere_does_not_move_an_age_back(first: str, later: str) -> None:
    assert marks_change(later)
    assert _contradicted_as_the_writer_asks(first, later) == ["first"]


def test_an_age_a_year_on_with_a_change_word_is_moved_on() -> None:
    later = "мне теперь 37, начала новую жизнь"
    assert marks_change(later)
    assert _contradicted_as_the_writer_asks("мне 36, день рождения в мае", later) == []


def _contradicted_as_the_writer_asks(first: str, later: str) -> list[str]:
    """``contradicted_by`` with the change word the writer reads in ``later`` passed on."""
    stored = [Fact(id="first", user_id="u", text=first, type=FactType.IDENTITY,
                   tier=Tier.OBSERVATION, status=Status.ACTIVE, veracity=Veracity.STATED,
                   confidence=1.0, created_at=NOW, last_confirmed_at=NOW,
                   attributes=tuple(v.encode() for v in asyncio.run(read(first, []))))]
    held = held_values(stored)
    outcome = decide(asyncio.run(read(later, held)), held, "later", changed=marks_change(later))
    return [f.id for f, _ in outcome.contradicts]
