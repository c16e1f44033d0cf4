"""Whose a value is, by the possessor said before it: "у Сони аллергия", "у мужа нашли
аллергию", "Córka ma alergię", "My son is allergic" are someone else's; "у меня" or no
possessor is the person's. Used by the attribute reader (``wave_agent.world.attributes``) for
allergies (an earlier reading gave every allergy to the person) and for a son or daughter of
the person's own ("мой сын", "у меня дочь"); and, on the parse, the owner features of a pair
to the speaker in the relation model (``owner_features``, ``world.pairs``)."""

from __future__ import annotations

import re

from graph import kin
from wave_agent.world.morphology import name_nominative
from wave_agent.world.reading import ROLE_PREFIX, USER, Word

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


def owner_features(words: tuple[Word, ...], at: int, kind_at: dict[int, str],
                   first_person: frozenset[str]) -> list[str]:
    """Whose the pet or person at ``at`` is said to be, by what the tree names beside it: a
    possessor ("у меня кот", "у Кости кот") or a genitive ("жену Олега") on its head, its
    siblings or itself, and what the siblings are ("Жену Олега зовут Алсу": a kin role names
    Алсу, not a pet). Each as what it is (the speaker, a role, a person, another name), never
    which word, so a pair to the speaker learns that another owner named takes the pet away."""
    me = words[at]
    # a name apposed to its noun ("кот Барсик") is owned through the noun
    anchor = me.head if me.rel in ("appos", "flat") and me.head >= 0 else at
    head = words[anchor].head
    near = [at, anchor] if head < 0 else [at, anchor, head, *(
        i for i, w in enumerate(words) if w.head == head and i not in (at, anchor))]
    near = list(dict.fromkeys(i for i in near if words[i].sentence == me.sentence))

    def what(i: int) -> str:
        w = words[i]
        if w.text.lower() in first_person:
            return "me"
        if kin.role_of(w.text):
            return "role"
        if (k := kind_at.get(i)) is not None:
            return k
        return "name" if w.text[:1].isupper() and i > 0 else "other"

    f: list[str] = []
    owners = [i for i, w in enumerate(words)
              if i not in (at, anchor) and w.sentence == me.sentence
              and (w.head in near or i in near)
              and ((w.case == "Gen" and (w.preposition == "у" or (
                  w.rel == "nmod" and not w.preposition)))
                   or (w.rel == "det" and w.head == anchor and w.text.lower() in first_person))]
    f.extend(f"syn:owner:{what(i)}" for i in owners)
    if not owners:
        f.append("syn:owner:none")
    f.extend(f"syn:sib:{k}" for i in near if i not in (at, anchor)
             and (k := what(i)) not in ("other", "name"))
    # the noun named beside it ("кота зовут", "жену зовут"): which thing the name is given
    f.extend(f"syn:sibw:{words[i].lemma}" for i in near if i not in (at, anchor)
             and words[i].pos == "NOUN")
    return list(dict.fromkeys(f))


__all__ = ["own_relative", "owner_features", "possessor"]
