"""A child of the person's own said by name, school and age with no kin word is the person's
child, so a later "детей у меня нет" is a contradiction raised against it (issue 30: on four
blind months in a row the denial was not raised, the child having been said only as "Лёву
отвела в школу. первоклашка мой" or "Мише 7, он в первом классе"). Someone else's child, an
adult named beside a school, and a held child named in a clause with "не" raise nothing.
Sentences of our own, not a month's."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime

import pytest

from graph.models import Fact, FactType, Status, Tier, Veracity
from wave_agent.write.attributes import decide, held_values, read

NOW = datetime(2026, 11, 1, tzinfo=UTC)


def _fact(id_: str, text: str, *values: str) -> Fact:
    return Fact(id=id_, user_id="u", text=text, type=FactType.EVENT, tier=Tier.OBSERVATION,
                status=Status.ACTIVE, veracity=Veracity.STATED, confidence=1.0, created_at=NOW,
                last_confirmed_at=NOW, attributes=values)


def said_first_then(first: str, later: str) -> list[str]:
    """The ids of the records the later statement raises a contradiction with, the first one
    stored as the writer stores it (with the values read from it)."""
    values = asyncio.run(read(first, []))
    held = held_values([_fact("first", first, *(v.encode() for v in values))])
    denied = held_values([_fact("first", first, *(v.encode() for v in values))],
                         ops=("negate",))
    outcome = decide(asyncio.run(read(later, held)), held, "later", denied)
    return [f.id for f, _ in outcome.contradicts]


@pytest.mark.parametrize("first", [
    "Сегодня отвела Варю в садик, у двери опять рыдала",
    "Моему Тёме восемь, он во втором классе",
    "Глебу 6, он у меня в подготовительной группе в саду",
    "Саше 9, она в третьем классе, ходит на плавание",
    "забрал Ярика из школы, третьеклассник мой совсем вымотался",
])
@pytest.mark.parametrize("later", [
    "детей у меня нет, так что в выходные могу работать",
    "у меня ни детей, ни собаки, живу как хочу",
])
def test_a_child_said_by_name_is_contradicted_by_no_children(first: str, later: str) -> None:
    assert said_first_then(first, later) == ["first"]


@pytest.mark.parametrize("first", [
    "у Кати сын Лёва, первоклашка",
    "Маше 7, она дочка подруги, пошла в первый класс",
    "Ане 30, она учитель в школе",
    "с Викой ходили в школу танцев, ей понравилось",
    "Мише 7",
])
def test_someone_elses_child_or_an_adult_is_not_the_persons(first: str) -> None:
    assert said_first_then(first, "детей у меня нет, так что в выходные могу работать") == []


@pytest.mark.parametrize("first", [
    "Мой сын Лёва пошёл в первый класс",
    "Лёву отвела в школу, первоклашка мой",
])
def test_a_held_child_named_beside_a_negation_is_not_denied(first: str) -> None:
    assert said_first_then(first, "Лёве пока не сказала про переезд, не знаю как") == []
    assert said_first_then(first, "без мультиков Лёва не засыпает, хоть убей") == []
