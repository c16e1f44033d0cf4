"""A child of the person's own said by name, school and age with no kin word is the person's
child, so a later "детей у меня нет" is a contradiction raised against it (issue 30: on four
blind months in a row the denial was not raised, the child having been said only as "Лёву
отвела в школу. первоклашка мой" or "Мише 7, он в первом классе"). Someone else's child, an
adult named beside a school, and a held child named in a clause with "не" raise nothing.
Sentences of our own, not a month's."""

from __future__ import annotations

import pytest

from tests.support.held_attributes import contradicted_by


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
    assert contradicted_by(first, later) == ["first"]


@pytest.mark.parametrize("first", [
    "у Кати сын Лёва, первоклашка",
    "Маше 7, она дочка подруги, пошла в первый класс",
    "Ане 30, она учитель в школе",
    "с Викой ходили в школу танцев, ей понравилось",
    "Мише 7",
    "Лена моя лучшая подруга ещё со школы",
    "Оля, соседка моя, в садик устроилась воспитателем",
])
def test_someone_elses_child_or_an_adult_is_not_the_persons(first: str) -> None:
    assert contradicted_by(first, "детей у меня нет, так что в выходные могу работать") == []


@pytest.mark.parametrize("first", [
    "Мой сын Лёва пошёл в первый класс",
    "Лёву отвела в школу, первоклашка мой",
])
def test_a_held_child_named_beside_a_negation_is_not_denied(first: str) -> None:
    assert contradicted_by(first, "Лёве пока не сказала про переезд, не знаю как") == []
    assert contradicted_by(first, "без мультиков Лёва не засыпает, хоть убей") == []
