"""Short names and colloquial city names read as the full ones they stand for."""

from __future__ import annotations

from graph.models import EntityType
from wave_agent.world.reader import read


def _mention(text: str, kind: EntityType, name: str) -> tuple[str, ...]:
    reading = read(text)
    found = [m for m in reading.mentions if m.type is kind and m.name == name]
    assert found, reading
    return found[0].aliases


def test_a_diminutive_carries_its_full_name() -> None:
    assert "Виктор" in _mention("Витя вчера починил машину.", EntityType.PERSON, "Витя")
    assert "Сергей Бахтин" in _mention("Серёга Бахтин переехал к нам.", EntityType.PERSON,
                                       "Серёга Бахтин")


def test_a_colloquial_city_is_the_city() -> None:
    assert "Санкт-Петербург" in _mention("Живу в Питере третий год.", EntityType.PLACE, "Питер")
    assert "Новосибирск" in _mention("Я из Новосиба.", EntityType.PLACE, "Новосиб")


def test_an_emoji_is_no_mention() -> None:
    reading = read("Завели собаку, Бублик 😄")
    assert all(any(ch.isalnum() for ch in m.name) for m in reading.mentions), reading
    assert all(any(ch.isalnum() for ch in end) for link in reading.links
               for end in (link.source, link.target)), reading


def test_one_person_said_two_ways_side_by_side_is_one_person() -> None:
    # round twenty-eight: the second name set off by a comma or a bracket is an alias
    people = [m for m in read("Муж Ренат (все зовут его Реня) работает сварщиком.").mentions
              if m.type is EntityType.PERSON]
    assert [m.name for m in people] == ["Ренат"] and "Реня" in people[0].aliases
    people = [m for m in read("Соседка Тамара, Тамара Ильинична, зовёт на чай.").mentions
              if m.type is EntityType.PERSON]
    assert [m.name for m in people] == ["Тамара Ильинична"]


def test_a_list_of_people_stays_several_people() -> None:
    names = {m.name for m in read("На дачу приехали Гена, Петя и Лёша.").mentions
             if m.type is EntityType.PERSON}
    assert len(names) == 3
