"""A role the person has one holder of, taken over by someone new (issue 30, round thirty-six):
"начальник мой теперь Руслан Ильдарович" after "руководитель у меня Игорь" was read as two people
with a role (Руслан|role|начальник, Игорь|role|руководитель), and Игорь's record stayed active
beside the new one: two managers, where the person has one.

- **Which roles**: the person's superior, whatever the word: a role noun whose nearest seed in
  natasha's navec vectors is a word for the one above you ("начальник", "руководитель", "шеф",
  "босс"), not one for a deputy, a director or a colleague, so "руководительница" and
  "начальница" (gender folded first) take over from "руководитель"; in English and Polish the
  nouns for the same ("manager", "boss", "lead", "szef", "kierownik").
- **Whose**: the speaker's; a role said as someone else's ("его начальник", "начальник Олега",
  "her boss") takes over nothing.
- **What it does**: the earlier holder's role value ends (``remove``), so the writer replaces
  that record (and its core-block line) with the new one, as a new city replaces the old.

English and Polish also say the holder in a form the parse misses ("my manager is Igor", "my
new lead is Sveta", "Mój nowy szef ma na imię Ajdar"): read here as Name|role|<noun>.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import Any

from wave_agent.world.kinds import SeedIndex
from wave_agent.world.reading import ROLE_PREFIX, USER

# seeds: the one above you, and the roles beside it that are not (navec's nearest decides)
_ABOVE_RU = ("начальник", "руководитель", "шеф", "босс")
_NOT_ABOVE_RU = ("заместитель", "директор", "коллега", "подчинённый", "сотрудник", "помощник",
                 "секретарь", "клиент")
_ABOVE_NEAR = 0.45
_ABOVE_LATIN = frozenset({"manager", "boss", "lead", "teamlead", "team lead", "supervisor",
                          "szef", "szefowa", "kierownik", "kierowniczka", "przełożony",
                          "przełożona", "тимлид", "лид"})
_ABOVE = SeedIndex([*((w, True) for w in _ABOVE_RU), *((w, False) for w in _NOT_ABOVE_RU)])

# someone else's: a possessive before the role noun ("его начальник", "у Олега начальник"), or a
# name in the genitive after it ("начальник Олега")
_THEIRS = re.compile(r"(?:\b(?:его|её|ее|их|his|her|their|jego|jej|ich)\s+(?:\w+\s+)?"
                     r"|\bу\s+(?!меня\b|нас\b)[А-ЯЁа-яё]\w+\s+(?:\w+\s+)?)$", re.I)

_APPOINTED = re.compile(r"\b(?:назначил|поставил|повысил)\w*", re.I)
_EN = re.compile(r"\b[Mm]y\s+(?:new\s+)?(manager|boss|lead|team\s*lead|supervisor)\b"
                 r"(?:\s+at\s+[\w-]+)?\s*(?:is|was|—|-|:|,)?\s*([A-Z][a-z]+(?:\s+[A-Z][a-z]+)?)")
_PL = re.compile(r"\b[Mm](?:ój|oja|oj)\s+(?:now[ya]\s+)?(szef|szefowa|kierownik|kierowniczka)\b"
                 r"\s*(?:ma\s+na\s+imię|to|nazywa\s+się|—|-|:|,)?\s*"
                 r"([A-ZŁŚŻŹĆ][a-ząćęłńóśźż]+(?:\s+[A-ZŁŚŻŹĆ][a-ząćęłńóśźż]+)?)")


def _fold(word: str) -> str:
    """A role noun's masculine lemma ("начальница" -> "начальник", "руководительница" ->
    "руководитель"); pymorphy gives the lemma, the feminine suffix is taken off when the
    masculine word it leaves is a noun pymorphy knows."""
    from wave_agent.world.morphology import _morph

    low = word.lower().replace("ё", "е").split()[-1] if word.split() else ""
    parses = _morph().parse(low)
    lemma = str(parses[0].normal_form) if parses else low
    if lemma.endswith("ница"):
        for masc in (lemma[:-4] + "ник", lemma[:-4]):
            if any(p.tag.POS == "NOUN" and "masc" in p.tag and p.normal_form == masc
                   for p in _morph().parse(masc)):
                return masc
    return lemma


def above(role: str) -> bool:
    """Whether a role noun names the person's superior: its nearest seed in navec is one."""
    from wave_agent.world.morphology import Models

    low = " ".join(role.lower().split())
    if low in _ABOVE_LATIN or (low.split() and low.split()[-1] in _ABOVE_LATIN):
        return True
    word = _fold(role)
    if word in _ABOVE_LATIN:
        return True
    if not re.fullmatch(r"[а-я]{3,}", word):
        return False
    embedding = Models.get().embedding
    vector = embedding.get(word)
    if vector is None:
        return word in _ABOVE_RU
    up, near = _ABOVE.nearest(vector)
    return up and near >= _ABOVE_NEAR


def _speakers(text: str, role: str) -> bool:
    """Whether the role noun as said is the speaker's, not someone else's ("его начальник",
    "начальник Олега")."""
    head = role.split()[-1].lower() if role.split() else ""
    stem = head[:max(4, len(head) - 3)]
    for m in re.finditer(rf"\b{re.escape(stem)}\w*", text, re.I):
        if _THEIRS.search(text[:m.start()][-24:]):
            return False
        after = text[m.end():m.end() + 30]
        # "начальник Олега": a name in the genitive right after it is its holder
        name = re.match(r"\s+([А-ЯЁ][а-яё]+)", after)
        if name and _genitive_name(name.group(1)):
            return False
    return True


def _genitive_name(word: str) -> bool:
    from wave_agent.world.morphology import _morph

    parses = _morph().parse(word)
    return bool(parses) and all("gent" in p.tag for p in parses[:2]) and any(
        "Name" in p.tag or "Surn" in p.tag for p in parses[:2])


def latin_holders(text: str) -> list[tuple[str, str]]:
    """English and Polish: the speaker's superior named ("my new lead is Sveta", "Mój nowy
    szef ma na imię Ajdar"): (name, role noun)."""
    out = []
    for pattern in (_EN, _PL):
        for m in pattern.finditer(text):
            name = m.group(2).split()
            # "my manager is Igor" / "my boss Rustem": a first name, not a word like "Seems"
            if name and not re.fullmatch(r"(?:Is|Was|Seems|Has|And|But|The|He|She|Also)", name[0]):
                out.append((" ".join(name), " ".join(m.group(1).lower().split())))
    return out


def taken_over(text: str, found: Sequence[Any], held: Iterable[Any]) -> list[tuple[str, str]]:
    """The held holders of the speaker's superior whose role a new holder ``found`` in
    ``text`` takes over: (entity, held role value) for each to end."""
    from wave_agent.world.attributes import same_value

    if _APPOINTED.search(text):
        return []  # "Лену назначили начальником": she is appointed, nobody's superior replaced
    new = [v for v in found if v.attribute == "role" and v.op == "set"
           and v.entity not in (USER,) and not v.entity.startswith(ROLE_PREFIX)
           and above(v.value) and _speakers(text, v.value)]
    if not new:
        return []
    out = []
    for h in held:
        if h.attribute != "role" or h.op not in ("set", "add") or h.entity == USER or (
                h.entity.startswith(ROLE_PREFIX)):
            continue
        if any(same_value(h.entity, v.entity) for v in new):
            continue  # the same person named again
        if any(v.entity == h.entity for v in found):
            continue  # the held holder is said in this text too: both are spoken of
        if above(h.value) and (h.entity, h.value) not in out:
            out.append((h.entity, h.value))
    return out


__all__ = ["above", "latin_holders", "taken_over"]
