"""A Russian place or firm the rules read is told apart by its e5 vectors (``world.span_kinds``,
round thirty-six, issue 29): a firm the rules took for a town becomes an organisation and no one
lives in it; towns stay places."""

from __future__ import annotations

from graph.models import EntityType
from wave_agent.world import span_kinds
from wave_agent.world.reader import read
from wave_agent.world.reading import Link, Mention, Reading


def test_a_firm_read_as_a_town_is_where_one_works_not_lives() -> None:
    reading = read("Я бухгалтер в Томскэнергосбыте уже пятый год.")
    firm = reading.mention("Томскэнергосбыт")
    assert firm is not None and firm.type is EntityType.ORGANISATION
    assert Link("user", "lives_in", "Томскэнергосбыт") not in reading.links
    assert Link("user", "works_at", "Томскэнергосбыт") in reading.links


def test_a_bus_firm_is_a_firm() -> None:
    firm = read("Папа водит автобус в Самаратрансе.").mention("Самаратранс")
    assert firm is not None and firm.type is EntityType.ORGANISATION


def test_towns_stay_places() -> None:
    reading = read("Мы переехали в Тюмень, а родители остались в Тобольске.")
    for town in ("Тюмень", "Тобольск"):
        mention = reading.mention(town)
        assert mention is not None and mention.type is EntityType.PLACE
    assert Link("user", "lives_in", "Тюмень") in reading.links


def test_only_russian_readings_are_judged() -> None:
    english = Reading(mentions=(Mention("Samaratrans", EntityType.PLACE),), language="en")
    assert span_kinds.retype("I work at Samaratrans.", english) is english


def test_a_bot_read_as_a_firm_is_a_project_no_one_works_at() -> None:
    # round thirty-eight: the organisations' model in span_kinds.npz
    text = "пилю по вечерам свой пет-проект, бот с расписанием электричек, назвал «электрон»"
    firm = Reading(mentions=(Mention("электрон", EntityType.ORGANISATION),),
                   links=(Link("user", "works_at", "электрон"),), language="ru")
    judged = span_kinds.retype(text, firm)
    bot = judged.mention("электрон")
    assert bot is not None and bot.type is EntityType.PROJECT
    assert Link("user", "works_at", "электрон") not in judged.links


def test_a_steel_works_stays_a_firm_one_works_at() -> None:
    reading = read("Муж устроился в «Северсталь» сварщиком.")
    firm = reading.mention("Северсталь")
    assert firm is not None and firm.type is EntityType.ORGANISATION
    assert any(k.type == "works_at" and k.target == "Северсталь" for k in reading.links)
