"""Numbers as people write them, read by value: digits ("150 000", "1,5", "1,500"), with a
scale word ("150 тыс.", "150 тысяч", "1,5 млн", "150k", "150 tys.", "200 thousand") and the
common number words ("полторы тысячи", "двести тысяч", "три", "półtora tysiąca", "two
hundred"). "150 тысяч" and "150 000" are one number. Dates and times are marked: they tell
events apart rather than carry a value that changes.

No imports from the rest of ``hygiene``: ``similarity`` reads texts through ``canonical``.
"""

from __future__ import annotations

import re
from functools import lru_cache

_NUMBER_TOKEN = re.compile(r"\d+(?:(?:[.,]|\u2009)\d+)*|[^\W\d_]+", re.UNICODE)
_SPACED_THOUSANDS = re.compile(r"(?<=\d)[\s\u00a0\u202f](?=\d{3}\b)")
_HAS_DIGIT = re.compile(r"\d")
_COMMA_THOUSANDS = re.compile(r"^\d{1,3}(?:,\d{3})+$")

# Dates and times are numbers that tell events apart, not values that change: "был у врача
# 5 мая" and "был у врача 20 мая" are two visits. They still make two texts differ (never a
# near-duplicate), but a change of date alone is not "same words, other numbers".
_MONTH = (r"(?:январ|феврал|март|апрел|ма[йяе]\b|июн|июл|август|сентябр|октябр|ноябр|декабр"
          r"|stycz|lut|marc|kwiet|maj|czerw|lip|sierp|wrze[sś]|pa[zź]dziern|listopad|grud"
          r"|jan|feb|mar|apr|may\b|jun|jul|aug|sep|oct|nov|dec)")
_DATE = re.compile(
    rf"\b\d{{1,2}}(?:st|nd|rd|th|-?го|-?е)?\s+{_MONTH}|{_MONTH}[^\W\d_]*\.?\s+\d{{1,2}}(?:st|nd|rd|th)?\b"
    r"|\b\d{1,4}[./-]\d{1,2}[./-]\d{1,4}\b|\b\d{1,2}:\d{2}\b|\b(?:19|20)\d{2}\b",
    re.IGNORECASE)

# Scale words after a number (or alone: "тысяча рублей"), by their lower-case start.
_SCALES: tuple[tuple[re.Pattern[str], float], ...] = (
    (re.compile(r"^(?:тыс|тысяч\w*|thousands?|k|tys|tysi[aą]c\w*|tysięc\w*)$"), 1e3),
    (re.compile(r"^(?:млн|миллион\w*|millions?|mln|milion\w*|m{1,2}ln)$"), 1e6),
    (re.compile(r"^(?:млрд|миллиард\w*|billions?|bn|mld|miliard\w*)$"), 1e9),
)
_RU_WORDS = {
    "два": 2, "две": 2, "двух": 2, "три": 3, "трех": 3, "четыре": 4, "четырех": 4, "пять": 5,
    "пяти": 5, "шесть": 6, "шести": 6, "семь": 7, "семи": 7, "восемь": 8, "восьми": 8,
    "девять": 9, "девяти": 9, "десять": 10, "десяти": 10, "одиннадцать": 11, "двенадцать": 12,
    "пятнадцать": 15, "двадцать": 20, "тридцать": 30, "сорок": 40, "пятьдесят": 50,
    "шестьдесят": 60, "семьдесят": 70, "восемьдесят": 80, "девяносто": 90, "сто": 100,
    "двести": 200, "триста": 300, "четыреста": 400, "пятьсот": 500, "шестьсот": 600,
    "семьсот": 700, "восемьсот": 800, "девятьсот": 900, "полтора": 1.5, "полторы": 1.5,
    "полутора": 1.5,
}
_PL_WORDS = {
    "dwa": 2, "dwie": 2, "trzy": 3, "cztery": 4, "pięć": 5, "sześć": 6, "siedem": 7,
    "osiem": 8, "dziewięć": 9, "dziesięć": 10, "dwadzieścia": 20, "trzydzieści": 30,
    "czterdzieści": 40, "pięćdziesiąt": 50, "sto": 100, "dwieście": 200, "trzysta": 300,
    "czterysta": 400, "pięćset": 500, "półtora": 1.5, "półtorej": 1.5,
}
_EN_WORDS = {
    "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9,
    "ten": 10, "eleven": 11, "twelve": 12, "fifteen": 15, "twenty": 20, "thirty": 30,
    "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80, "ninety": 90,
    "hundred": 100,
}
_NUMBER_WORDS: dict[str, float] = {**_RU_WORDS, **_PL_WORDS, **_EN_WORDS}
# "один"/"one" only count before a scale word ("одна тысяча"); alone they are pronouns.
_ONE = frozenset({"один", "одна", "одну", "одной", "одного", "one", "a", "jeden", "jedna"})

def _scale(word: str) -> float | None:
    for pattern, value in _SCALES:
        if pattern.match(word):
            return value
    return None


def _format(value: float) -> str:
    if value == int(value):
        return str(int(value))
    return f"{value:.6f}".rstrip("0").rstrip(".")


def _digits(token: str) -> float:
    if _COMMA_THOUSANDS.match(token):
        token = token.replace(",", "")
    parts = token.replace(",", ".").split(".")
    whole = parts[0] + ("." + "".join(parts[1:]) if len(parts) > 1 else "")
    return float(whole) if len(parts) <= 2 else float(token.replace(",", "").replace(".", ""))


Reading = tuple[float, str, bool, tuple[int, int]]


@lru_cache(maxsize=8192)
def _read(text: str) -> tuple[Reading, ...]:
    """Every number in ``text``: its value, the words it was written with, whether it is a
    date or a time, and where it stands, in order."""
    joined = _SPACED_THOUSANDS.sub("\u2009", text)
    dates = [m.span() for m in _DATE.finditer(joined)] if _HAS_DIGIT.search(joined) else []
    out: list[Reading] = []
    total = 0.0
    current: float | None = None  # the number being read (digits or words), None between
    from_words = False
    tentative = False  # "one"/"одна": a number only if a scale word follows
    span = [0, 0]

    def flush() -> None:
        nonlocal total, current, from_words, tentative
        if not tentative and (current is not None or total):
            is_date = any(start <= span[0] < end for start, end in dates)
            out.append((total + (current or 0.0),
                        joined[span[0]:span[1]].replace("\u2009", " "), is_date,
                        (span[0], span[1])))
        total, current, from_words, tentative = 0.0, None, False, False

    def begin(start: int, end: int) -> None:
        if current is None and not total:
            span[0] = start
        span[1] = end

    for match in _NUMBER_TOKEN.finditer(joined):
        token = match.group(0).lower().replace("ё", "е")
        if token[0].isdigit():
            flush()
            begin(*match.span())
            current = _digits(token.replace("\u2009", ""))
            continue
        scale = _scale(token)
        bare_thousand = token.startswith(("тысяч", "thousand", "tysiąc", "tysiac"))
        if scale is not None and (current is not None or total or bare_thousand):
            begin(*match.span())
            total += (current if current is not None else 1.0) * scale
            current, tentative = None, False
            continue
        word = _NUMBER_WORDS.get(token)
        if word is not None:
            if current is not None and (not from_words or tentative):
                flush()
            begin(*match.span())
            if current is not None and word == 100 and current < 10:
                current *= word  # "two hundred"
            else:
                current = (current or 0.0) + word
            from_words = True
            continue
        flush()
        if token in _ONE:
            begin(*match.span())
            current, from_words, tentative = 1.0, True, True
    flush()
    return tuple(out)


def numbers(text: str, *, dates: bool = True) -> tuple[str, ...]:
    """The numbers in ``text`` by value, in order ("150 000" and "150 тыс." -> "150000",
    "1,5" -> "1.5", "полторы тысячи" -> "1500"); without dates and times if ``dates=False``."""
    return tuple(_format(value) for value, _, is_date, _ in _read(text) if dates or not is_date)


def written(text: str) -> tuple[str, ...]:
    """The numbers of ``text`` as written ("150 тысяч", "1,5 млн"), in order."""
    return tuple(words for _, words, _, _ in _read(text))


def is_number_word(word: str) -> bool:
    """A scale or number word ("тысяч", "тыс", "million", "двести"): not a content word here."""
    word = word.lower().replace("ё", "е")
    return word in _NUMBER_WORDS or _scale(word) is not None


def canonical(text: str) -> str:
    """``text`` with each number written as its value ("стоит 150 тысяч" -> "стоит 150000")."""
    found = _read(text)
    if not found:
        return text
    out: list[str] = []
    last = 0
    for value, _, _, (start, end) in found:
        out.append(text[last:start])
        out.append(_format(value))
        last = end
    out.append(text[last:])
    return "".join(out)
