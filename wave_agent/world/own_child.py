"""A child of the person's own said by name, with no kin word (issue 30: on four blind months
in a row "детей у меня нет" was not raised against the person's child, because the child was
said only by name, school and age: "Лёву отвела в школу. первоклашка мой", "Мише 7, он у меня
первоклашка, ходит в 151-ю школу").

Russian, from pymorphy3: the message names one person by a first name (pymorphy's ``Name``)
and no relative of any kind (a kin word is the kin reader's, and "у Кати сын Лёва" is Катя's
son); the name is said as a child (a school or kindergarten word in the message: "школа",
"садик", "класс", "первоклашка", "третьеклассница", or an age under 14 said in passing after
the name in the dative: "Мише 7") and as the person's own: "мой" / "моего" / "наш" / "у меня"
in the message, the person taking the child there ("отвела в школу", "забрал из садика"), or
both the age and the school said of the name ("Мише 7, он в первом классе"). Anyone else named
besides, or said as the owner ("у Кати", "Катин"), and it is no one's; nor is a name said as an
adult the person knows ("Лена моя лучшая подруга ещё со школы": a friend since school, which on
month 35 raised "детей у меня нет" against the friend as a false alarm).
"""

from __future__ import annotations

import re

from graph import kin
from wave_agent.world import age
from wave_agent.world.morphology import _morph, name_nominative, name_of_possessive

_SCHOOL = frozenset({"школа", "садик", "детсад", "сад", "класс", "первоклашка", "продлёнка",
                     "продленка", "школьник", "школьница", "детсадовец", "ясли"})
_SCHOOL_STEM = re.compile(r"класс(?:ник|ниц)|клашк", re.I)
_OWN = re.compile(r"(?<!\w)(?:мо[йяеёи]\w*|наш\w*|у меня)(?!\w)", re.I)
# taking a child there or back: "отвела в школу", "забрал из садика", "веду в сад"
_TAKE = frozenset({"отвести", "отвезти", "завести", "забрать", "водить", "возить", "вести",
                   "везти", "проводить", "собрать", "собирать", "отводить", "отвозить",
                   "забирать"})
_TO_SCHOOL = re.compile(r"(?<!\w)(?:в|из|со?)\s+(?:\w+\s+)?(?:школ|сад|садик|детсад|ясл)", re.I)
# an adult the person knows, not a child of theirs: a friend, colleague, neighbour, boss
_ADULT = frozenset({"друг", "подруга", "подружка", "приятель", "приятельница", "коллега",
                    "сосед", "соседка", "знакомый", "знакомая", "начальник", "начальница",
                    "босс", "однокурсник", "однокурсница", "одноклассник", "одноклассница",
                    "парень", "девушка", "жених", "невеста", "клиент", "клиентка"})
_WORD = re.compile(r"[А-Яа-яЁё]+(?:-[А-Яа-яЁё]+)*")
_CHILD_AGE = 14


def _lemma(word: str) -> str:
    parses = _morph().parse(word.lower())
    return str(parses[0].normal_form) if parses else word.lower()


def _first_name(word: str) -> bool:
    """A capitalised word whose first reading is a first name ("Лёву", "Мише"), not a word
    that is also a common noun or a verb first ("Вера", "Надежда" read first as nouns)."""
    if not word[:1].isupper():
        return False
    parses = _morph().parse(word)
    return bool(parses) and "Name" in parses[0].tag.grammemes


def own_child(text: str) -> str | None:
    """The name (in the nominative) of the person's own child the message speaks of without a
    kin word, or None."""
    words = _WORD.findall(text)
    lemmas = [_lemma(w) for w in words]
    if any(kin.role_of(w.lower()) or kin.role_of(lem) for w, lem in zip(words, lemmas,
                                                                         strict=True)):
        return None  # a relative named: the kin reader's, or someone else's child
    if any(name_of_possessive(w) for w in words if w[:1].isupper()):
        return None  # "Катин Лёва"
    if any(lem in _ADULT for lem in lemmas):
        return None  # "Лена моя подруга ещё со школы": a friend since school, not a pupil
    names = {name_nominative(w, None): w for w in words if _first_name(w)}
    if len(names) != 1:
        return None
    (name, said), = names.items()
    if re.search(r"(?<!\w)у\s+" + re.escape(said), text):
        return None  # "у Лёвы ..." says whose something is, not whose Лёва is
    school = any(lem in _SCHOOL for lem in lemmas) or bool(_SCHOOL_STEM.search(text))
    young = any(a.whose == said and int(a.years) < _CHILD_AGE for a in age.said_ages(text))
    if not (school or young):
        return None
    own = bool(_OWN.search(text))
    takes = school and any(lem in _TAKE for lem in lemmas) and bool(_TO_SCHOOL.search(text))
    return name if own or takes or (school and young) else None
