"""Number changes and said changes in Russian first, then Polish, then English.

The writer missed "Пилотный проект стоит 150 тысяч рублей" -> "Цена изменилась: пилотный
проект теперь стоит 200 тысяч рублей": the lead-in "Цена" read as a name, so the two were
"about different things" and both prices stayed active.
"""

from __future__ import annotations

import pytest

from wave_agent.policy import numbers, polarity, similarity
from wave_agent.policy.calibration import MINILM
from wave_agent.policy.judge import Relation, Verdict, judge, stated_change

PILOT = "Пилотный проект стоит 150 тысяч рублей"
PILOT_NOW = "Цена изменилась: пилотный проект теперь стоит 200 тысяч рублей"


@pytest.mark.parametrize(("text", "values"), [
    ("Пилот стоит 150 тысяч рублей", ("150000",)),
    ("Пилот стоит 150 тыс. руб.", ("150000",)),
    ("Пилот стоит 150 000 ₽", ("150000",)),
    ("Пилот стоит полторы тысячи", ("1500",)),
    ("Пилот стоит двести тысяч рублей", ("200000",)),
    ("Пилот стоит сто пятьдесят тысяч", ("150000",)),
    ("Внедрение стоит 1,5 млн", ("1500000",)),
    ("У меня три кота", ("3",)),
    ("Один из друзей приехал", ()),
    ("Pilot kosztuje 150 tys. zł", ("150000",)),
    ("Mieszkanie kosztuje półtora tysiąca złotych", ("1500",)),
    ("The pilot costs 150k", ("150000",)),
    ("The pilot costs 1,500 dollars", ("1500",)),
    ("The pilot costs two hundred dollars", ("200",)),
])
def test_numbers_are_read_by_value_in_the_forms_people_write(
        text: str, values: tuple[str, ...]) -> None:
    assert numbers.numbers(text) == values


def test_the_same_value_written_otherwise_is_no_change() -> None:
    assert not numbers.numbers_differ("Пилот стоит 150 тысяч", "Пилот стоит 150 000")
    assert not numbers.numbers_differ("Пилот стоит 150 тыс.", "Пилот стоит сто пятьдесят тысяч")
    assert not numbers.same_words_other_numbers("Pilot kosztuje 150 tys. zł",
                                                "Pilot kosztuje 150 000 zł")


@pytest.mark.parametrize(("old", "new"), [
    (PILOT, PILOT_NOW),
    ("Пилотный проект стоит 150 тысяч рублей", "Стоимость пилотного проекта 200 тысяч рублей"),
    ("Пилотный проект стоит 150 тыс. руб.", "Пилотный проект стоит 200 000 рублей"),
    ("Аренда квартиры 45 000 рублей в месяц", "Аренда квартиры теперь 50 000 рублей в месяц"),
    ("Czynsz za mieszkanie wynosi 3000 zł", "Czynsz za mieszkanie wynosi teraz 3500 zł"),
    ("Pilot kosztuje 150 tysięcy złotych", "Cena się zmieniła: pilot kosztuje 200 tysięcy złotych"),
    ("The pilot project costs 150 thousand", "Price changed: the pilot project now costs 200k"),
])
def test_same_words_other_numbers(old: str, new: str) -> None:
    assert not similarity.different_names(old, new)
    assert numbers.same_words_other_numbers(old, new)
    verdict = judge(old, new, cosine=0.8)
    assert verdict.relation is Relation.NUMBER_CHANGE


def test_the_reason_shows_the_numbers_as_written() -> None:
    assert judge(PILOT, PILOT_NOW, cosine=0.8).detail == "150 тысяч -> 200 тысяч"


def test_a_lead_in_is_not_a_name_but_a_person_is() -> None:
    assert not similarity.different_names(PILOT, PILOT_NOW)
    assert similarity.different_names("Игорь платит 100 тысяч", "Анна платит 200 тысяч")
    assert similarity.different_names("Igor pays 100", "Anna pays 200")
    assert similarity.different_names("Igor płaci 100 zł", "Anna płaci 200 zł")


@pytest.mark.parametrize(("text", "marker"), [
    ("Цена изменилась: пилот стоит 200", "изменилась"),
    ("Я уже не работаю в банке", "уже не"),
    ("Я больше не пью кофе", "больше не"),
    ("Пилот теперь стоит 200", "теперь"),
    ("Teraz mieszkam w Krakowie", "Teraz"),
    ("Już nie piję kawy", "Już nie"),
    ("Nie pracuję już w banku", "Nie pracuję już"),
    ("Cena się zmieniła", "się zmieniła"),
    ("Cena zmieniła się", "zmieniła się"),
    ("I no longer drink coffee", "no longer"),
    ("The pilot now costs 200", "now"),
])
def test_change_markers_ru_pl_en(text: str, marker: str | None) -> None:
    assert numbers.has_change_marker(text) == marker


@pytest.mark.parametrize(("old", "new"), [
    ("Я пью кофе", "Я больше не пью кофе"),
    ("Я работаю в банке", "Я уже не работаю в банке"),
    ("Piję kawę", "Już nie piję kawy"),
    ("I drink coffee", "I no longer drink coffee"),
])
def test_a_said_negation_is_a_change_not_a_contradiction(old: str, new: str) -> None:
    assert polarity.opposite(old, new)
    verdict = Verdict(Relation.OPPOSITE, 0.8)
    assert stated_change(old, new, verdict) is not None
    # without a marker a negation stays a contradiction for the person to resolve
    assert stated_change(old, "Я не пью кофе", verdict) is None


def test_a_said_move_is_a_change_of_the_same_frame() -> None:
    old, new = "Я живу в Москве", "Теперь я живу в Казани"
    verdict = judge(old, new, cosine=0.6, cal=MINILM)  # a MiniLM cosine, read on its scale
    assert verdict.relation is Relation.SAME_FRAME
    assert stated_change(old, new, verdict) == "Теперь"
    # a marker does not move someone else's record onto another person
    other = judge("Анна живёт в Берлине", "Игорь теперь живёт в Берлине", cosine=0.7, cal=MINILM)
    assert stated_change("Анна живёт в Берлине", "Игорь теперь живёт в Берлине", other) is None
