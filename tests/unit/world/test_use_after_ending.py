"""What an ending does to a habit or a thing used again (issue 30, round thirty-four).

- a denial said from now on ("Всё, с сегодняшнего дня не курю", "Od dziś nie palę", "As of
  today I don't smoke") ends the held habit, however soon after it is said: a supersession, not
  two records against each other (month 34's false alarm);
- a wish ("дико хочется курить, но держусь") is no use of the habit;
- a habit or a thing the graph says ended, used again in passing ("бросила курить", then
  "вышла покурить на балкон"), is a contradiction with the ending; taken up again with a word
  of a change ("снова закурила") it is not, nor is a person or an animal named again after it
  is gone ("похоронили Рыжика");
- a denial of the whole past meets the ending itself ("курить надо бросать", then "я в жизни
  не курила").

Sentences of our own."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from graph.models import Fact, FactType, Status, Tier, Veracity
from wave_agent.world.attributes import Value, read_values
from wave_agent.world.reader import read
from wave_agent.write.attributes import decide, held_values, marks_change, tells_news

NOW = datetime(2026, 3, 1, tzinfo=UTC)


def fact(fid: str, *values: str, days: int = 0) -> Fact:
    at = NOW + timedelta(days=days)
    return Fact(id=fid, user_id="u", text=fid, type=FactType.STATE, tier=Tier.OBSERVATION,
                status=Status.ACTIVE, veracity=Veracity.STATED, confidence=1.0,
                created_at=at, last_confirmed_at=at, attributes=values)


def habit(text: str) -> set[str]:
    return {v.op for v in read_values(text, read(text)) if v.attribute == "habit"}


@pytest.mark.parametrize("text", [
    "Всё, с сегодняшнего дня не курю",
    "Отныне не курю, решено",
    "Od dziś nie palę",
    "As of today I don't smoke",
])
def test_a_denial_from_now_on_is_an_ending(text: str) -> None:
    assert habit(text) == {"remove"}


@pytest.mark.parametrize("text", ["не курю", "Nie palę", "I don't smoke"])
def test_a_denial_of_now_alone_stays_a_denial(text: str) -> None:
    assert habit(text) == {"negate"}


@pytest.mark.parametrize("text", [
    "держусь. дико хочется курить, но держусь",
    "курить хочется жутко, грызу семечки",
])
def test_a_wish_is_no_use_of_the_habit(text: str) -> None:
    assert habit(text) == set()


def after(earlier: list[str], later: str) -> list[str]:
    """The ids the later statement is raised against, each earlier one decided in turn."""
    active: list[Fact] = []
    for i, text in enumerate(earlier):
        values = read_values(text, read(text), [h.value for h in held_values(active)])
        new = fact(f"f{i}", *(v.encode() for v in values), days=i)
        decision = decide(values, held_values(active), new.id, changed=marks_change(text),
                          news=tells_news(text), ended=held_values(active, ops=("remove",)))
        assert not decision.contradicts, text
        active = [f for f in active if f not in decision.replaces] + [new]
    values = read_values(later, read(later), [h.value for h in held_values(active)])
    decision = decide(values, held_values(active), "new",
                      held_values(active, ops=("negate",)), changed=marks_change(later),
                      news=tells_news(later), ended=held_values(active, ops=("remove",)))
    return [f.id for f, _ in decision.contradicts]


def test_the_habit_said_then_ended_from_today_raises_nothing_and_a_relapse_is_asked() -> None:
    quit_ = ["Курю с 19 лет", "Всё, с сегодняшнего дня не курю"]
    assert after(quit_, "не курю") == []  # an ordinary change: nothing to ask
    assert after(quit_, "вышла покурить на балкон, а там чайка") == ["f1"]
    assert after(quit_, "снова закурила, стыдно") == []  # taken up again, said so
    assert after(quit_, "дико хочется курить, но держусь") == []


def test_an_ending_said_with_a_quit_word_is_met_by_a_use_in_passing() -> None:
    assert after(["Курю с 19 лет", "бросила курить"], "вышла покурить на балкон") == ["f1"]
    assert after(["Курю с 19 лет", "бросила курить"], "не курю уже месяц") == []


def test_a_use_of_what_ended_is_asked_only_of_things_done_or_owned() -> None:
    ended = [fact("f1", "user|habit|курение|remove"), fact("f2", "user|pet|Рыжик|remove")]
    held = held_values(ended, ops=("remove",))
    smoke = [Value("user", "habit", "курение", "add")]
    cat = [Value("user", "pet", "Рыжик", "add")]
    assert [f.id for f, _ in decide(smoke, [], "new", ended=held).contradicts] == ["f1"]
    assert not decide(cat, [], "new", ended=held).contradicts  # "похоронили Рыжика"
    still = held_values([fact("f3", "user|habit|курение|add")])  # a record still holds it
    assert not decide(smoke, still, "new", ended=held).contradicts


def test_a_denial_of_ever_meets_the_ending_itself() -> None:
    ending = fact("f1", "user|habit|курение|remove")
    never = [Value("user", "habit", "курение", "negate")]
    decision = decide(never, [], "new", ended=held_values([ending], ops=("remove",)), ever=True)
    assert [f.id for f, _ in decision.contradicts] == ["f1"]
    assert not decide(never, [], "new", ended=held_values([ending], ops=("remove",))).contradicts
