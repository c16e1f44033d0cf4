"""A held pastime, pet or habit is denied only when the negation governs the word it is named by
(``world.denial.negation_governs``): "сил нет", "времени нет", "денег нет" deny the strength,
the time, the money, not the knitting or the yoga said beside them, and raise no question of
which is true; the person's own "йоги у меня больше нет" or "не вяжу" still does. Sentences of
our own, not a month's."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime

import pytest

from graph.models import Fact, FactType, Status, Tier, Veracity
from wave_agent.write.attributes import decide, held_values, read

NOW = datetime(2026, 11, 1, tzinfo=UTC)


def _fact(id_: str, text: str, value: str) -> Fact:
    return Fact(id=id_, user_id="u", text=text, type=FactType.IDENTITY, tier=Tier.OBSERVATION,
                status=Status.ACTIVE, veracity=Veracity.STATED, confidence=1.0, created_at=NOW,
                last_confirmed_at=NOW, attributes=(value,))


HELD = [_fact("knit", "Начала вязать, купила спицы", "user|hobby|вязание|add"),
        _fact("yoga", "Хожу на йогу по средам", "user|hobby|йога|add"),
        _fact("smoke", "Курю, уже лет десять", "user|habit|курение|add")]


def acts_on_held(text: str) -> bool:
    held = held_values(HELD)
    values = asyncio.run(read(text, held))
    outcome = decide(values, held, "new")
    return bool(outcome.contradicts or outcome.released or outcome.replaces)


@pytest.mark.parametrize("text", [
    "весь день на ногах, даже вязать сил нет",
    "на йогу на этой неделе времени нет",
    "для вязания хорошей пряжи в городе нет",
    "курить выйти сил нет, так устала",
])
def test_a_negation_of_another_noun_leaves_the_held_value_alone(text: str) -> None:
    assert not acts_on_held(text)


@pytest.mark.parametrize("text", [
    "йоги у меня больше нет в жизни, честно",
    "я не вяжу, это мама вяжет",
    "не курю и никогда не курила",
])
def test_the_person_s_own_denial_of_the_held_value_still_acts(text: str) -> None:
    assert acts_on_held(text)
