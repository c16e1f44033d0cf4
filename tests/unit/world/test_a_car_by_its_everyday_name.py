"""A car said by its everyday name (round thirty-nine, issues 29 and 30's owns): "езжу на
камри" is the speaker's Toyota Camry, "продала Рио ... взяла Шкоду Октавию" owns both (a sold
car was owned: the link is stated), the make and model learned from the labels
(``wave_agent/world/car_names.json``, ``scripts/car_names.py``) with the word as said an alias,
while a trip "на Волгу" owns nothing."""

from __future__ import annotations

from graph.models import EntityType
from wave_agent.world import car_names
from wave_agent.world.reader import rule_readings
from wave_agent.world.reading import USER, Link


def _rules(text: str):  # type: ignore[no-untyped-def]
    return rule_readings([text], learned_nouns=False)[0]


def _mention(reading, name: str):  # type: ignore[no-untyped-def]
    return next((m for m in reading.mentions if m.name == name), None)


def test_the_table_reads_an_everyday_name_as_make_and_model() -> None:
    assert car_names.name_of("камри") == "Toyota Camry"
    assert car_names.name_of("Солярис") == "Hyundai Solaris"
    assert car_names.name_of("машина") is None  # a noun of a kind names no make
    assert car_names.name_of("шкоду октавию") is not None  # by its stems


def test_driving_a_camry_owns_a_toyota_camry() -> None:
    reading = _rules("езжу на камри 2017г, не жалуюсь")
    assert Link(USER, "owns", "Toyota Camry") in reading.links
    camry = _mention(reading, "Toyota Camry")
    assert camry is not None and camry.type is EntityType.VEHICLE and "камри" in camry.aliases


def test_one_car_sold_and_another_bought_are_both_owned() -> None:
    reading = _rules("продала Рио за 620 тысяч и сразу взяла Шкоду Октавию 2019 года")
    owned = {link.target for link in reading.links if link.source == USER and link.type == "owns"}
    assert "Рио" in owned
    assert any("Октави" in name for name in owned)
    assert _mention(reading, "Рио").type is EntityType.VEHICLE  # not Rio de Janeiro


def test_my_solaris_and_a_husbands_cruiser() -> None:
    assert Link(USER, "owns", "Hyundai Solaris") in _rules("мой солярис опять не завёлся").links
    reading = _rules("Муж купил крузак")
    assert Link("role:husband", "owns", "Toyota Land Cruiser 100") in reading.links
    assert Link(USER, "owns", "Toyota Land Cruiser 100") not in reading.links


def test_a_trip_to_the_volga_owns_nothing() -> None:
    reading = _rules("летом ездили на Волгу с детьми")
    assert not [link for link in reading.links if link.type == "owns"]
