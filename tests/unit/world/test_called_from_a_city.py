"""Another person's city said in passing, by a call or a letter from it ("мама звонила из
Самары", "Mama dzwoniła z Wrocławia"), in Russian and Polish: their city, under one holder in
both languages (the Polish reader's "Mama" is the Russian reader's ``role:mother``), so the
mother's city said the other way later is a contradiction; a place written in the other
alphabet ("Gdańska" / "Гданьск") is the same place, not a change (issue 30, round
thirty-three). Sentences of our own; the parse's link is given as the world reader gives it."""

from __future__ import annotations

import pytest

from graph.models import EntityType
from tests.unit.world.test_attribute_decisions import fact
from wave_agent.world.attributes import Value, read_values
from wave_agent.world.reading import Link, Mention, Reading
from wave_agent.write.attributes import decide, held_values


def cities(text: str, who: str, place: str, lang: str) -> set[tuple[str, str]]:
    reading = Reading(mentions=(Mention(place, EntityType.PLACE), Mention(who, EntityType.PERSON)),
                      links=(Link(who, "lives_in", place),), language=lang)
    return {(v.entity, v.value) for v in read_values(text, reading) if v.attribute == "city"}


@pytest.mark.parametrize(("text", "who", "place", "lang", "holder"), [
    ("Mama dzwoniła z Wrocławia, trzeba wymyślić jakiś prezent", "Mama", "Wrocław", "pl",
     "role:mother"),
    ("Tata napisał z Gdańska, że pada", "Tata", "Gdańsk", "pl", "role:father"),
    ("Кирилл звонил из Самары, говорит у них уже снег лежит", "Кирилл", "Самара", "ru", "Кирилл"),
])
def test_someone_calling_from_a_city_lives_there(text: str, who: str, place: str, lang: str,
                                                 holder: str) -> None:
    assert cities(text, who, place, lang) == {(holder, place)}


@pytest.mark.parametrize(("text", "who", "place", "lang"), [
    ("Kasia wróciła z Gdańska", "Kasia", "Gdańsk", "pl"),       # back from a trip
    ("Олег приехал из Омска на неделю", "Олег", "Омск", "ru"),
])
def test_someone_coming_back_from_a_city_is_given_no_city(text: str, who: str, place: str,
                                                          lang: str) -> None:
    assert not cities(text, who, place, lang)


def test_the_mothers_city_said_in_another_language_is_a_contradiction_the_same_one_is_not(
) -> None:
    polish = fact("f1", "role:mother|city|Wrocław|set")
    said = [Value("role:mother", "city", "Самара", "set")]
    decision = decide(said, held_values([polish]), "new", news=False)
    assert [f.id for f, _ in decision.contradicts] == ["f1"] and not decision.replaces
    father = fact("f2", "role:father|city|Гданьск|set")
    again = decide([Value("role:father", "city", "Gdańska", "set")], held_values([father]),
                   "new", news=False)
    assert not again.acts  # the same city in the Polish reader's letters
