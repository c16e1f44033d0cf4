"""An organisation named after someone ("больница имени Семашко") is one organisation by its
whole name, and the person it is named after is no one the statement speaks of
(``russian._Builder._named_after``, round thirty-four, issue 29)."""

from __future__ import annotations

from graph.models import EntityType
from wave_agent.world.reader import rule_readings
from wave_agent.world.reading import Link


def _read(text: str):  # type: ignore[no-untyped-def]
    return rule_readings([text], learned_nouns=False)[0]


def test_a_hospital_named_after_someone_is_where_mum_works() -> None:
    reading = _read("Мама работает в больнице имени Семашко.")
    hospital = reading.mention("больница имени Семашко")
    assert hospital is not None and hospital.type is EntityType.ORGANISATION
    assert Link("role:mother", "works_at", "больница имени Семашко") in reading.links


def test_the_honoree_is_no_person_of_the_statement() -> None:
    reading = _read("Амина ходит в музыкальную школу имени Жиганова.")
    school = reading.mention("музыкальная школа имени Жиганова")
    assert school is not None and school.type is EntityType.ORGANISATION
    assert not any("Жиганов" in m.name and m.type is EntityType.PERSON
                   for m in reading.mentions)


def test_a_university_read_by_its_letters_keeps_them_as_an_alias() -> None:
    reading = _read("Артём поступил в МГТУ имени Баумана, на информатику!")
    university = reading.mention("МГТУ имени Баумана")
    assert university is not None and "МГТУ" in university.aliases
    assert Link("Артём", "studies_at", "МГТУ имени Баумана") in reading.links


def test_a_house_of_culture_named_after_someone_is_one_organisation() -> None:
    reading = _read("Хожу в хор ветеранов при Доме культуры имени Кирова, поём по средам.")
    assert [m.name for m in reading.mentions if m.type is EntityType.ORGANISATION] == [
        "Дом культуры имени Кирова"]


def test_the_short_form_of_the_word_is_the_same_name() -> None:
    reading = _read("Алсу учится в музыкальном колледже им. Аухадеева.")
    college = reading.mention("музыкальный колледж имени Аухадеева")
    assert college is not None and "музыкальный колледж им. Аухадеева" in college.aliases


def test_a_street_or_a_park_named_after_someone_is_no_organisation() -> None:
    for text in ("Живу на улице имени Ленина.", "Гуляли в парке имени Горького."):
        assert not any(m.type is EntityType.ORGANISATION for m in _read(text).mentions), text
