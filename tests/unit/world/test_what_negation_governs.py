"""A held pastime, pet or habit is denied only when the negation governs the word it is named by
(``world.denial.negation_governs``): "сил нет", "времени нет", "денег нет" deny the strength,
the time, the money, not the knitting or the yoga said beside them, and raise no question of
which is true; the person's own "йоги у меня больше нет" or "не вяжу" still does. Sentences of
our own, not a month's."""

from __future__ import annotations

import pytest

from tests.support.held_attributes import acts_on_held, held_fact

HELD = [held_fact("knit", "Начала вязать, купила спицы", "user|hobby|вязание|add"),
        held_fact("yoga", "Хожу на йогу по средам", "user|hobby|йога|add"),
        held_fact("smoke", "Курю, уже лет десять", "user|habit|курение|add")]


@pytest.mark.parametrize("text", [
    "весь день на ногах, даже вязать сил нет",
    "на йогу на этой неделе времени нет",
    "для вязания хорошей пряжи в городе нет",
    "курить выйти сил нет, так устала",
])
def test_a_negation_of_another_noun_leaves_the_held_value_alone(text: str) -> None:
    assert not acts_on_held(text, HELD)


@pytest.mark.parametrize("text", [
    "йоги у меня больше нет в жизни, честно",
    "я не вяжу, это мама вяжет",
    "не курю и никогда не курила",
])
def test_the_person_s_own_denial_of_the_held_value_still_acts(text: str) -> None:
    assert acts_on_held(text, HELD)
