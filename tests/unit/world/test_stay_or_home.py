"""A stay is not a home (round thirty-one): "мы сейчас в Сочи на выходных" is said with the
same "в + town" as a home, and the relation model has to read what stands beside the town (a
time phrase, an adverb) to tell a weekend or a holiday from where the person lives
(``world.governor.beside_features``). The sentences are this test's own, in no labelled set."""

from __future__ import annotations

import pytest

from wave_agent.world import read
from wave_agent.world.governor import beside_features
from wave_agent.world.reader import parsed
from wave_agent.world.reading import USER


def _beside(text: str, target: str) -> list[str]:
    words = parsed([text])[0].words
    t = next(i for i, w in enumerate(words) if w.text.startswith(target))
    return beside_features(words, t)


def _lives(text: str) -> set[str]:
    return {link.target for link in read(text).links
            if link.source == USER and link.type == "lives_in"}


def test_a_time_phrase_beside_the_town_is_read() -> None:
    features = _beside("мы сейчас в Казани на выходных", "Казани")
    assert "syn:bes:NOUN|на|Loc" in features
    assert "syn:besl:выходной|на" in features
    assert any(f.startswith("syn:besl:сейчас") for f in features)


def test_a_bare_home_has_nothing_beside_it() -> None:
    assert _beside("Я живу в Твери.", "Твери") == ["syn:bes:none"]


@pytest.mark.parametrize("text", [
    "мы сейчас в Геленджике на выходных",
    "Этим летом отдыхали в Анапе с детьми",
    "Мы на каникулах в Питере у бабушки",
    "На майские были в Калининграде, погуляли по острову",
    "Я в отпуске в Анапе, вернусь в понедельник",
    "я сейчас в Казани в командировке до пятницы",
])
def test_a_weekend_or_a_holiday_is_not_where_the_speaker_lives(text: str) -> None:
    """A user who says where they spent a weekend does not find that town as their city."""
    assert _lives(text) == set(), text


@pytest.mark.parametrize(("text", "town"), [
    ("Мы переехали в Калугу в прошлом месяце.", "Калуга"),
    ("Я живу в Твери уже десять лет.", "Тверь"),
    ("Я в Твери, на пенсии уже", "Тверь"),
])
def test_a_move_or_a_home_is_still_read(text: str, town: str) -> None:
    assert _lives(text) == {town}, text


def test_a_clause_says_whose_it_is() -> None:
    """"… а сын Миша пошёл в первый класс и занимается футболом": the hobby's clause names
    Миша, not the sister named in the clause before, nor the speaker."""
    from wave_agent.world.governor import clause_person

    text = ("Моя сестра Дина живёт в Твери, а сын Миша пошёл в первый класс и занимается "
            "футболом.")
    words = parsed([text])[0].words
    at = {w.text: i for i, w in enumerate(words)}
    people = {at["Дина"], at["Миша"]}
    assert clause_person(words, at["футболом"], at["Миша"], people) == "syn:clp:source"
    assert clause_person(words, at["футболом"], at["Дина"], people) == "syn:clp:other"
    assert clause_person(words, at["футболом"], None, people) == "syn:clp:other"
    assert clause_person(words, at["Твери"], at["Дина"], people) == "syn:clp:source"


def test_another_persons_town_with_a_noun_beside_it_is_still_theirs() -> None:
    """Only the speaker's own "я в отпуске в X" is left to the pair model: on the older authors
    another person's "в X на руднике / с детьми" was where they live as often as not."""
    links = {(link.source, link.type, link.target) for link in read(
        "Брат Денис в Ростове на пенсии").links}
    assert ("Денис", "lives_in", "Ростов") in links
