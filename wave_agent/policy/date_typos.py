"""Misspelt date words, put right before the date reader (``policy.dates``) reads a text.

"в пятнецу", "завтро", "tomorow", "wtorke", "piatek" (Polish typed without its letters with
diacritics): a person who misspells the day still means a day, and reading the rest of the
message without it invents one ("в пятнецу вечером" read as this evening). ``correct(text)``
replaces such a word with the date word it was meant to be, only where that is unambiguous:

- the lexicon is the reader's own date words (weekdays, "завтра"/"послезавтра"/"сегодня",
  months, their Polish and English counterparts); Russian forms are every form of each lemma
  that pymorphy3's dictionary gives (all cases and numbers), so a slip in any case is found;
- a word already in the lexicon, or shorter than five letters, is left alone;
- Russian: one edit (a letter changed, added, dropped or two swapped) from a lexicon form, and
  the word is not itself a Russian word pymorphy3 knows ("сряду" stays);
- Polish and English (no dictionary is shipped here to tell a slip from a real word): the same
  letters with or without Polish diacritics ("piatek", "srode"), or, for words of six letters
  and more, a letter added, dropped or two swapped (two such edits from eight letters:
  "tommorow"), never a letter changed: a changed letter is how real words neighbour date words
  ("robota"/"sobota", "sundae"/"sunday", "match"/"march");
- every candidate at the smallest distance must mean the same day (all forms of Friday); when
  they disagree the word is returned in ``unsure`` and the reader asks instead of guessing.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

# meaning -> lemmas (Russian, expanded by pymorphy3) or word forms (Polish, English)
_RU_LEMMAS: dict[str, tuple[str, ...]] = {
    "mon": ("понедельник",), "tue": ("вторник",), "wed": ("среда",), "thu": ("четверг",),
    "fri": ("пятница",), "sat": ("суббота",), "sun": ("воскресенье",),
    "tomorrow": ("завтра",), "after-tomorrow": ("послезавтра",), "today": ("сегодня",),
    "m01": ("январь",), "m02": ("февраль",), "m03": ("март",), "m04": ("апрель",),
    "m06": ("июнь",), "m07": ("июль",), "m08": ("август",), "m09": ("сентябрь",),
    "m10": ("октябрь",), "m11": ("ноябрь",), "m12": ("декабрь",),
    "weekend": ("выходные",), "next": ("следующий",), "week": ("неделя",),
    "month": ("месяц",), "after": ("через",),
}
_FORMS: dict[str, tuple[str, ...]] = {
    # the plurals ("we wtorki", "w niedziele", "on weekends": every such day) are listed so that
    # they are known words, never "corrected" to a single day
    "mon": ("poniedziałek", "poniedziałku", "poniedziałkiem", "poniedziałki", "poniedziałków",
            "monday", "mondays"),
    "tue": ("wtorek", "wtorku", "wtorkiem", "wtorki", "wtorków", "tuesday", "tuesdays"),
    "wed": ("środa", "środę", "środy", "środzie", "środach", "wednesday", "wednesdays"),
    "thu": ("czwartek", "czwartku", "czwartkiem", "czwartki", "czwartków", "thursday",
            "thursdays"),
    "fri": ("piątek", "piątku", "piątkiem", "piątki", "piątków", "friday", "fridays"),
    "sat": ("sobota", "sobotę", "soboty", "sobocie", "sobotach", "saturday", "saturdays"),
    "sun": ("niedziela", "niedzielę", "niedzieli", "niedziele", "niedzielach", "sunday",
            "sundays"),
    "tomorrow": ("jutro", "tomorrow"), "after-tomorrow": ("pojutrze",),
    "today": ("dzisiaj", "dziś", "today", "tonight"),
    "next": ("przyszły", "przyszłą", "przyszłym", "przyszłej", "następny", "następną"),
    "weekend": ("weekend", "weekendy", "weekendów", "weekendach", "weekends"),
    "m01": ("stycznia", "styczniu", "january"), "m02": ("lutego", "lutym", "february"),
    "m03": ("marca", "marcu"), "m04": ("kwietnia", "kwietniu", "april"),
    "m06": ("czerwca", "czerwcu"), "m07": ("lipca", "lipcu"),
    "m08": ("sierpnia", "sierpniu", "august"), "m09": ("września", "wrześniu", "september"),
    "m10": ("października", "październiku", "october"),
    "m11": ("listopada", "listopadzie", "november"), "m12": ("grudnia", "grudniu", "december"),
    "month": ("miesiąc", "miesiąca", "miesiącu", "miesiące", "miesięcy"),
    "half": ("połowie", "połowę", "połowy"),
    "week": ("tygodnia", "tygodniu", "tygodnie", "tygodni", "tydzień"),
    # Polish typed without diacritics ("do konca tygodnia", "w przyszlym tygodniu", "o
    # polnocy"): the plain letters map back to these words only (never by an edit)
    "next-pl": ("przyszłego", "przyszłych", "następnego", "następnym", "następnej"),
    "end": ("końca", "końcu"), "noon": ("południe", "południu", "południem", "popołudniu"),
    "midnight": ("północy", "północ"), "hour": ("godzinę",), "day": ("dzień",),
    "evening": ("wieczór",),
}
# Latin words put right by an added, dropped or swapped letter only towards these meanings, or
# towards a month beside a day number ("15 febuary"): a month word alone is too often one
# letter from a real word ("wrzenia", boiling, is not "września").
# Polish words of dates and times as people type them without diacritics ("o wpol do osmej",
# "kwadrans po piatej", "za pare dni", "pietnastego"): put back by their plain letters only,
# never by an edit; words of three or four letters ("pol", "dzis", "pare") only in a Polish
# text, where they are no English word
_PL_WITH_DIACRITICS = (
    "wpół", "pół", "półtorej", "półtora", "południe", "południu", "popołudniu", "południa",
    "północy", "północ", "ósmej", "ósma", "piątej", "piąta", "szóstej", "szósta", "siódmej",
    "siódma", "dziewiątej", "dziewiąta", "dziesiątej", "dziesiąta", "środa", "środę", "środy",
    "środzie", "piątek", "piątku", "piątkiem", "poniedziałek", "poniedziałku",
    "poniedziałkiem", "początku", "początek", "przyszłego", "przyszłym", "przyszły",
    "przyszłą", "przyszłej", "przyszłych", "następny", "następnego", "następnym", "następną",
    "następnej", "najbliższy", "najbliższą", "najbliższym", "najbliższej", "najbliższe",
    "tydzień", "miesiąc", "miesiąca", "miesiącu", "miesięcy", "dzień", "dziś", "dobę",
    "piątego", "piętnastego", "szóstego", "siódmego", "ósmego", "dziewiątego", "dziesiątego",
    "dziewiętnastego", "pięć", "sześć", "dziewięć", "dziesięć", "piętnaście", "dwadzieścia",
    "trzydzieści", "czterdzieści", "pięćdziesiąt", "jedną", "dwóch", "parę", "września",
    "wrześniu", "października", "październiku", "święta", "świętach", "świąt", "wigilię",
    "wigilii", "majówkę", "majówki", "wieczór", "końca", "końcu", "końcem", "włącznie",
    "niedługo", "godzinę", "połowie", "połowę", "połowy", "sobotę",
)
_PL_PLAIN: dict[str, str] = {}
for _word in _PL_WITH_DIACRITICS:
    _PL_PLAIN.setdefault(_word.translate(str.maketrans("ąćęłńóśźż", "acelnoszz")), _word)
_DIACRITIC = re.compile(r"[ąćęłńóśźż]")
_POLISH_PLAIN = re.compile(r"(?<!\w)(?:w|we|z|ze|na|za|sie|się|jest|mam|nie|jutro|dzis|dzisiaj|"
                           r"pojutrze|rano|wieczorem|stycznia|lutego|marca|kwietnia|maja|"
                           r"czerwca|lipca|sierpnia|wrzesnia|pazdziernika|listopada|grudnia)(?!\w)")
_EDITABLE = frozenset({"mon", "tue", "wed", "thu", "fri", "sat", "sun", "tomorrow",
                       "after-tomorrow", "today", "weekend"})
_DAY_NUMBER = re.compile(r"\d{1,2}(?:st|nd|rd|th|-?go|-?ego|\.)?")
_FOLD = str.maketrans("ąćęłńóśźż", "acelnoszz")
_WORD = re.compile(r"[^\W\d_]+")
_CYRILLIC = re.compile(r"[а-я]")


@lru_cache(maxsize=1)
def _morph() -> Any:
    import pymorphy3

    return pymorphy3.MorphAnalyzer(lang="ru")


def morph() -> Any:
    """pymorphy3's Russian analyser, loaded once (the clause reader tags verbs with it)."""
    return _morph()


@lru_cache(maxsize=1)
def _lexicon() -> dict[str, str]:
    """Every date word form the reader knows -> its meaning."""
    forms: dict[str, str] = {}
    for meaning, lemmas in _RU_LEMMAS.items():
        for lemma in lemmas:
            parse = _morph().parse(lemma)[0]
            for form in parse.lexeme:
                forms[form.word.replace("ё", "е")] = meaning
            forms[lemma] = meaning
    for meaning, words in _FORMS.items():
        for word in words:
            forms[word] = meaning
    return forms


@lru_cache(maxsize=1)
def _folded() -> dict[str, set[str]]:
    out: dict[str, set[str]] = {}
    for form in _lexicon():
        if not _CYRILLIC.search(form):
            out.setdefault(form.translate(_FOLD), set()).add(form)
    return out


def _distance(a: str, b: str, substitute: bool) -> int:
    """Damerau-Levenshtein (optimal string alignment); a change costs 9 when not allowed."""
    change = 1 if substitute else 9
    rows = [list(range(len(b) + 1))]
    for i in range(1, len(a) + 1):
        row = [i] + [0] * len(b)
        for j in range(1, len(b) + 1):
            cost = 0 if a[i - 1] == b[j - 1] else change
            row[j] = min(rows[-1][j] + 1, row[j - 1] + 1, rows[-1][j - 1] + cost)
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                row[j] = min(row[j], rows[-2][j - 2] + 1)
        rows.append(row)
    return rows[-1][-1]


def _deletes(word: str, depth: int) -> set[str]:
    out, edge = {word}, {word}
    for _ in range(depth):
        edge = {w[:i] + w[i + 1:] for w in edge for i in range(len(w))}
        out |= edge
    return out


@lru_cache(maxsize=1)
def _index() -> dict[str, set[str]]:
    """Each lexicon form (folded when Latin) under its deletions: a near word shares one."""
    index: dict[str, set[str]] = {}
    for form in _lexicon():
        key = form if _CYRILLIC.search(form) else form.translate(_FOLD)
        for deleted in _deletes(key, 1 if _CYRILLIC.search(form) else 2):
            index.setdefault(deleted, set()).add(form)
    return index


def _candidates(word: str, beside_number: bool = False) -> list[str]:
    cyrillic = bool(_CYRILLIC.search(word))
    key = word if cyrillic else word.translate(_FOLD)
    if not cyrillic:
        same = _folded().get(key)
        if same:
            return sorted(same)
        if len(word) < 6:
            return []
    limit = 1 if cyrillic or len(word) < 8 else 2
    index = _index()
    lexicon = _lexicon()
    near = {form for deleted in _deletes(key, limit) for form in index.get(deleted, ())
            if bool(_CYRILLIC.search(form)) == cyrillic}
    if not cyrillic:
        near = {f for f in near if (lexicon[f] in _EDITABLE
                                    or (beside_number and re.fullmatch(r"m\d\d", lexicon[f])))
                and (len(f) >= 8 or _distance(key, f.translate(_FOLD), False) <= 1)}
    scored = sorted((_distance(key, f if cyrillic else f.translate(_FOLD), cyrillic), f)
                    for f in near)
    scored = [(d, f) for d, f in scored if d <= limit]
    if not scored:
        return []
    if cyrillic and _morph().word_is_known(word):
        return []
    best = scored[0][0]
    return [f for d, f in scored if d == best]


def correct(text: str) -> tuple[str, list[str]]:
    """``text`` (normalised) with misspelt date words put right, and the words left unsure."""
    lexicon = _lexicon()
    unsure: list[str] = []
    polish = bool(_POLISH_PLAIN.search(text)) and not _CYRILLIC.search(text)

    def fix(match: re.Match[str]) -> str:
        word = match.group(0)
        if word in lexicon:
            # "w niedziele" in a text typed without any diacritic is the one Sunday, not
            # "on Sundays" (the plural is that form with its diacritic written)
            if polish and word == "niedziele" and not _DIACRITIC.search(text):
                return "niedzielę"
            return word
        if word in _PL_PLAIN and (polish or len(word) >= 5):
            return _PL_PLAIN[word]
        if len(word) < 5:
            return word
        before = text[:match.start()].split()[-1:]
        after = text[match.end():].split()[:1]
        beside_number = any(_DAY_NUMBER.fullmatch(t.strip(",.")) for t in before + after)
        found = _candidates(word, beside_number)
        if not found:
            return word
        if len({lexicon[f] for f in found}) > 1:
            unsure.append(word)
            return word
        return found[0]

    return _WORD.sub(fix, text), unsure


_NOT_A_THING = re.compile(r"числ\w*|январ\w*|феврал\w*|март\w*|апрел\w*|ма[яю]|июн\w*|июл\w*|"
                          r"август\w*|сентябр\w*|октябр\w*|ноябр\w*|декабр\w*")


@lru_cache(maxsize=4096)
def noun_in_case(word: str, case: str) -> bool:
    """True when ``word`` is most likely a Russian noun in ``case`` ("этажа": genitive), not a
    month or "числа": what an ordinal before it ("9-го") then counts is that noun."""
    if not _CYRILLIC.search(word) or _NOT_A_THING.fullmatch(word):
        return False
    parse = _morph().parse(word)[0]
    return bool(parse.tag.POS == "NOUN" and case in parse.tag and parse.score >= 0.3)

