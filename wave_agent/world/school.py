"""A child's school and class (issue 30, round thirty-eight): "Миша у меня в 124-й школе, в
1 «Б»", later "Мишу взяли в гимназию №7" or "Соне 7, учится в 1«Б»", later "нашла Соне школу
..., взяли в 1«А»". Nothing read a school of anyone but the person's employer (a child "в
124-й школе" was read as working there), so the earlier record stayed active beside the new
one: two schools, where a child has one (16 changes of a child's school over the tuning
months, none labelled a contradiction).

- **What**: a school said by its kind and number ("124-я школа", "школа №118", "в восьмую
  школу", "новую школу, 504-я", "гимназия № 7": the world reader's ``studies_at`` /
  ``works_at`` target when it has one) and a class by its number and letter ("в 1 «Б»", "во
  2«А»"); the value is "<school>, <class>", either part alone when only one is said.
- **Whose**: someone else's, never the speaker's: the one the parse has study (or "work")
  there, else the one named before the school in its clause, else the one person the message
  names, else the one child the person holds. Not someone said to work ("работает учителем в
  57-й школе"), nor someone the message gives a job.
- **Same or another**: two values are one school unless both name a school and the schools
  differ, or both name a class and the classes differ ("школа № 124" and "124-я школа, 1 «Б»"
  are one; "1 «Б»" and "1 «А»" are two).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import Any

from wave_agent.world.reading import ROLE_PREFIX, USER

_KINDS = {"школ": "школа", "гимнази": "гимназия", "лице": "лицей"}
_NOUN = r"(?:школ|гимнази|лице)[а-яё]*"
# "124-й школе", "112 школу", "в 17-ю школу"
_NUMBER_BEFORE = re.compile(rf"(?<![\w№])(\d{{1,4}})\s*(?:-?\s*(?:[ыоиа]?[йяюем]|ой|ую|ая|ей))?\s+({_NOUN})",
                            re.I)
# "школа №132", "гимназию № 7", "школу номер 5"; "новую школу, 504-я" (a number after it only
# with an ordinal's ending: "при гимназии, 3000 в месяц" is a price)
_NUMBER_AFTER = re.compile(rf"({_NOUN})\s*(?:(?:№|номер|N)\s*(\d{{1,4}})(?![\d])"
                           rf"|,?\s+(\d{{1,4}})\s*-?\s*(?:[ыоиа]?[йяюе]|ой|ую|ая)(?![\w-]))",
                           re.I)
# "восьмую школу", "в сорок пятую школу" (an ordinal adjective right before the school noun)
_ORDINAL_BEFORE = re.compile(rf"([а-яё]+)\s+({_NOUN})", re.I)
# "в 1 «Б»", "во 2«А»", "в 3-Б", "в 1 \"А\""
_CLASS = re.compile(r"(?<![\w-])(?:в|во)\s+(\d{1,2})\s*(?:-\s*(?:й|м|ом)?\s*)?[«\"“„']?"
                    r"([А-ЯЁA-Z])[»\"”']?(?![\w-])")
_WORK = re.compile(r"(?<![\w-])(?:работа[ею]\w*|работал\w*|преподаё\w*|преподава\w*)", re.I)


def _kind(noun: str) -> str:
    low = noun.lower()
    return next(kind for stem, kind in _KINDS.items() if low.startswith(stem))


def _ordinal(word: str) -> int | None:
    """An ordinal said in words ("восьмую" -> 8): pymorphy's ``Anum`` reading and its lemma's
    number, up to twenty."""
    from wave_agent.world.morphology import _morph

    parses = [p for p in _morph().parse(word.lower()) if "Anum" in p.tag]
    if not parses:
        return None
    return _ORDINALS.get(str(parses[0].normal_form))


_ORDINALS = {w: i + 1 for i, w in enumerate((
    "первый", "второй", "третий", "четвёртый", "пятый", "шестой", "седьмой", "восьмой",
    "девятый", "десятый", "одиннадцатый", "двенадцатый", "тринадцатый", "четырнадцатый",
    "пятнадцатый", "шестнадцатый", "семнадцатый", "восемнадцатый", "девятнадцатый",
    "двадцатый"))}
_ORDINALS.update({w.replace("ё", "е"): n for w, n in _ORDINALS.items()})


def schools_said(text: str) -> list[tuple[int, int, str]]:
    """The schools a text names: (start, end, "школа № 124")."""
    out: list[tuple[int, int, str]] = []

    def add(start: int, end: int, noun: str, number: int | str) -> None:
        if any(s < end and start < e for s, e, _ in out):
            return
        out.append((start, end, f"{_kind(noun)} № {number}"))

    for m in _NUMBER_AFTER.finditer(text):
        add(m.start(), m.end(), m.group(1), int(m.group(2) or m.group(3)))
    for m in _NUMBER_BEFORE.finditer(text):
        add(m.start(), m.end(), m.group(2), int(m.group(1)))
    for m in _ORDINAL_BEFORE.finditer(text):
        number = _ordinal(m.group(1))
        if number is not None:
            add(m.start(), m.end(), m.group(2), number)
    return sorted(out)


# a kindergarten named (round thirty-nine): "садик «Умка»", "детсад № 12", "садик на Среднем
# проспекте" (its name, its number, or the street it is on)
_KINDERGARTEN = re.compile(r"(?<![\w-])(?:садик|детсад|детск(?:ий|ого|ом|ому)\s+сад)[а-яё]*\s*"
                          r"(?:«([^»]{1,40})»|(?:№|номер)\s*(\d{1,4})(?!\d)"
                          r"|на\s+([А-ЯЁ][а-яё]+(?:\s+[а-яё]+)?)|\s+([А-ЯЁ][а-яё]+(?:\s+[а-яё]+)?\s+(?:улиц|проспект|переул)[а-яё]*))")


def kindergartens_said(text: str) -> list[tuple[int, int, str]]:
    """The kindergartens a text names: (start, end, "садик «Умка»")."""
    out = []
    for m in _KINDERGARTEN.finditer(text):
        name, number, street, street2 = m.groups()
        value = (f"садик «{name.strip()}»" if name else f"садик № {int(number)}" if number
                 else f"садик на {street or street2}")
        out.append((m.start(), m.end(), value))
    return out


def classes_said(text: str) -> list[tuple[int, int, str]]:
    """The school classes a text names: (start, end, "1 «Б»")."""
    return [(m.start(), m.end(), f"{int(m.group(1))} «{m.group(2).upper()}»")
            for m in _CLASS.finditer(text) if 1 <= int(m.group(1)) <= 11]


def _parts(value: str) -> tuple[str | None, str | None]:
    kindergarten = re.match(r"садик (.+)", value)
    if kindergarten:
        return kindergarten.group(1).lower(), None
    school = re.search(r"(школа|гимназия|лицей) № (\d+)", value)
    klass = re.search(r"(\d{1,2}) «([А-ЯЁA-Z])»", value)
    return (f"{school.group(1)} {school.group(2)}" if school else None,
            f"{klass.group(1)}{klass.group(2)}" if klass else None)


def same_school(a: str, b: str) -> bool:
    """Whether two school values may be one: no part said in both differs."""
    (school_a, class_a), (school_b, class_b) = _parts(a), _parts(b)
    if school_a and school_b and school_a != school_b:
        return False
    return not (class_a and class_b and class_a != class_b)


def school_values(text: str, reading: Any, found: Sequence[Any], held: Iterable[Any],
                  holder: Any, only_named: Any) -> list[tuple[str, str]]:
    """(entity, "<school>, <class>") for each child a Russian text says is at a school or in a
    class. ``holder`` and ``only_named`` are the attribute reader's ``_holder`` and
    ``_only_named``; ``found``: the values read so far (a job given to someone rules them
    out)."""
    schools = schools_said(text) or kindergartens_said(text)
    classes = classes_said(text)
    if not schools and not classes:
        return []
    by_link = {}
    for link in reading.links:
        if link.type in ("studies_at", "works_at") and link.source != USER:
            number = re.search(r"\d+", link.target)
            if number:
                by_link[number.group()] = link.source
    working = {v.entity for v in found if v.attribute == "role" and v.op == "set"}
    children = {v.value for v in (*held, *found) if v.entity == USER and v.attribute == "child"
                and v.op in ("set", "add")}
    whose: str | None = None
    for start, end, value in schools:
        number = re.search(r"\d+", value)
        whose = by_link.get(number.group()) if number else None
        if whose is None:
            said = holder(text, text[start:end].split()[0], "ru")
            whose = said if said not in (None, USER) else None
        if whose is not None:
            break
    for noun in re.finditer(_NOUN, text, re.I) if whose is None else ():
        # "отвела Тимофея в школу. он ..., гимназия №2": the one taken to school
        said = holder(text, noun.group(), "ru")
        if said not in (None, USER):
            whose = said
            break
    if whose is None:
        whose = only_named(text, "ru")
    if whose is None and len(children) == 1:
        whose = next(iter(children))  # the person's one child, said first ("отвела Тимофея")
    if whose is None or whose == USER or whose.startswith(ROLE_PREFIX) or whose in working:
        return []
    if _WORK.search(text) and not any(link.type == "studies_at" for link in reading.links):
        return []  # "Оля работает в 57-й школе": a workplace, not a child's school
    parts = [p for p in (schools[0][2] if schools else None,
                         classes[0][2] if classes else None) if p]
    return [(whose, ", ".join(parts))]


__all__ = ["classes_said", "kindergartens_said", "same_school", "school_values", "schools_said"]
