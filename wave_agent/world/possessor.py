"""Whose a value is, by the possessor said before it: "у Сони аллергия", "у мужа нашли
аллергию", "Córka ma alergię", "My son is allergic" are someone else's; "у меня" or no
possessor is the person's. Used by the attribute reader (``wave_agent.world.attributes``) for
allergies (an earlier reading gave every allergy to the person) and for a son or daughter of
the person's own ("мой сын", "у меня дочь")."""

from __future__ import annotations

import re

from graph import kin
from wave_agent.world.morphology import name_nominative
from wave_agent.world.reading import ROLE_PREFIX, USER

# The possessor before an allergy word: "у X [...] аллергия", "X's allergy", "X is allergic",
# "X ma alergię".
_POSSESSOR = re.compile(
    r"\b(?:у|u)\s+([^\W\d_]+)(?:\s+[^\W\d_]+){0,2}\s+(?:аллерги|alergi|uczul)"
    r"|\b([^\W\d_]+)(?:'s|’s)\s+(?:\w+\s+)?allerg"
    r"|\b([^\W\d_]+)\s+(?:is|was|has|had|ma|miał[aoy]?)\s+(?:an?\s+|\w+\s+)?(?:allerg|alergi|uczul)",
    re.I)
_SELF_POSSESSORS = frozenset({"меня", "нас", "mnie", "nas", "i", "my", "me", "we", "mam"})


def possessor(text: str) -> str | None:
    """The entity an allergy belongs to: ``user`` when said of the person (or of no one),
    a kin role as ``role:<role>``, a name in the nominative; None for someone unnamed."""
    found = _POSSESSOR.search(text)
    if found is None:
        return USER
    word = next(g for g in found.groups() if g)
    if word.lower() in _SELF_POSSESSORS:
        return USER
    role = kin.role_of(word)
    if role is not None:
        return ROLE_PREFIX + role
    if word[:1].isupper():
        return name_nominative(word, "Gen")
    return None


def own_relative(lower: str, form: str) -> bool:
    """A son or daughter of the person's own: said with a possessive, "у меня", or opening
    the statement (no one else's relative is named first)."""
    at = lower.find(form[:3])
    before = lower[:max(0, at)]
    return (not before.strip() or bool(re.search(r"\b(?:мо[йяеи]\w*|наш\w*|у меня|my|our|"
                                                 r"mój|moja|moje|mojego|mojej|nasz\w*)\s*$",
                                                 before)))


__all__ = ["own_relative", "possessor"]
