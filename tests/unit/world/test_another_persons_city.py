"""Another person's city is read only where that person can be the one who lives there: said
in the nominative, or beside a subject of their own. When the parse links a person the speaker
only met in a city to that city ("w Gdańsku ... poznałem Tomka"), the person is given no city,
so a later "Tomek jest już w Poznaniu" raises no contradiction. Sentences of our own, not a
month's; the parse's link is given, as the learned relation model gives it on such a sentence."""

from __future__ import annotations

import pytest

from graph.models import EntityType
from wave_agent.world.attributes import read_values
from wave_agent.world.reading import Link, Mention, Reading


def cities(text: str, who: str, place: str, lang: str) -> set[tuple[str, str]]:
    reading = Reading(mentions=(Mention(place, EntityType.PLACE), Mention(who, EntityType.PERSON)),
                      links=(Link(who, "lives_in", place),), language=lang)
    return {(v.entity, v.value) for v in read_values(text, reading) if v.attribute == "city"}


@pytest.mark.parametrize(("text", "who", "place", "lang"), [
    ("Rok pracowałem w Gdańsku — tam poznałem Tomka.", "Tomek", "Gdańsk", "pl"),
    ("Na konferencji w Gdańsku poznałam Agnieszkę.", "Agnieszka", "Gdańsk", "pl"),
    ("Год жила в Твери, там познакомилась с Олей.", "Оля", "Тверь", "ru"),
])
def test_someone_met_in_a_city_is_given_no_city(text: str, who: str, place: str,
                                                lang: str) -> None:
    assert (who, place) not in cities(text, who, place, lang)


@pytest.mark.parametrize(("text", "who", "place", "lang"), [
    ("Tomek mieszka w Poznaniu.", "Tomek", "Poznań", "pl"),
    ("Познакомилась с Олей, она живёт в Твери.", "Оля", "Тверь", "ru"),
    ("Мы с Олей переезжаем в Тверь.", "Оля", "Тверь", "ru"),
    ("Встречаюсь с Денисом, живём отдельно, он в Твери.", "Денис", "Тверь", "ru"),
])
def test_a_person_who_can_live_there_keeps_their_city(text: str, who: str, place: str,
                                                      lang: str) -> None:
    assert (who, place) in cities(text, who, place, lang)
