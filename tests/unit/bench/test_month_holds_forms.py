"""The month bench holds a value written another way (inflection, short form, the other
alphabet, a number as a word) and never a different value sharing a word with it."""

from __future__ import annotations

import pytest

from wave_agent.bench.month import holds, number_words_of

SAME = [
    ("Пользователь живёт в Нижнем", "Нижний Новгород", "city"),
    ("Киа моя опять в сервисе", "Kia Rio", "car"),
    ("Айфон 12 разбился", "iPhone 12", "device"),
    ("Купила айфон двенадцать", "iPhone 12", "device"),
    ("Работаю теперь в Яндексе", "Yandex", "employer"),
    ("У меня Samsung Galaxy", "Самсунг", "device"),
    ("Сыну двенадцать лет", "12", "age"),
    ("Мне 35", "тридцать пять", "age"),
    ("Аренда теперь сорок пять тысяч", "45000", "price_rent"),
    ("I drive a Киа now", "Kia", "car"),
]

DIFFERENT = [
    ("Пользователь живёт в Великом Новгороде", "Нижний Новгород", "city"),
    ("Переехала в Нижний Тагил", "Нижний Новгород", "city"),
    ("Купил Kia Sportage", "Kia Rio", "car"),
    ("Айфон 13 купила", "iPhone 12", "device"),
    ("Купила айфон тринадцать", "iPhone 12", "device"),
    ("Работаю теперь в Сбере", "Yandex", "employer"),
    ("Сыну тринадцать лет", "12", "age"),
    ("Мне 36", "тридцать пять", "age"),
    ("Аренда теперь сорок тысяч", "45000", "price_rent"),
    ("Живу на улице Ленина", "улица Пушкина", "street"),
    ("Новый номер +7 900 111-22-33", "+7 900 111-22-34", "phone"),
]


@pytest.mark.parametrize(("record", "value", "attribute"), SAME)
def test_the_same_value_written_another_way_is_held(record: str, value: str,
                                                    attribute: str) -> None:
    assert holds(record, value, attribute)


@pytest.mark.parametrize(("record", "value", "attribute"), DIFFERENT)
def test_a_different_value_sharing_a_word_or_a_digit_is_not_held(record: str, value: str,
                                                                 attribute: str) -> None:
    assert not holds(record, value, attribute)


def test_the_surface_scorer_can_be_asked_for(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("WAVE_BENCH_HOLDS", "surface")
    assert not holds("Пользователь живёт в Нижнем", "Нижний Новгород", "city")
    assert holds("Живу в Нижнем Новгороде", "Нижний Новгород", "city")


def test_numbers_written_as_words_are_read_in_three_languages() -> None:
    assert number_words_of("двадцать пять тысяч") == {25000.0}
    assert 12.0 in number_words_of("twelve cats")
    assert 12.0 in number_words_of("dwanaście złotych")


def test_two_russian_words_are_not_made_one_by_the_other_alphabets_table() -> None:
    assert not holds("Купила мыло и мыла посуду", "Мила", "pet")


def test_a_list_of_values_is_held_only_whole() -> None:
    assert not holds("Кот у нас Тоша, британец", "Тоша, Муся", "pets")
    assert holds("Кот у нас Тоша, а кошка Муся", "Тоша, Муся", "pets")


def test_a_role_at_an_employer_is_not_held_by_the_employer_alone() -> None:
    assert not holds("сегодня первый день в «КамаСофте»", "тимлид в «КамаСофте»", "role")
    assert not holds("работаю дизайнером в агентстве «Мельница»", "руководитель в «Мельнице»",
                     "role")
