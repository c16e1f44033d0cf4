"""The speaker's own name in a profile (issue 29, round twenty-eight): a statement that opens
with a name and an age ("Марат, 39. Самара."), or says "Рустам меня зовут" / "Меня Марина
зовут", introduces the speaker, not a third person; what it says of the name is theirs. A
relative named with the age after a role word or after a sentence counting children stays a
person."""

from __future__ import annotations

from graph.models import EntityType
from wave_agent.world import read
from wave_agent.world.reading import USER


def _people(text: str) -> set[str]:
    return {m.name for m in read(text).mentions if m.type is EntityType.PERSON}


def test_a_profile_opening_with_a_name_and_an_age_is_the_speaker() -> None:
    assert "Марат" not in _people("Марат, 39. Самара. Прораб в «СтройДоме».")
    links = read("Геннадий, 52 года, живу в Перми.").links
    assert {(link.source, link.type) for link in links} == {(USER, "lives_in")}


def test_a_greeting_before_the_profile_still_leaves_the_speaker() -> None:
    assert "Эльвира Рашидовна" not in _people(
        "Добрый день. Эльвира Рашидовна, 61 год, живу в Стерлитамаке.")


def test_the_name_before_or_inside_menya_zovut_is_the_speaker() -> None:
    assert "Артур" not in _people("Артур меня зовут, живу в Брянске, работаю на складе.")
    assert "Вероника" not in _people("Всем привет! Меня Вероника зовут, учусь в колледже.")


def test_a_relative_with_an_age_stays_a_person() -> None:
    assert "Ильдар" in _people("Сын Ильдар, 9 лет, ходит на борьбу.")
    assert "Ильдар" in _people("трое детей. Ильдар 9 лет, Алсу 6, Камила 2.")


def test_a_name_with_a_number_that_is_no_age_stays_a_person() -> None:
    assert "Олег" in _people("Олег, 5 км пробежал сегодня без остановки.")
