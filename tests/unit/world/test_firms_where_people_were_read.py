"""Firms the reader took for people or kept as firms though they were things (issue 29, round
twenty-eight): a name after a preposition of place that the dictionary knows as no one's name
is a firm ("ушёл с Трубмаша"), while a person there stays a person ("с Игорем", "женился на
Маше"); a quoted name no link ties to a workplace, judged again by the noun model, is the car
sold, not a firm, and a firm someone works at stays a firm."""

from __future__ import annotations

from graph.models import EntityType
from wave_agent.world import read


def _kinds(text: str) -> dict[str, EntityType]:
    return {m.name: m.type for m in read(text).mentions}


def test_a_works_name_after_s_in_the_genitive_is_a_firm_not_a_person() -> None:
    kinds = _kinds("Брат ушёл с Трубмаша на Кировский завод.")
    assert EntityType.PERSON not in kinds.values()
    assert kinds.get("Трубмаш") is EntityType.ORGANISATION


def test_people_after_the_same_prepositions_stay_people() -> None:
    assert _kinds("Гуляли с Игорем по парку.").get("Игорь") is EntityType.PERSON
    assert _kinds("Женился на Маше в прошлом году.").get("Маша") is EntityType.PERSON


def test_a_quoted_car_sold_is_no_firm() -> None:
    kinds = _kinds("Продала «Ниву» племяннику, сама уже не вожу.")
    assert EntityType.ORGANISATION not in kinds.values()


def test_a_quoted_firm_someone_works_at_stays_a_firm() -> None:
    assert _kinds("Работаю в «Горводоканале» инженером.").get(
        "Горводоканал") is EntityType.ORGANISATION
