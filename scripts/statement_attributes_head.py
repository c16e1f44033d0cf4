"""Tried in round twenty-five (h/attr24) and not shipped: the rule lives here only.

The head that says which of the person's own attributes a statement sets
(``wave_agent/world/statement_attributes.py``, shipped as a gate) used the other way: the step
that filled a value in the writer's reading: where the hand rules read no value of an
attribute the head is sure the statement sets, the value is taken from the candidates the world
reader's reading already has (``TAKES``: a place it tagged for the city, "первая ночь в
Казани"; a person it tagged for the partner, "X теперь официально мой парень"), never invented.

Why not shipped (docs/benchmarks.md, "Round twenty-five: the attribute reader against the
months' own labels"): held out by author it read 7 more of 433 labelled changes and 7 more
values no label holds (a flat looked for before the move, a hometown, someone else's wife);
the two months run through the month bench held out moved on no figure.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from graph.models import EntityType
from wave_agent.world import attribute_words as W
from wave_agent.world.attributes import (
    Value,
    _Collector,
    _holder,
    _lives_there,
    _said_as,
    as_said,
    same_value,
    single_valued,
)
from wave_agent.world.reading import USER, Reading

# the attributes a sure head fills from the reading's mentions: the mention type taken and the
# probability at or above which it does (chosen leaving one month out: city 0.5 read 5 more
# changes and 12 more values no label holds; 0.7, 2 and 3)
TAKES: Mapping[str, tuple[EntityType, float]] = {
    "city": (EntityType.PLACE, 0.7),
    "partner": (EntityType.PERSON, 0.7),
}


def with_learned(text: str, reading: Reading, found: Sequence[Value],
                 sure: Mapping[str, float],
                 takes: Mapping[str, tuple[EntityType, float]] = TAKES,
                 held: Iterable[Value] = ()) -> tuple[Value, ...]:
    """``found`` (what the rules read) with a value of each attribute of ``takes`` that the
    rules left unread and the head is sure the statement sets for the person (``sure``: its
    probability at or above the threshold): the first mention of the type taken that nothing
    read already names, that the person does not hold as another attribute's value (a child, a
    pet), that is no one's relative, said as the person's (``_holder``), where one is for a
    place (``_lives_there``: not a street, nor where one came from), with the op of its clause.
    An offer is not yet the job nor its city the home."""
    text = as_said(text)
    out = list(found)
    held = list(held)
    for attribute, (kind, threshold) in takes.items():
        if sure.get(attribute, 0.0) < threshold or W.JOB_OFFER.search(text):
            continue
        if any(v.entity == USER and v.attribute == attribute for v in found):
            continue
        names: list[str] = []
        for m in reading.mentions:
            if m.type is not kind or any(same_value(m.name, v.value) for v in found):
                continue
            if any(v.attribute != attribute and same_value(m.name, v.value) for v in held):
                continue
            if kind is EntityType.PERSON and any(
                    link.type.startswith("kin:") and link.target == m.name
                    and (link.source != USER or link.type[4:] not in W.PARTNER_ROLES)
                    for link in reading.links):
                continue
            if kind is EntityType.PLACE and not _lives_there(text, m.name):
                continue
            if _holder(text, _said_as(text, m.name), reading.language) != USER:
                continue
            if not any(same_value(m.name, n) for n in names):
                names.append(m.name)
        if not names:
            continue
        c = _Collector(text, reading.language)
        c.put(USER, attribute, names[0], c.SINGLE if single_valued(attribute) else c.MULTI)
        out.extend(c.found)
    return tuple(out)
