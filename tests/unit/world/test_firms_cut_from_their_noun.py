"""A firm's name of two words the NER cut at the first (issue 29, round twenty-nine): after a
preposition the firm's own word keeps its form and the common noun after it carries the case
("в яндекс лавке", "из газпром нефти"); the firm is the two words with the noun in the
nominative, and the workplace link names it. A firm whose own word takes the case, or one
followed by a time or an adverb, is the one word as before."""

from __future__ import annotations

from graph.models import EntityType
from wave_agent.world import read
from wave_agent.world.reading import Reading


def _firms(reading: Reading) -> set[str]:
    return {m.name for m in reading.mentions if m.type is EntityType.ORGANISATION}


def _workplaces(reading: Reading) -> set[str]:
    return {link.target for link in reading.links if link.type == "works_at"}


def test_a_firm_cut_from_the_noun_carrying_its_case_is_the_two_words() -> None:
    reading = read("сестра вторую неделю работает сборщицей в яндекс лавке")
    assert _firms(reading) == {"Яндекс Лавка"}
    assert "Яндекс Лавка" in _workplaces(reading)


def test_the_genitive_after_iz_joins_the_noun_too() -> None:
    reading = read("Муж ушёл из Газпром нефти, теперь дома сидит.")
    assert _firms(reading) == {"Газпром Нефть"}


def test_a_firm_that_takes_the_case_itself_stays_one_word() -> None:
    reading = read("Работаю в Яндексе курьером.")
    assert _firms(reading) == {"Яндекс"}
    assert "Яндекс" in _workplaces(reading)


def test_a_time_or_an_adverb_after_the_firm_is_no_part_of_it() -> None:
    assert _firms(read("Перешла в Озон год назад.")) == {"Озон"}
    assert "Авито Тут" not in _firms(read("Знакомая из Авито тут рассказала новости."))
