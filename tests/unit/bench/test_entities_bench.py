"""How the entity bench scores a read entity against a hand label: the label format's "thing"
covers owned objects, vehicles and devices, so a car the reader types as a vehicle is found, not
missed; a label that asks for a vehicle still asks for one. A kin or friend label is one fact
whichever way its author wrote it between the person and the relative."""

from graph.models import Entity, EntityType, Relation, RelationType
from wave_agent.bench.entities import PartScore, _score_entities, _score_relations


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


def test_a_relative_labelled_towards_the_person_is_the_link_the_reader_stores() -> None:
    me, son_in_law = _read("я", EntityType.PERSON), _read("Андрей", EntityType.PERSON)
    stated = [Relation(user_id="u", source_id=me.id, target_id=son_in_law.id,
                       type=RelationType.KIN, role="son_in_law")]
    for label in ({"from": "user", "type": "kin:son-in-law", "to": "Андрей"},
                  {"from": "Андрей", "type": "kin:son-in-law", "to": "user"}):
        score = PartScore()
        _score_relations(score, "ru", {"id": "ru-x-s01", "relations": [label]}, stated,
                         {me.id: me, son_in_law.id: son_in_law})
        assert (score.relations["ru/kin"].tp, score.relations["ru/all"].fp) == (1, 0), label


def test_json_keeps_a_tuning_parts_misses_only_when_shown_and_never_a_kept_aside_parts() -> None:
    from wave_agent.cli.bench_entities_cmd import printable

    parts = [{"part": "tuning_9", "tuning": True, "misses": [{"extra": "Лола"}]},
             {"part": "kept_aside", "tuning": False, "misses": [{"extra": "Секрет"}]}]
    assert all("misses" not in p for p in printable(parts, show=False))
    shown = printable(parts, show=True)
    assert shown[0]["misses"] == [{"extra": "Лола"}]
    assert "misses" not in shown[1]
