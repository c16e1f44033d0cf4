"""How the entity bench scores a read entity against a hand label: the label format's "thing"
covers owned objects, vehicles and devices, so a car the reader types as a vehicle is found, not
missed; a label that asks for a vehicle still asks for one. A relative labelled toward the person
is read from the person, as the reader links it."""

import json

from graph.models import Entity, EntityType
from wave_agent.bench.entities import PartScore, _score_entities, load_part


def _statement(*labels: tuple[str, str]) -> dict:
    return {"id": "ru-x-s01", "entities": [{"name": n, "type": t} for n, t in labels]}


def _read(name: str, kind: EntityType) -> Entity:
    return Entity(id=name, user_id="u", name=name, type=kind)


def test_a_car_read_as_a_vehicle_answers_a_thing_label() -> None:
    score = PartScore()
    _score_entities(score, "ru", _statement(("Лада Веста", "thing"), ("ноутбук", "thing")),
                    [_read("Лада Веста", EntityType.VEHICLE), _read("ноутбук", EntityType.DEVICE)])
    assert score.entities["ru/thing"].tp == 2
    assert score.entities["ru/all"].fn == 0 and score.entities["ru/all"].fp == 0


def test_a_vehicle_label_is_not_answered_by_a_place() -> None:
    score = PartScore()
    _score_entities(score, "ru", _statement(("Нива", "vehicle")), [_read("Нива", EntityType.PLACE)])
    assert score.entities["ru/vehicle"].fn == 1
    assert score.entities["ru/place"].fp == 1


def test_a_thing_label_is_not_answered_by_a_person_of_the_same_name() -> None:
    score = PartScore()
    _score_entities(score, "ru", _statement(("Алиса", "thing")), [_read("Алиса", EntityType.PERSON)])
    assert score.entities["ru/all"].tp == 0 and score.entities["ru/thing"].fn == 1


def test_a_relative_labelled_toward_the_person_is_read_from_the_person(tmp_path) -> None:
    # "Дочка у меня Света": one writer wrote Светлана -> user, most write user -> Светлана;
    # both name Светлана the daughter, so the reader's user -> Светлана link must score right.
    part = tmp_path / "tuning_x.json"
    part.write_text(json.dumps({"name": "x", "people": [{"id": "ru-a", "lang": "ru", "statements": [
        {"id": "s1", "text": "Дочка у меня Света, живёт в Тольятти", "entities": [],
         "relations": [{"from": "Светлана", "type": "kin:daughter", "to": "user"},
                       {"from": "Светлана", "type": "lives_in", "to": "Тольятти"},
                       {"from": "Мурка", "type": "pet_of", "to": "user"}]}]}]}),
        encoding="utf-8")
    relations = load_part(part)["people"][0]["statements"][0]["relations"]
    assert relations[0] == {"from": "user", "type": "kin:daughter", "to": "Светлана"}
    # the other labels keep their direction: it is not the relative's role that names them
    assert relations[1]["from"] == "Светлана" and relations[2]["from"] == "Мурка"
