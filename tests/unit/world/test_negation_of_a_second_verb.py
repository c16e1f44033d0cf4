"""A "не" said after a conjunction negates the second verb, not the place said with the first:
"жить в Калининграде и не есть рыбу — преступление" denies eating fish, not the city, and raised
month 36's false alarm against "Всё, мы в Калининграде!". The person's own "в Москве я больше не
живу" still ends the city. Sentences of our own, not a month's."""

from __future__ import annotations

import pytest

from tests.support.held_attributes import contradicted_by


@pytest.mark.parametrize("later", [
    "Короче, жить в Калининграде и не есть рыбу — преступление.",
    "я в Калининграде и не собираюсь никуда уезжать",
])
def test_a_negated_second_verb_does_not_deny_the_city(later: str) -> None:
    assert contradicted_by("Всё, мы переехали в Калининград!", later) == []


def test_a_negation_of_the_living_itself_still_says_the_city_is_not_home() -> None:
    assert contradicted_by("Я живу в Казани", "я живу не в Казани, а в Самаре") == ["first"]
