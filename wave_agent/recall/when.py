"""The period a question names, read off its wording: the time span of recall's dated voice.

A question that names a date or a period ("what did I do on 3 June 2023", "в прошлом месяце",
"w czerwcu") is often answered by records created in that period even when they share no word
with the question, so recall searches that period too. This module only turns the text into a
``Span``; it knows nothing of stores. English, Russian and Polish; Russian and Polish months in
every grammatical case (and Polish typed without diacritics). Pure functions over precompiled
patterns: a few microseconds per question.

Ambiguity is settled on the side of silence:

* English "may" is a month only when written "May", after in/during/of/since, or inside a full
  date with a year ("3 may 2023"); "May I ask ..." names no period.
* A month or a day named without a year is the most recent one not in the future.
* An impossible date (31 February) or a year outside 1900-2100 is skipped, never raised; the
  other phrases in the text still count.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta, tzinfo
from itertools import chain
from typing import Any

__all__ = ["Span", "query_span"]


@dataclass(frozen=True, slots=True)
class Span:
    start: datetime  # inclusive, tz-aware
    end: datetime  # exclusive, tz-aware
    phrase: str  # the matched text, for logs and the ranks explanation


Bounds = tuple[datetime, datetime]
Resolver = Callable[[re.Match[str], datetime], Bounds | None]

# Most specific first: a named day beats a month, a month a year, any of them a relative phrase.
DAY, MONTH, YEAR, RELATIVE = 3, 2, 1, 0
FIRST_YEAR, LAST_YEAR = 1900, 2100
LAST_WEEK_DAYS = 14  # people say "last week" loosely: a generous window

# ---------------------------------------------------------------- month names, every form


EN_MONTHS = (
    ("january", "jan"), ("february", "feb"), ("march", "mar"), ("april", "apr"), ("may",),
    ("june", "jun"), ("july", "jul"), ("august", "aug"), ("september", "sept", "sep"),
    ("october", "oct"), ("november", "nov"), ("december", "dec"),
)
# Abbreviations that are also common words or names ("since Jan left"): without a dot they
# count after a preposition only at the end of a clause.
AMBIGUOUS_ABBREVIATIONS = frozenset({"jan", "mar", "jun"})
EN_ABBREVIATIONS = frozenset(name for names in EN_MONTHS for name in names[1:])

# Russian: stem + case ending. Soft stems decline like "июнь", hard ones like "март".
_RU_SOFT = ("ь", "я", "е", "ю", "ём", "ем")
_RU_HARD = ("", "а", "е", "у", "ом")
RU_MONTHS = (
    ("январ", _RU_SOFT), ("феврал", _RU_SOFT), ("март", _RU_HARD), ("апрел", _RU_SOFT),
    ("ма", ("й", "я", "е", "ю", "ем")), ("июн", _RU_SOFT), ("июл", _RU_SOFT),
    ("август", _RU_HARD), ("сентябр", _RU_SOFT), ("октябр", _RU_SOFT), ("ноябр", _RU_SOFT),
    ("декабр", _RU_SOFT),
)

# Polish: the nominative, then the oblique stem with its genitive, locative, instrumental endings.
_PL_USUAL = ("a", "u", "em")
PL_MONTHS = (
    ("styczeń", "styczni", _PL_USUAL), ("luty", "lut", ("ego", "ym", "emu")),
    ("marzec", "marc", _PL_USUAL), ("kwiecień", "kwietni", _PL_USUAL),
    ("maj", "maj", _PL_USUAL), ("czerwiec", "czerwc", _PL_USUAL),
    ("lipiec", "lipc", _PL_USUAL), ("sierpień", "sierpni", _PL_USUAL),
    ("wrzesień", "wrześni", _PL_USUAL), ("październik", "październik", ("a", "u", "iem")),
    ("listopad", "listopad", ("a", "zie", "em")), ("grudzień", "grudni", _PL_USUAL),
)
_PL_ASCII = str.maketrans("ąćęłńóśźż", "acelnoszz")


def _en_forms() -> Iterator[tuple[int, str]]:
    for number, names in enumerate(EN_MONTHS, start=1):
        for name in names:
            yield number, name


def _ru_forms() -> Iterator[tuple[int, str]]:
    for number, (stem, endings) in enumerate(RU_MONTHS, start=1):
        for ending in endings:
            yield number, stem + ending


def _pl_forms() -> Iterator[tuple[int, str]]:
    for number, (nominative, stem, endings) in enumerate(PL_MONTHS, start=1):
        for form in (nominative, *(stem + ending for ending in endings)):
            yield number, form
            yield number, form.translate(_PL_ASCII)


MONTH_OF: dict[str, int] = {
    form: number for forms in (_en_forms(), _ru_forms(), _pl_forms()) for number, form in forms
}


def _trie(words: Iterable[str]) -> str:
    """One alternation as a letter trie, so the engine reads each letter once, not once a form."""
    tree: dict[str, Any] = {}
    for word in words:
        node = tree
        for letter in word:
            node = node.setdefault(letter, {})
        node[""] = {}
    return _trie_node(tree)


def _trie_node(node: dict[str, Any]) -> str:
    branches = [re.escape(letter) + _trie_node(child) for letter, child in node.items() if letter]
    if not branches:
        return ""
    if "" in node:
        return "(?:" + "|".join(branches) + ")?"
    return branches[0] if len(branches) == 1 else "(?:" + "|".join(branches) + ")"


def _month_group(forms: Iterator[tuple[int, str]]) -> str:
    """A ``month`` group matching whole forms; English abbreviations may carry a dot."""
    by_width: dict[int, list[str]] = {}
    for name in sorted(EN_ABBREVIATIONS):
        by_width.setdefault(len(name), []).append(name)
    after_abbreviation = "|".join(f"(?<={'|'.join(names)})" for names in by_width.values())
    dot = rf"(?:(?:{after_abbreviation})\.)?"
    return rf"\b(?P<month>{_trie(form for _, form in forms)}\b{dot})"


ANY_MONTH = _month_group(chain(_en_forms(), _ru_forms(), _pl_forms()))
EN_MONTH = _month_group(_en_forms())
RU_MONTH = _month_group(_ru_forms())
PL_MONTH = _month_group(_pl_forms())

# ---------------------------------------------------------------- pattern pieces

_YEAR = r"(?P<year>\d{4})(?!\d|[-./:]\d)"
_YEAR_WORD = r"(?:\s*(?:(?:года|году|год|roku)\b|г\.|г\b|r\.))?"  # "2023 года", "2023 r."
_DAY_BEFORE = r"\b(?P<day>[0-3]?\d)(?!\d)(?:st|nd|rd|th|-?го|-?е|\.)?\s+(?:of\s+)?"
_DAY_AFTER = r"\s+(?P<day>[0-3]?\d)(?!\d)(?:st|nd|rd|th)?\b"
_NO_NUMBER_AFTER = r"(?![\s,]*\d)"  # "3 June" but not "3 June 1850" (an impossible year)
_EN_WHICH_YEAR = r"(?:[\s,]+(?:(?P<last>(?:of\s+)?last\s+year)|(?P<this>(?:of\s+)?this\s+year))\b)?"
_RU_WHICH_YEAR = (
    r"(?:\s+(?:(?P<last>прошлого\s+года|в\s+прошлом\s+году)"
    r"|(?P<this>этого\s+года|в\s+этом\s+году))\b)?"
)
_PL_WHICH_YEAR = (
    r"(?:\s+(?:(?P<last>(?:w\s+)?(?:zesz[łl]\w+|ubieg[łl]\w+)\s+roku)"
    r"|(?P<this>(?:w\s+)?(?:tym|tego|bie[żz][ąa]cego)\s+roku))\b)?"
)
_EARLIER = r"(?:zesz[łl]ym|ubieg[łl]ym)"  # Polish "last" (locative)

_MAY_CONTEXT = re.compile(r"\b(?:in|during|of|since)\s+$", re.IGNORECASE)
_CLAUSE_END = re.compile(r"\s*(?:[^\w\s]|$)")

# ---------------------------------------------------------------- bounds


def _midnight(day: date, tz: tzinfo | None) -> datetime:
    return datetime(day.year, day.month, day.day, tzinfo=tz)


def _days(first: date, count: int, tz: tzinfo | None) -> Bounds:
    return _midnight(first, tz), _midnight(first + timedelta(days=count), tz)


def _day_bounds(year: int, month: int, day: int, tz: tzinfo | None) -> Bounds | None:
    if not FIRST_YEAR <= year <= LAST_YEAR:
        return None
    try:
        return _days(date(year, month, day), 1, tz)
    except ValueError:  # 31 February, month 13
        return None


def _month_bounds(year: int, month: int, tz: tzinfo | None) -> Bounds | None:
    if not (FIRST_YEAR <= year <= LAST_YEAR and 1 <= month <= 12):
        return None
    after = date(year + 1, 1, 1) if month == 12 else date(year, month + 1, 1)
    return _midnight(date(year, month, 1), tz), _midnight(after, tz)


def _year_bounds(year: int, tz: tzinfo | None) -> Bounds | None:
    if not FIRST_YEAR <= year <= LAST_YEAR:
        return None
    return _midnight(date(year, 1, 1), tz), _midnight(date(year + 1, 1, 1), tz)


# ---------------------------------------------------------------- reading a match


def _named_month(match: re.Match[str], *, any_may: bool = False) -> int | None:
    """The month a matched name means; None for an English "may" that reads as the verb."""
    token = match.group("month")
    name = token.rstrip(".").lower()
    if name == "may" and not any_may and token[0] != "M":
        start = match.start("month")
        if not _MAY_CONTEXT.search(match.string, max(0, start - 16), start):
            return None
    return MONTH_OF[name]


def _ambiguous_abbreviation(match: re.Match[str]) -> bool:
    """"since Jan left": an abbreviation that is also a name, followed by more words."""
    token = match.group("month")
    if token.lower() not in AMBIGUOUS_ABBREVIATIONS or match.group("last") or match.group("this"):
        return False
    return _CLAUSE_END.match(match.string, match.end("month")) is None


def _numeric_date(match: re.Match[str], now: datetime) -> Bounds | None:
    year, month, day = (int(match.group(g)) for g in ("year", "month", "day"))
    return _day_bounds(year, month, day, now.tzinfo)


def _full_date(match: re.Match[str], now: datetime) -> Bounds | None:
    month = _named_month(match, any_may=True)  # "3 may 2023" cannot be the verb
    if month is None:
        return None
    return _day_bounds(int(match.group("year")), month, int(match.group("day")), now.tzinfo)


def _recent_day(match: re.Match[str], now: datetime) -> Bounds | None:
    """A day named without a year: the most recent one not in the future (29 February too)."""
    month, day = _named_month(match), int(match.group("day"))
    if month is None:
        return None
    for year in range(now.year, now.year - 9, -1):
        try:
            candidate = date(year, month, day)
        except ValueError:
            continue
        if candidate <= now.date():
            return _days(candidate, 1, now.tzinfo)
    return None


def _month_of_year(match: re.Match[str], now: datetime) -> Bounds | None:
    month = _named_month(match)
    if month is None:
        return None
    return _month_bounds(int(match.group("year")), month, now.tzinfo)


def _recent_month(match: re.Match[str], now: datetime) -> Bounds | None:
    """"in June": the most recent June not in the future, or the one "last/this year" names."""
    month = _named_month(match)
    if month is None or _ambiguous_abbreviation(match):
        return None
    if match.group("last"):
        year = now.year - 1
    elif match.group("this"):
        year = now.year
    else:
        year = now.year if month <= now.month else now.year - 1
    return _month_bounds(year, month, now.tzinfo)


def _whole_year(match: re.Match[str], now: datetime) -> Bounds | None:
    return _year_bounds(int(match.group("year")), now.tzinfo)


def _days_back(count: int) -> Resolver:
    def resolve(_: re.Match[str], now: datetime) -> Bounds:
        return _days(now.date() - timedelta(days=count), 1, now.tzinfo)

    return resolve


def _days_ago(match: re.Match[str], now: datetime) -> Bounds:
    """"5 days ago" is said loosely: that day and one either side."""
    day = now.date() - timedelta(days=int(match.group("n")))
    return _days(day - timedelta(days=1), 3, now.tzinfo)


def _last_week(_: re.Match[str], now: datetime) -> Bounds:
    return now - timedelta(days=LAST_WEEK_DAYS), now


def _last_month(_: re.Match[str], now: datetime) -> Bounds:
    first = now.date().replace(day=1)
    return _midnight((first - timedelta(days=1)).replace(day=1), now.tzinfo), _midnight(
        first, now.tzinfo
    )


def _last_year(_: re.Match[str], now: datetime) -> Bounds | None:
    return _year_bounds(now.year - 1, now.tzinfo)


# ---------------------------------------------------------------- the rules


@dataclass(frozen=True, slots=True)
class _Rule:
    pattern: re.Pattern[str]
    rank: int
    resolve: Resolver


def _rule(pattern: str, rank: int, resolve: Resolver) -> _Rule:
    return _Rule(re.compile(pattern, re.IGNORECASE), rank, resolve)


RULES: tuple[_Rule, ...] = (
    # days: 2023-06-03, 03.06.2023, 3 June 2023, June 3rd, 2023, 3 июня 2023 года, 3 czerwca
    _rule(r"\b(?P<year>\d{4})-(?P<month>\d{1,2})-(?P<day>\d{1,2})(?!\d)", DAY, _numeric_date),
    _rule(r"\b(?P<day>\d{1,2})\.(?P<month>\d{1,2})\.(?P<year>\d{4})(?!\d)", DAY, _numeric_date),
    _rule(_DAY_BEFORE + ANY_MONTH + r"[\s,]+" + _YEAR + _YEAR_WORD, DAY, _full_date),
    _rule(ANY_MONTH + _DAY_AFTER + r"[\s,]+" + _YEAR + _YEAR_WORD, DAY, _full_date),
    _rule(_DAY_BEFORE + ANY_MONTH + _NO_NUMBER_AFTER, DAY, _recent_day),
    _rule(ANY_MONTH + _DAY_AFTER + _NO_NUMBER_AFTER, DAY, _recent_day),
    # months: June 2023, июнь 2023, in June, в июне, w czerwcu zeszłego roku
    _rule(ANY_MONTH + r"[\s,]+(?:of\s+)?" + _YEAR + _YEAR_WORD, MONTH, _month_of_year),
    _rule(r"\b(?:in|during|of|since)\s+" + EN_MONTH + _NO_NUMBER_AFTER + _EN_WHICH_YEAR,
          MONTH, _recent_month),
    _rule(r"\b(?:в|во|с|со|за)\s+" + RU_MONTH + _NO_NUMBER_AFTER + _RU_WHICH_YEAR,
          MONTH, _recent_month),
    _rule(r"\b(?:w|we|od)\s+" + PL_MONTH + _NO_NUMBER_AFTER + _PL_WHICH_YEAR,
          MONTH, _recent_month),
    # years: in 2023, в 2023 году, w 2023 (Russian "в 2000 раз" and Polish "od 2000 zł" are not)
    _rule(r"\b(?:in|during|since)\s+" + _YEAR, YEAR, _whole_year),
    _rule(r"\b(?:в|во|с|со)\s+" + _YEAR + r"\s*(?:(?:года|году|год)\b|г\.|г\b)", YEAR,
          _whole_year),
    _rule(r"\b(?:в|во)\s+" + _YEAR + r"(?=\s*(?:[^\w\s]|$))", YEAR, _whole_year),
    _rule(r"\b(?:w|we)\s+" + _YEAR + _YEAR_WORD, YEAR, _whole_year),
    _rule(r"\bod\s+" + _YEAR + r"\s*(?:roku\b|r\.)", YEAR, _whole_year),
    # relative to now
    _rule(r"\b(?:the\s+)?day\s+before\s+yesterday\b|\bпозавчера\b|\bprzedwczoraj\b", RELATIVE,
          _days_back(2)),
    _rule(r"\byesterday\b|\bвчера\b|\bwczoraj\b", RELATIVE, _days_back(1)),
    _rule(r"\btoday\b|\bсегодня\b|\bdzisiaj\b|\bdzi[śs]\b", RELATIVE, _days_back(0)),
    _rule(r"\b(?P<n>\d{1,4})\s+(?:days?\s+ago|(?:день|дня|дней)\s+назад|(?:dzie[ńn]|dni)\s+temu)\b",
          RELATIVE, _days_ago),
    _rule(r"\blast\s+week\b|\b(?:на\s+)?прошлой\s+неделе\b|\b(?:w\s+)?" + _EARLIER
          + r"\s+tygodniu\b", RELATIVE, _last_week),
    _rule(r"\blast\s+month\b|\b(?:в\s+)?прошлом\s+месяце\b|\b(?:w\s+)?" + _EARLIER
          + r"\s+miesi[ąa]cu\b", RELATIVE, _last_month),
    _rule(r"\blast\s+year\b|\b(?:в\s+)?прошлом\s+году\b|\b(?:w\s+)?" + _EARLIER + r"\s+roku\b",
          RELATIVE, _last_year),
)


def query_span(text: str, now: datetime, tz: tzinfo = UTC) -> Span | None:
    """The period a question names, or None. `now` is tz-aware; relative phrases count from it.

    Days are whole days in ``tz`` (start 00:00 inclusive, next 00:00 exclusive); months and
    years likewise. When several phrases match, the most specific wins: a named day beats a
    month, a month beats a year, and any of them beats a relative phrase ("yesterday", "last
    week"); among equals the longer phrase wins, then the earlier one.
    """
    if now.utcoffset() is None:
        raise ValueError("query_span needs a timezone-aware `now`")
    local_now = now.astimezone(tz)
    best: tuple[tuple[int, int, int], Bounds, str] | None = None
    for rule in RULES:
        for match in rule.pattern.finditer(text):
            key = (rule.rank, match.end() - match.start(), -match.start())
            if best is not None and key <= best[0]:
                continue
            bounds = rule.resolve(match, local_now)
            if bounds is not None:
                best = (key, bounds, match.group(0).strip())
    if best is None:
        return None
    _, (start, end), phrase = best
    return Span(start, end, phrase)
