"""Messages read and decided by the writer's attribute step in order, three days apart, with no
database: each message's values and the ids of the records it contradicts. The world reader is
the real one (natasha, pymorphy3)."""

from __future__ import annotations

import asyncio
from dataclasses import replace
from datetime import UTC, datetime, timedelta

from graph.models import Fact, FactType, Status, Tier, Veracity
from wave_agent.world import attributes as A
from wave_agent.world import read_many
from wave_agent.write import attributes as W

T0 = datetime(2026, 11, 1, 12, tzinfo=UTC)


def _fact(i: int, text: str, at: datetime, values: tuple[A.Value, ...]) -> Fact:
    return Fact(id=f"m{i}", user_id="u", text=text, type=FactType.EVENT, tier=Tier.OBSERVATION,
                status=Status.ACTIVE, veracity=Veracity.STATED, confidence=1.0, created_at=at,
                last_confirmed_at=at, attributes=tuple(v.encode() for v in values))


def replay(*said: str, past: bool = False) -> list[tuple[set[str], list[str]]]:
    """Each message's values and the ids of the records it contradicts. ``past``: the records
    replaced earlier are offered to the decision as values once held (a pet that died)."""
    readings = asyncio.run(read_many([A.as_said(t) for t in said]))
    active: dict[str, Fact] = {}
    ever: dict[str, Fact] = {}
    out: list[tuple[set[str], list[str]]] = []
    for i, (text, reading) in enumerate(zip(said, readings, strict=True)):
        at = T0 + timedelta(days=3 * i)
        facts = list(active.values())
        held = W.held_values(facts)
        values = A.read_values(text, reading, [h.value for h in held])
        fact = _fact(i, text, at, values)
        once = {"past": W.held_values([f for f in ever.values() if f.id not in active])} if past else {}
        decision = W.decide(values, held, fact.id, W.held_values(facts, ops=("negate",)),
                            changed=W.marks_change(text), at=at,
                            birthday=W.says_birthday(text), news=W.tells_news(text),
                            again=W.only_again(text), found_out=W.finds_out(text),
                            ever=W.denies_ever(text),
                            ended=W.held_values(facts, ops=("remove",)), **once)
        out.append(({v.encode() for v in values}, [f.id for f, _ in decision.contradicts]))
        for old in decision.replaces:
            active.pop(old.id, None)
        if decision.carried:
            fact = replace(fact, attributes=(*fact.attributes, *decision.carried))
        if fact.attributes:
            active[fact.id] = fact
            ever[fact.id] = fact
    return out
