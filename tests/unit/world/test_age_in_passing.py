"""An age said in passing is read as an age, and another one than held is a contradiction
(issue 30: "мне вообще-то 31" against a held birthday age, "в свои 40 ...", "мне ж уже 35"
were never raised: 14 of 219 labelled contradictions state an age the reader did not read).
Someone else's age said in passing is theirs, not the person's; a count after "мне" ("мне 2
раза звонили") and an age said of the past ("в 20 лет я жила ...") are no age now. Sentences of
our own, not a month's."""

from __future__ import annotations

import pytest

from tests.support.held_attributes import contradicted_by


@pytest.mark.parametrize("later", [
    "мне ж уже 36, какие ночные клубы",
    "мне вообще-то 38, если кто забыл",
    "мне тридцать восемь, а я всё ещё боюсь стоматологов",
    "мне уже сорок, пора бы остепениться",
    "в 39 лет учиться плавать — это вообще нормально?",
    "в свои 40 впервые встала на коньки",
])
def test_another_age_said_in_passing_is_a_contradiction(later: str) -> None:
    assert contradicted_by("мне 33, день рождения 2 февраля", later) == ["first"]


@pytest.mark.parametrize("later", [
    "мне ж уже 33, какие ночные клубы",
    "мне вообще-то 33, если кто забыл",
])
def test_the_same_age_said_again_raises_nothing(later: str) -> None:
    assert contradicted_by("мне 33, день рождения 2 февраля", later) == []


@pytest.mark.parametrize("later", [
    "в 20 лет я жила в Казани у тёти",
    "в Тулу мы переехали, когда мне было семь",
    "когда мне было 12, мы жили у бабушки",
    "я старшая в семье, все надежды на мне одной",
    "мне 2 раза звонили из банка",
    "мне 5 минут до дома осталось",
    "мне бы 10 минут тишины",
    "мне 15 декабря к зубному",
    "в 60 лет надо уже о пенсии думать",
])
def test_a_count_a_wish_or_the_past_is_no_age_now(later: str) -> None:
    assert contradicted_by("мне 33, день рождения 2 февраля", later) == []


def test_someone_elses_age_in_passing_is_theirs() -> None:
    assert contradicted_by("маме 58, она ещё работает в библиотеке",
                           "маме 63, а она всё на работу бегает") == ["first"]
    assert contradicted_by("Кириллу 7, он в первом классе",
                           "Кириллу десять, а темноты боится") == ["first"]
    # the mother's age is not the person's
    assert contradicted_by("мне 33, день рождения 2 февраля",
                           "маме 63, а она всё на работу бегает") == []
    assert contradicted_by("мне 33, день рождения 2 февраля",
                           "Кириллу десять, а темноты боится") == []


@pytest.mark.parametrize(("first", "later"), [
    ("mam 33 lata i pracuję jako księgowa", "mam już 37 lat, a wciąż boję się dentysty"),
    ("I'm 33 and I work as an accountant", "I'm 37 and still scared of the dentist"),
])
def test_polish_and_english_ages_are_compared_too(first: str, later: str) -> None:
    assert contradicted_by(first, later) == ["first"]
