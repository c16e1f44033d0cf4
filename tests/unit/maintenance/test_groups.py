"""Who a text is about, and when records count as separate moments: the pure parts of the
generalisation rule."""

from __future__ import annotations

from datetime import timedelta

import pytest

from graph.models import Fact, FactType, Status, Tier, Veracity, utcnow
from wave_agent.ops.maintenance.groups import different_subjects
from wave_agent.ops.maintenance.jobs.generalise import kind_for, moments


@pytest.mark.parametrize(("a", "b", "different"), [
    ("Anna works at Google", "Igor works at Google", True),
    ("Igor always pays in advance", "Anna always pays in advance", True),
    ("The user lives in Berlin", "The user lives in Warsaw", True),
    ("Igor always pays in advance", "With Igor we work on prepayment", False),
    # seed 002's own example: an ordinary first word is not a name
    ("Счета Игорь не просит", "Игорь платит по предоплате", False),
    ("Счета Игорь не просит", "С Игорем работаем предоплатой", False),
    ("In the mornings he drinks green tea", "The user prefers green tea in the morning", False),
])
def test_different_subjects(a: str, b: str, different: bool) -> None:
    assert different_subjects(a, b) is different
    assert different_subjects(b, a) is different


def _fact(n: int, seconds: float) -> Fact:
    at = utcnow() - timedelta(days=30) + timedelta(seconds=seconds)
    return Fact(id=f"f-{n}", user_id="u", text=f"t{n}", type=FactType.EVENT,
                tier=Tier.OBSERVATION, status=Status.ACTIVE, veracity=Veracity.STATED,
                confidence=1.0, created_at=at, last_confirmed_at=at)


def test_records_within_a_minute_are_one_moment() -> None:
    glitch = [_fact(1, 0), _fact(2, 20), _fact(3, 59)]
    spread = [_fact(1, 0), _fact(2, 86_400 * 10), _fact(3, 86_400 * 20)]
    edge = [_fact(1, 0), _fact(2, 60), _fact(3, 120)]  # a minute apart each: three moments
    assert moments(glitch) == 1 and kind_for(glitch).value == "merge"
    assert moments(spread) == 3 and kind_for(spread).value == "generalise"
    assert moments(edge) == 3 and kind_for(edge).value == "generalise"
    assert kind_for(spread[:2]).value == "merge"


async def test_maintenance_keeps_two_statements_that_differ_in_their_own_words(
    embedder: object,
) -> None:
    """The writer's judge weighs the words each text has of its own; maintenance must too,
    or it would fold "visited" into "likes" that the writer kept apart."""
    from wave_agent.ops.maintenance.groups import Similarities

    def fact(n: int, text: str) -> Fact:
        at = utcnow()
        return Fact(id=f"f-{n}", user_id="u", text=text, type=FactType.PREFERENCE,
                    tier=Tier.OBSERVATION, status=Status.ACTIVE, veracity=Veracity.STATED,
                    confidence=1.0, created_at=at, last_confirmed_at=at)

    facts = [fact(1, "The pilot likes Berlin in spring"),
             fact(2, "The pilot visited Berlin in spring"),
             fact(3, "My favourite drink is green tea"),
             fact(4, "Green tea is my favourite drink")]
    sims = await Similarities.of(embedder, facts)
    pairs = {(p.a.id, p.b.id) for p in sims.duplicate_pairs()}
    assert pairs == {("f-3", "f-4")}
