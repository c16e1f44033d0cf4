"""What the writer's attribute step does with a new message against values the person holds:
shared by the world tests that ask whether a sentence acts on a held pastime, pet or habit."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from datetime import UTC, datetime

from graph.models import Fact, FactType, Status, Tier, Veracity
from wave_agent.write.attributes import decide, held_values, read

NOW = datetime(2026, 11, 1, tzinfo=UTC)


def held_fact(id_: str, text: str, value: str) -> Fact:
    """An active record of the person's holding ``value`` (``"user|hobby|йога|add"``)."""
    return Fact(id=id_, user_id="u", text=text, type=FactType.IDENTITY, tier=Tier.OBSERVATION,
                status=Status.ACTIVE, veracity=Veracity.STATED, confidence=1.0, created_at=NOW,
                last_confirmed_at=NOW, attributes=(value,))


def acts_on_held(text: str, held_facts: Sequence[Fact]) -> bool:
    """Whether ``text`` contradicts, ends or replaces one of the values ``held_facts`` hold."""
    held = held_values(list(held_facts))
    values = asyncio.run(read(text, held))
    outcome = decide(values, held, "new")
    return bool(outcome.contradicts or outcome.released or outcome.replaces)



def contradicted_by(first: str, later: str) -> list[str]:
    """The ids of the records ``later`` raises a contradiction with, ``first`` stored as the
    writer stores it (with the values read from it, a denial among them held as denied)."""
    values = asyncio.run(read(first, []))
    stored = [Fact(id="first", user_id="u", text=first, type=FactType.IDENTITY,
                   tier=Tier.OBSERVATION, status=Status.ACTIVE, veracity=Veracity.STATED,
                   confidence=1.0, created_at=NOW, last_confirmed_at=NOW,
                   attributes=tuple(v.encode() for v in values))]
    held = held_values(stored)
    outcome = decide(asyncio.run(read(later, held)), held, "later",
                     held_values(stored, ops=("negate",)))
    return [f.id for f, _ in outcome.contradicts]


def after_one(old_text: str, new_text: str) -> tuple[list[str], list[str]]:
    """The ids a new message replaces and contradicts, the old one (``"f1"``) held with the values
    the world reader reads from it, each message read as the writer reads it."""
    from wave_agent.world import read as read_world
    from wave_agent.world.attributes import as_said, read_values
    from wave_agent.write.attributes import tells_news

    old_values = read_values(old_text, read_world(as_said(old_text)), [])
    held = held_values([Fact(id="f1", user_id="u", text="f1", type=FactType.IDENTITY,
                             tier=Tier.OBSERVATION, status=Status.ACTIVE,
                             veracity=Veracity.STATED, confidence=1.0, created_at=NOW,
                             last_confirmed_at=NOW,
                             attributes=tuple(v.encode() for v in old_values))])
    new_values = read_values(new_text, read_world(as_said(new_text)), [h.value for h in held])
    decision = decide(new_values, held, "f2", news=tells_news(new_text), at=NOW)
    return [f.id for f in decision.replaces], [f.id for f, _ in decision.contradicts]
