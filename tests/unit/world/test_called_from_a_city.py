"""Another person's city said in passing, by a call or a letter from it ("мама звонила из
Самары", "Кирилл звонил из Самары"): their city, so the city said the other way later ("он в
Твери живёт") is a contradiction; someone coming back from a town is given no city, nor is the
speaker calling from one. Polish "Mama dzwoniła z Wrocławia" is not read so (on the tuning
months it raised two false alarms for one contradiction; issue 30, round thirty-three).
Sentences of our own; the parse's link is given as the world reader gives it."""

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


@pytest.mark.parametrize(("text", "who", "place"), [
    ("Кирилл звонил из Самары, говорит у них уже снег лежит", "Кирилл", "Самара"),
    ("мама звонила из Сызрани, зовёт на выходные", "role:mother", "Сызрань"),
    ("Оля написала из Твери, что приедет в мае", "Оля", "Тверь"),
])
def test_someone_calling_from_a_city_lives_there(text: str, who: str, place: str) -> None:
    assert cities(text, who, place, "ru") == {(who, place)}


@pytest.mark.parametrize(("text", "who", "place", "lang"), [
    ("Олег приехал из Омска на неделю", "Олег", "Омск", "ru"),       # a visit
    ("Олег вернулся из Омска, звонил вечером", "Олег", "Омск", "ru"),  # the call is not from it
    ("Mama dzwoniła z Wrocławia", "Mama", "Wrocław", "pl"),          # not read in Polish
])
def test_someone_coming_from_a_city_is_given_no_city(text: str, who: str, place: str,
                                                      lang: str) -> None:
    assert not cities(text, who, place, lang)


def test_the_city_said_the_other_way_later_is_a_contradiction() -> None:
    called = fact("f1", "Кирилл|city|Самара|set")
    decision = decide([Value("Кирилл", "city", "Тверь", "set")], held_values([called]), "new",
                      news=False)
    assert [f.id for f, _ in decision.contradicts] == ["f1"] and not decision.replaces
