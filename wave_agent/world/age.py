"""An age said in passing (issue 30: 14 of 219 labelled contradictions state an age the
reader did not read as one): "мне вообще-то 31", "мне ж уже 35", "мне тридцать пять", "в 32
года начинать керамику — это нормально?", "маме 62, а она всё работает", "Мише девять".

Read from pymorphy3, not from lists of phrases: between the dative that says whose age it is
and the number only particles and adverbs ("ж", "вообще-то", "уже"; not "бы", a wish, nor
"не", a denial); the number in digits or in words ("тридцать пять"); after it nothing that
makes it a count of something else ("мне 2 раза звонили", "мне 5 минут до дома"), only "лет" /
"год" or a word that is no noun. "в N лет" is the speaker's own age when its clause says
nothing in the past ("в 20 лет я жила в Москве" is then, not now), names no one else, and
either speaks in the first person or puts an infinitive to it ("в 47 лет на коврике
раскорячиваться"), not a rule for everyone ("в 60 лет надо ...", a predicative).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

UNITS = {"один": 1, "два": 2, "три": 3, "четыре": 4, "пять": 5, "шесть": 6, "семь": 7,
          "восемь": 8, "девять": 9}
TEENS = {"десять": 10, "одиннадцать": 11, "двенадцать": 12, "тринадцать": 13,
          "четырнадцать": 14, "пятнадцать": 15, "шестнадцать": 16, "семнадцать": 17,
          "восемнадцать": 18, "девятнадцать": 19}
TENS = {"двадцать": 20, "тридцать": 30, "сорок": 40, "пятьдесят": 50, "шестьдесят": 60,
         "семьдесят": 70, "восемьдесят": 80, "девяносто": 90}
_TOKEN = re.compile(r"[A-Za-zА-Яа-яЁё]+(?:-[A-Za-zА-Яа-яЁё]+)*|\d+|[^\w\s]")
_CLAUSE_END = {",", ".", "!", "?", ";", ":", "—", "–", "(", ")", "…"}
_NOT_BETWEEN = {"бы", "не", "б"}  # a wish ("мне бы 30") or a denial ("мне не 30")
_YEARS = {"год", "годик"}


@dataclass(frozen=True)
class SaidAge:
    """An age read: ``whose`` is the word before it in the dative ("мне", "маме", "Мише"), or
    ``None`` for the speaker's own said with "в N лет"; ``said_as`` the number's first word as
    written."""

    whose: str | None
    years: str
    said_as: str
    at: int = -1  # where ``whose`` stands in the text
    bare: bool = False  # said as a clause of its own after whose it is ("сын Миша, 7 лет")


def _parses(word: str) -> list[object]:
    from wave_agent.world.morphology import _morph

    return list(_morph().parse(word.lower()))


def _pos(word: str) -> set[str]:
    return {str(p.tag.POS) for p in _parses(word)}  # type: ignore[attr-defined]


def _first(word: str) -> object | None:
    found = _parses(word)
    return found[0] if found else None


def _number(tokens: list[tuple[str, int]], i: int) -> tuple[int, int] | None:
    """The number said at ``tokens[i]`` (digits, or a numeral in words, "тридцать пять") and the
    index after it; None when there is none."""
    word = tokens[i][0]
    if word.isdigit():
        return (int(word), i + 1) if len(word) <= 3 else None
    first = _first(word)
    if first is None or not ({"nomn", "accs"} & set(first.tag.grammemes)  # type: ignore[attr-defined]
                             ) or str(first.tag.POS) != "NUMR":  # type: ignore[attr-defined]
        return None  # "на мне одной": a word of one, not an age of one
    lemma = str(getattr(first, "normal_form", word.lower()))
    if lemma in TENS:
        unit = 0
        if i + 1 < len(tokens):
            unit = UNITS.get(str(getattr(_first(tokens[i + 1][0]), "normal_form", "")), 0)
        return TENS[lemma] + unit, i + 1 + int(unit > 0)
    if lemma in TEENS:
        return TEENS[lemma], i + 1
    if lemma in UNITS:
        return UNITS[lemma], i + 1
    return None


def _ends_as_age(tokens: list[tuple[str, int]], j: int) -> bool:
    """Whether what follows a number leaves it an age: nothing, a mark, "лет" / "год", or a word
    that is no noun and no unit ("мне 2 раза", "мне 5 минут", "мне 15 декабря" are not)."""
    if j >= len(tokens):
        return True
    word = tokens[j][0]
    if word in _CLAUSE_END or not word[0].isalpha():
        return word not in ("%",)
    first = _first(word)
    if str(getattr(first, "normal_form", "")) in _YEARS:
        return True
    return "NOUN" not in _pos(word) or word.lower() in ("уже", "же", "ж")


def _between(word: str) -> bool:
    """A word that may stand between the dative and the age: a particle or an adverb ("ж",
    "вообще-то", "уже", "только"), never "бы" or "не", nor a word that may be a verb ("было")."""
    if word.lower() in _NOT_BETWEEN or not word[0].isalpha():
        return False
    if "VERB" in _pos(word):
        return False  # "когда мне было десять": "было" is a particle too, and says the past
    return bool(_pos(word) & {"PRCL", "ADVB"}) or any(
        "Prnt" in p.tag.grammemes for p in _parses(word))  # type: ignore[attr-defined]


def _clause(tokens: list[tuple[str, int]], i: int) -> list[str]:
    start = i
    while start > 0 and tokens[start - 1][0] not in _CLAUSE_END:
        start -= 1
    end = i
    while end < len(tokens) and tokens[end][0] not in _CLAUSE_END - {"—", "–"}:
        end += 1
    return [w for w, _ in tokens[start:end]]


def said_ages(text: str) -> list[SaidAge]:
    """Every age a Russian message says in passing (see the module's docstring)."""
    tokens = [(m.group(0), m.start()) for m in _TOKEN.finditer(text)]
    found: list[SaidAge] = []
    for i, (word, _) in enumerate(tokens):
        after_preposition = i > 0 and "PREP" in _pos(tokens[i - 1][0])  # "на мне", "ко мне"
        if word.isalpha() and not after_preposition and _dative_someone(word):
            j = i + 1
            while j < len(tokens) and j - i <= 3 and _between(tokens[j][0]):
                j += 1
            if j < len(tokens) and (said := _number(tokens, j)) is not None:
                n, after = said
                if 0 < n < 120 and _ends_as_age(tokens, after):
                    found.append(SaidAge(word, str(n), tokens[j][0], tokens[i][1]))
        elif (i > 1 and tokens[i - 1][0] == "," and (said := _number(tokens, i)) is not None
              and (whose := _apposed(tokens, i, said[1])) is not None):
            found.append(SaidAge(whose[0], str(said[0]), word, whose[1], bare=True))
        elif (word.lower() == "в" and i + 2 < len(tokens)
              and tokens[i + 1][0].lower().split("-")[0] in ("мои", "свои")):
            # "в мои двадцать девять", "в свои-то сорок": the speaker's age, presupposed
            said = _number(tokens, i + 2)
            # (not the past: "в мои 20 лет я жила в Москве")
            if said is not None and 14 <= said[0] < 120 and _own_then(_clause(tokens, i)):
                found.append(SaidAge(None, str(said[0]), tokens[i + 2][0]))
        elif word.lower() == "в" and i + 2 < len(tokens):
            said = _number(tokens, i + 1)
            if said is None:
                continue
            n, after = said
            if after >= len(tokens) or str(getattr(_first(tokens[after][0]), "normal_form",
                                                   "")) not in _YEARS or not 14 <= n < 120:
                continue
            if _own_then(_clause(tokens, i)):
                found.append(SaidAge(None, str(n), tokens[i + 1][0]))
    return found


_SUBJECT_PRONOUNS = {"он": "ему", "она": "ей"}


def _apposed(tokens: list[tuple[str, int]], i: int, after: int) -> tuple[str, int] | None:
    """Whose age a number with "лет" / "год" said as a clause of its own is ("сын Миша, 7 лет,
    первоклассник", "он у меня первоклассник, 7 лет"): the name in the nominative that ends
    the clause before it, or the "он" / "она" that begins that clause (as "ему" / "ей", for
    the one it stands for); with where it stands. None for anything else ("встречаемся с
    Олегом, 3 года уже", "живём в Казани, 3 года")."""
    if after >= len(tokens) or str(getattr(_first(tokens[after][0]), "normal_form", "")) not in _YEARS:
        return None
    if after + 1 < len(tokens) and tokens[after + 1][0] not in _CLAUSE_END:
        return None
    start = i - 1
    while start > 0 and tokens[start - 1][0] not in _CLAUSE_END:
        start -= 1
    clause = tokens[start:i - 1]
    if not clause:
        return None
    last, at = clause[-1]
    if last[:1].isupper() and last.isalpha() and any(
            "nomn" in p.tag.grammemes and ("Name" in p.tag.grammemes or str(p.tag.POS) == "NOUN")  # type: ignore[attr-defined]
            for p in _parses(last)[:3]):
        return last, at
    first, at = clause[0]
    if first.lower() in _SUBJECT_PRONOUNS:
        return _SUBJECT_PRONOUNS[first.lower()], at
    return None


# a third-person pronoun in the dative: the age of someone the message named before it ("сын
# Лёва, ему семь", "Лиза, моя младшая сестра ... Ей 27"; ``whose`` is the pronoun, its reader
# finds the one it stands for)
PRONOUNS = {"ему": frozenset({"masc", "neut"}), "ей": frozenset({"femn"})}


def _dative_someone(word: str) -> bool:
    """"мне", "ему" / "ей", or a noun that names someone in the dative ("маме", "Мише",
    "сыну")."""
    if word.lower() == "мне" or word.lower() in PRONOUNS:
        return True
    return any({"datv", "anim"} <= p.tag.grammemes and str(p.tag.POS) == "NOUN"  # type: ignore[attr-defined]
               for p in _parses(word)[:2])


def _own_then(clause: list[str]) -> bool:
    """Whether "в N лет" in this clause is the speaker's age now: nothing in the past, no one else
    as its subject, and the first person or an infinitive with no predicative."""
    said = [w for w in clause if w[0].isalpha()]
    tags = [_first(w) for w in said]
    grammemes = [set(getattr(getattr(t, "tag", None), "grammemes", ())) for t in tags]
    pos = [str(getattr(getattr(t, "tag", None), "POS", "")) for t in tags]
    if any("past" in g and p == "VERB" for g, p in zip(grammemes, pos, strict=True)):
        return False
    lower = {w.lower() for w in clause}
    if lower & {"он", "она", "они", "ему", "ей", "им", "его", "её", "ее", "их"}:
        return False
    if any((w[0].isupper() and i > 0 and g & {"Name", "Surn"})
           or ({"anim", "nomn"} <= g and p == "NOUN")
           for i, (w, g, p) in enumerate(zip(said, grammemes, pos, strict=True))):
        return False  # someone else named in it ("Лиза в 30 лет ...", "сын в 7 лет ...")
    if lower & {"я", "мне", "меня", "мой", "моя", "мои", "свои"} or any(
            "1per" in g and "sing" in g for g in grammemes):
        return True
    return "INFN" in pos and "PRED" not in pos


def counts_after(text: str, end: int) -> bool:
    """Whether the word right after a number ending at ``end`` makes it a count of something,
    not an age ("мне 2 раза звонили", "мне 5 минут до дома", "мне 15 декабря к врачу")."""
    tokens = [(m.group(0), m.start()) for m in _TOKEN.finditer(text[end:])]
    return not _ends_as_age(tokens, 0)
