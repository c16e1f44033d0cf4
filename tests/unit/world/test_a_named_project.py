"""A project named by a naming word (round thirty-eight, issue 29's part_of): "пилим с Пашей
бота, назвали Сводка" makes "Сводка" a project the speaker and Паша are part of
(``russian._Builder._named_project``), while a pet's, a child's or a car's name given the same
way stays what it was."""

from __future__ import annotations

from graph.models import EntityType
from wave_agent.world.reader import rule_readings
from wave_agent.world.reading import USER, Link


def _rules(text: str):  # type: ignore[no-untyped-def]
    return rule_readings([text], learned_nouns=False)[0]


def _kind(reading, name: str) -> EntityType | None:  # type: ignore[no-untyped-def]
    return next((m.type for m in reading.mentions if m.name == name), None)


def test_a_bot_we_make_and_name_is_our_project() -> None:
    reading = _rules("по выходным пилим с Пашей телеграм-бота для учёта смен, назвали Сводка.")
    assert _kind(reading, "Сводка") is EntityType.PROJECT
    assert Link(USER, "part_of", "Сводка") in reading.links
    assert Link("Паша", "part_of", "Сводка") in reading.links


def test_everyone_after_with_makes_it() -> None:
    reading = _rules("с Костей и Ильёй пилим приложение для заметок, называется черновик.")
    assert Link(USER, "part_of", "черновик") in reading.links
    assert Link("Костя", "part_of", "черновик") in reading.links
    assert Link("Илья", "part_of", "черновик") in reading.links


def test_someone_elses_project_is_not_the_speakers() -> None:
    reading = _rules("брат Олег запустил свой сервис для автомоек, называется Пена.")
    assert Link("Олег", "part_of", "Пена") in reading.links
    assert Link(USER, "part_of", "Пена") not in reading.links


def test_a_pet_a_child_and_a_car_named_are_no_project() -> None:
    for text, name in (("взяли котёнка из приюта, назвали Пряник.", "Пряник"),
                       ("у сестры родился сын, назвали Мироном.", "Мирон"),
                       ("купили машину, назвали её Ласточка.", "Ласточка")):
        reading = _rules(text)
        assert _kind(reading, name) is not EntityType.PROJECT, text
        assert not any(link.type == "part_of" for link in reading.links), text
