"""Who the person's relatives are, read from what they said (``graph.kin``)."""

from __future__ import annotations

import pytest

from graph import kin


@pytest.mark.parametrize(("text", "role", "name"), [
    ("Сыну Игорю девять лет, он ходит в третий класс.", "son", "Игорь"),
    ("Дочке Соне пять лет, она ходит в садик.", "daughter", "Соня"),
    ("Мой старший брат Олег живёт в Казани.", "brother", "Олег"),
    ("Моя жена Марина работает бухгалтером.", "wife", "Марина"),
    ("Мама, Людмила Петровна, живёт одна в Твери.", "mother", "Людмила Петровна"),
    ("Маме Людмиле Петровне купили путёвку.", "mother", "Людмила Петровна"),
    ("Nasz syn Kuba ma osiem lat.", "son", "Kuba"),
    ("Córka Zosia ma cztery lata.", "daughter", "Zosia"),
    ("Mama, Halina, mieszka sama w Lublinie.", "mother", "Halina"),
    ("My wife, Anna, is a nurse.", "wife", "Anna"),
    ("Моя дочь Анна-Мария пошла в школу.", "daughter", "Анна-Мария"),
])
def test_a_relative_named_with_the_persons_role_is_found_in_the_nominative(
        text: str, role: str, name: str) -> None:
    assert [(r.role, r.name) for r in kin.relatives(text)] == [(role, name)]


@pytest.mark.parametrize("text", [
    "У Олега и Алсу сын Тимур, ему двенадцать.",      # Oleg's son, not the person's
    "Сестра Марины, Катя, выходит замуж в сентябре.",  # Marina's sister
    "Жену Олега зовут Алсу, она преподаёт татарский.",  # Oleg's wife
    "Żona Marka ma na imię Ola i uczy w liceum.",       # Marek's wife
    "Сын сегодня пришёл из школы поздно.",              # a role, but no name
])
def test_someone_elses_relative_or_a_role_without_a_name_teaches_nothing(text: str) -> None:
    assert kin.relatives(text) == []


def test_the_alias_is_the_roles_word_in_the_language_it_was_said_in() -> None:
    assert [r.alias for r in kin.relatives("Сыну Игорю девять лет")] == ["сын"]
    assert [r.alias for r in kin.relatives("Nasz syn Kuba ma osiem lat")] == ["syn"]
    assert [r.alias for r in kin.relatives("Our son Tom plays chess")] == ["son"]


@pytest.mark.parametrize(("query", "roles"), [
    ("что я обещал сыну?", ["son"]),
    ("чем болела дочь?", ["daughter"]),
    ("где дача у тестя?", ["father-in-law"]),
    ("ile pożyczyłem bratu?", ["brother"]),
    ("what did I promise my son?", ["son"]),
    ("как зовут жену Олега?", []),    # the name says whose wife
    ("сколько стоит аренда?", []),
])
def test_a_question_asks_about_a_role_only_when_no_name_follows_it(
        query: str, roles: list[str]) -> None:
    assert kin.roles_asked(query) == roles


def test_every_role_word_names_its_role_in_any_case() -> None:
    for word, role in [("сыну", "son"), ("сыном", "son"), ("дочери", "daughter"),
                       ("дочке", "daughter"), ("маме", "mother"), ("тестем", "father-in-law"),
                       ("synowi", "son"), ("żonie", "wife"), ("Brother", "brother")]:
        assert kin.role_of(word) == role, word
    assert kin.role_of("сон") is None
    assert kin.role_of("стол") is None


def test_the_query_carries_the_names_it_asks_about() -> None:
    assert kin.expand("что я обещал сыну?", ["Игорь"]) == "что я обещал сыну? (Игорь)"
    assert kin.expand("что я обещал сыну?", []) == "что я обещал сыну?"


@pytest.mark.parametrize(("query", "about_self"), [
    ("на что у меня аллергия?", True),
    ("сколько я плачу за спортзал?", True),
    ("where do I work?", True),
    ("что я обещал сыну?", False),          # the son
    ("что я подарил Марине?", False),       # Marina
    ("какой породы собака у Игорька?", False),
    ("на что аллергия у Сони?", False),
])
def test_a_question_in_the_first_person_naming_no_one_asks_about_the_person(
        query: str, about_self: bool) -> None:
    assert kin.asks_about_self(query) is about_self


@pytest.mark.parametrize(("text", "other"), [
    ("У Сони аллергия на арахис, в садике об этом знают.", True),
    ("Моя жена Марина работает бухгалтером.", True),   # a possessive is not the person
    ("Мама жалуется на давление.", True),
    ("My sister Kate moved to Leeds.", True),
    ("Врач сказал, что пенициллин мне нельзя.", False),
    ("Я купил Марине цветы.", False),                  # the person did it
    ("Записался к стоматологу, клиника на Ленина.", False),  # a street, not a person
    ("Пью витамин D по 2000 единиц.", False),
])
def test_a_record_naming_someone_without_the_person_is_about_someone_else(
        text: str, other: bool) -> None:
    assert kin.about_someone_else(text) is other

