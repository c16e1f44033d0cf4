"""A denial of the whole past ("я ведь никогда в жизни не курила") against a value only a
replaced record held (the smoking the person quit): a contradiction, where a denial of now
("не курю" after "бросила") passes (``write.attributes.denies_ever``, ``decide(past=...)``;
issue 30, round thirty-three: five tuning months' authors said it after quitting)."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime, timedelta

import pytest

from graph.models import Fact, FactType, Status, Tier, Veracity
from wave_agent.world.attributes import Value
from wave_agent.write.attributes import decide, denies_ever, held_values

NOW = datetime(2026, 11, 1, tzinfo=UTC)


def fact(fid: str, *values: str, status: Status = Status.ACTIVE, days: int = 0) -> Fact:
    at = NOW + timedelta(days=days)
    return Fact(id=fid, user_id="u", text=fid, type=FactType.STATE, tier=Tier.OBSERVATION,
                status=status, veracity=Veracity.STATED, confidence=1.0,
                created_at=at, last_confirmed_at=at, attributes=values)


@pytest.mark.parametrize("text", [
    "коллеги позвали на перекур, а я ведь никогда в жизни не курила, даже в школе",
    "я в жизни сигарету в руки не брала, а тут все дымят",
    "я в жизни ни одной сигареты не выкурила, не понимаю этого",
    "я не курила никогда",
    "nigdy w życiu nie paliłam",
    "I have never smoked",
])
def test_a_denial_of_the_whole_past_is_read(text: str) -> None:
    assert denies_ever(text)


@pytest.mark.parametrize("text", [
    "не курю", "бросила курить, больше не тянет", "я никогда не курю дома",
    "никогда не брошу", "никогда. не курила", "I never smoke", "już nie palę",
])
def test_a_denial_of_now_or_of_the_future_is_not(text: str) -> None:
    assert not denies_ever(text)


QUIT = "user|habit|курение|negate"


def test_a_denial_of_ever_meets_the_replaced_record_and_a_denial_of_now_does_not() -> None:
    smoked = fact("f1", "user|habit|курение|set", status=Status.SUPERSEDED)
    older = replace(smoked, id="f0", created_at=NOW - timedelta(days=3))
    quit_ = fact("f2", QUIT, days=5)
    never = [Value("user", "habit", "курение", "negate")]
    past = held_values([older, smoked])
    decision = decide(never, held_values([quit_]), "new", held_values([quit_], ops=("negate",)),
                      past=past, ever=True)
    assert [f.id for f, _ in decision.contradicts] == ["f1"]  # the newest replaced record
    now_only = decide(never, held_values([quit_]), "new", past=past, ever=False)
    assert not now_only.contradicts  # "не курю" after "бросила": what the ending said


def test_a_denial_of_ever_raises_once_when_the_value_is_still_held() -> None:
    smokes = fact("f1", "user|habit|курение|set")
    before = fact("f0", "user|habit|курение|set", status=Status.SUPERSEDED)
    decision = decide([Value("user", "habit", "курение", "negate")], held_values([smokes]),
                      "new", past=held_values([before]), ever=True)
    assert [f.id for f, _ in decision.contradicts] == ["f1"]


def test_a_denial_of_ever_of_another_value_or_holder_meets_nothing() -> None:
    past = held_values([fact("f1", "user|habit|курение|set", status=Status.SUPERSEDED),
                        fact("f2", "Томек|habit|алкоголь|set", status=Status.SUPERSEDED)])
    for value in (Value("user", "habit", "алкоголь", "negate"),
                  Value("Томек", "habit", "курение", "negate")):
        assert not decide([value], [], "new", past=past, ever=True).contradicts
