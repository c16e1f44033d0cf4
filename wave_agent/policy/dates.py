"""When a promise is due: the date a message names, read in Russian, Polish and English.

``read_due(text, written_at, reminder_hour=10)`` reads "в пятницу", "послезавтра вечером",
"через две недели", "до 15-го", "в конце месяца", "15 марта в 10", "w piątek", "next Tuesday"
relative to the moment the message was written, in the zone of ``written_at`` (the person's).
No clock and no network; the only thing it loads is pymorphy3's dictionary, once, the first
time a word looks like a misspelt date word (``date_typos.py`` puts such words right first).

The reading is careful rather than clever. A date a careful human would have to ask about is
returned as ``ambiguous`` with no due time, never guessed: the weekday that is today ("в пятницу"
said on a Friday: today or in a week?), a bare hour 1-7 ("в 3": night or afternoon?), a time
already past ("сегодня в 9" said at 14:00), two dates that disagree ("завтра или
послезавтра"), a vague "на днях". The conventions (the reminder hour when no time is said,
"утром" 09:00, "next Tuesday" the Tuesday of next calendar week, a date already past this year
is next year's) are the ones the date set is labelled with (``docs/benchmarks.md``, "Dates").

How: misspelt date words are put right where unambiguous ("в пятнецу", "tomorow"), then the
text is scanned by kinds of expression, most specific first (moves by a span, exact offsets, dates
with a month, days of the month, weekdays, words like "завтра", periods like "в конце
месяца", clock times, parts of the day); each match blanks its span so a later kind cannot read
the same words again. What was found is then combined into one due time or a question. When
two days or times disagree in one message ("концерт в субботу, а в пятницу распечатать
билеты"), each clause is read alone and the one that is the person's own task, by its verb
(``date_clauses.py``), says which; when the verbs do not say, the question stays.

A module of this size: the readers share one scan and run in one order that matters (a date
with a month before a bare day number, a weekday before "next week"); split across files, that
order would be hidden. The words themselves live in ``date_words.py``.
"""

from __future__ import annotations

import calendar
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, time, timedelta
from zoneinfo import ZoneInfo

from wave_agent.policy import date_words as w
from wave_agent.policy.date_clauses import (
    REQUEST,
    Role,
    about_another,
    clauses,
    gives_reason,
    language,
    looks_back,
    only_beside,
    role,
)
from wave_agent.policy.date_typos import correct, morph, noun_in_case

REMINDER_HOUR = 10


@dataclass(frozen=True)
class DueReading:
    """What a text says about when something is due.

    ``due`` is an aware datetime in the zone of ``written_at``, or None; ``ambiguous`` means a
    date was named but a person must say which (``reason`` says why, in English, for logs and
    the question); ``phrase`` is the words the date was read from.
    """

    due: datetime | None
    ambiguous: bool = False
    reason: str = ""
    phrase: str = ""

    @property
    def named(self) -> bool:
        """True when the text names a time at all (a due time or a question about one)."""
        return self.due is not None or self.ambiguous


@dataclass
class _Found:
    """What the scan found, before it is combined."""

    days: list[tuple[date, str]] = field(default_factory=list)   # (day, phrase)
    sources: list[date] = field(default_factory=list)            # "со среды" in a move
    exact: list[datetime] = field(default_factory=list)          # "через 2 часа"
    times: list[tuple[time, str]] = field(default_factory=list)  # (clock, kind)
    today_named: bool = False
    weekdays_named: set[int] = field(default_factory=set)   # "в субботу 12-го"
    weekday_phrases: set[str] = field(default_factory=set)
    weekend_phrases: set[str] = field(default_factory=set)
    moved: bool = False                                          # a move word in the text
    either: bool = False                              # "или", "lub", "or": a choice named
    spans: dict[str, tuple[int, int]] = field(default_factory=dict)   # phrase -> where
    shift_months: int = 0
    shift: timedelta | None = None                               # "сдвинули на неделю"
    doubts: list[str] = field(default_factory=list)
    night_to: bool = False                                       # "в ночь на 17-е"
    week_offsets: dict[str, int] = field(default_factory=dict)   # "через неделю" -> 1
    phrases: list[str] = field(default_factory=list)
    soft: list[tuple[str, str]] = field(default_factory=list)   # (doubt, phrase): "после праздников"
    dated: set[str] = field(default_factory=set)                # phrases of a day of a month
    lead: timedelta | None = None                               # "напомни накануне", "a week before"
    time_at: list[int] = field(default_factory=list)            # where each of ``times`` was read


# a Russian preposition typed glued to the date word after it ("впятницу", "вовторник",
# "допятницы", "вконце месяца"): split, so the word reads as it would with the space
_GLUED = re.compile(r"(?<![а-я])(в|во|к|ко|до|по|с|со|на)(понедельник|вторник|сред[аеуы]|"
                    r"четверг|пятниц|суббот|воскресен|конц[еау]|начал[еау]|середин[еуы]|"
                    r"следующ|выходн)")


def normalise(text: str) -> str:
    text = text.lower().replace("ё", "е").replace("\u2013", "-").replace("\u2014", "-")
    text = text.replace("\u2019", "'")
    text = _GLUED.sub(r"\1 \2", text)
    return re.sub(r"\s+", " ", text).strip()


def _alt(pairs: tuple[tuple[str, int], ...]) -> str:
    return "|".join(f"(?:{p})" for p, _ in pairs)


def _lookup(pairs: tuple[tuple[str, int], ...], word: str) -> int:
    for pattern, value in pairs:
        if re.fullmatch(pattern, word):
            return value
    raise KeyError(word)


def _number(word: str) -> float | None:
    word = word.strip()
    if re.fullmatch(r"\d+", word):
        return float(word)
    if re.fullmatch(r"\d+[.,]5", word):
        return float(word.replace(",", "."))
    return w.NUMBERS.get(word)


def _add_months(day: date, months: int) -> date:
    month0 = day.month - 1 + months
    year, month = day.year + month0 // 12, month0 % 12 + 1
    return date(year, month, min(day.day, calendar.monthrange(year, month)[1]))


def _last_day(year: int, month: int) -> date:
    return date(year, month, calendar.monthrange(year, month)[1])


def _year(text: str | None) -> int | None:
    """"2027" or "27" (this century's) -> 2027; nothing -> None."""
    if not text:
        return None
    return int(text) + (2000 if len(text) == 2 else 0)


def _monday(day: date) -> date:
    return day - timedelta(days=day.weekday())


# -- the scan ---------------------------------------------------------------------------------

_B = r"(?<![\w-])"   # word start
_E = r"(?![\w])"     # word end
_NUMBER_WORD = "|".join(sorted((re.escape(k) for k in w.NUMBERS), key=len, reverse=True))
_MONTH_DAY = _alt(w.MONTH_AFTER_DAY)
_MONTH_ALONE = _alt(w.MONTH_ALONE)
_WEEKDAY = _alt(w.WEEKDAYS)
_RU_ORD = (r"(?:(двадцать|тридцать) )?(" + "|".join(s for s, _ in w.RU_ORDINAL_STEMS)
           + r")(?:ьего|ого|ему|ому|ье|ое|ьему)")
_PL_ORD = (r"(?:(dwudziestego|trzydziestego) )?(" + "|".join(s for s, _ in w.PL_ORDINALS)
           + ")")
_EN_ORD = (r"(?:(twenty|thirty)[- ])?(" + "|".join(s for s, _ in w.EN_ORDINALS) + ")")
_UNIT_WORDS = "(?:" + "|".join(p for p, _ in w.UNITS) + ")"
_UNIT = "|".join(f"(?P<u_{name}>{p})" for p, name in w.UNITS)


class _Either:
    """A match whose group ``name`` is any of ``name``, ``name2``, ``name3`` (one pattern per
    language in one alternation)."""

    def __init__(self, m: re.Match[str], name: str = "nx") -> None:
        self._m, self._name = m, name

    def group(self, name: str | int) -> str:
        if name == self._name:
            keys = (name, f"{name}2", f"{name}3")
            return next((g for g in (self._m.groupdict().get(k) for k in keys) if g), "")
        return self._m.group(name)


class _Scan:
    """One pass over a normalised text; each reader blanks what it read."""

    def __init__(self, text: str, now: datetime, hour: int) -> None:
        self.text = text
        self.now = now          # naive local wall time
        self.today = now.date()
        self.hour = hour
        self.found = _Found()
        self._at = 0
        self.next_month_first: date | None = None
        self.several_lines = False

    def take(self, pattern: str, handle: Callable[[re.Match[str]], None]) -> None:
        for match in list(re.finditer(pattern, self.text)):
            if not match.group(0).strip() or "\0" in match.group(0):
                continue
            self._at = match.start()
            before = len(self.found.times)
            handle(match)
            self.found.time_at.extend([match.start()] * (len(self.found.times) - before))
            self.found.phrases.append(match.group(0).strip())
            start, end = match.span()
            self.found.spans[match.group(0)] = (start, end)
            self.text = self.text[:start] + "\0" * (end - start) + self.text[end:]

    def day(self, day: date, phrase: str) -> None:
        """A day the text names; "со среды" in "перенесла со среды на субботу" is the old one."""
        if self._is_source(phrase):
            self.found.sources.append(day)
        else:
            self.found.days.append((day, phrase))

    def _is_source(self, phrase: str) -> bool:
        """True for the day a move starts from: "со среды", "z poniedziałku", "from Friday"."""
        before = self.text[:self._at]
        return bool(re.search(r"(?:^|\s)(?:с|со|from|z|ze|od)\s*$", before)
                    or re.match(r"(?:с|со|from|z|ze|od) ", phrase))

    def doubt(self, reason: str) -> None:
        self.found.doubts.append(reason)

    # each reader ------------------------------------------------------------------------------

    def shifts(self) -> None:
        """"сдвинули на неделю, была в четверг 12-го": the day named is the old one, moved."""
        def handle(m: re.Match[str]) -> None:
            word = m.group("n")
            count = _number(word) if word else 1.0
            if (word and word.strip() in w.ABOUT_TWO) or count is None or count != int(count):
                self.doubt("moved by about some days")
                return
            unit = m.group("unit")
            if re.match(r"нед|tyd|tyg|week", unit):
                self.found.shift = timedelta(weeks=int(count))
            elif re.match(r"мес|mies|month", unit):
                self.found.shift_months = int(count)
            else:
                self.found.shift = timedelta(days=int(count))

        number = r"(?:(?P<n>\d+|" + _NUMBER_WORD + r") )?"
        self.take(_B + w.SHIFT_RU + r"(?: \S+){0,4}? на " + number + r"(?P<unit>" + w.SHIFT_UNIT
                  + r")(?: (?:вперед|позже|дальше))?" + _E, handle)
        self.take(_B + w.SHIFT_PL + r"(?: \S+){0,4}? o " + number + r"(?P<unit>" + w.SHIFT_UNIT
                  + r")" + _E, handle)
        self.take(_B + w.SHIFT_EN + r"(?: \S+){0,4}? (?:back |out )?(?:by )?" + number
                  + r"(?P<unit>" + w.SHIFT_UNIT + r")(?: (?:later|back|on))?" + _E, handle)

    def spans_from_a_day(self) -> None:
        """"a week from Friday", "через неделю после пятницы", "za tydzień od piątku": the
        day named, moved by the span (back for "до", "before", "przed")."""
        def handle(m: re.Match[str]) -> None:
            if re.search(r"(?:for|на|na)(?: \S+)? $", self.text[:m.start()]):
                return  # a duration: "for two weeks from the 3rd"
            word = m.group("n")
            count = _number(word) if word else 1.0
            if (word and word.strip() in w.ABOUT_TWO) or count is None or count != int(count):
                self.doubt("about some days from a day")
                return
            sign = -1 if m.group("back") else 1
            unit = m.group("unit")
            if re.match(r"мес|mies|month", unit):
                self.found.shift_months = sign * int(count)
            else:
                weeks = re.match(r"нед|tyd|tyg|week", unit)
                self.found.shift = timedelta(days=sign * int(count) * (7 if weeks else 1))

        number = r"(?:(?P<n>\d+|" + _NUMBER_WORD + r") )?"
        # Russian "за N дней до ..." always counts from a day (asked when it is not named);
        # elsewhere only when a day follows ("a day before is too late" names none); never a
        # duration ("for two weeks from the 3rd")
        day_follows = (r"(?= (?:(?:the|next|this|в|во|w|we|on) )?(?:" + _WEEKDAY
                       + r"|\d|конц|końc|the end|end of))")
        duration = r"(?<!for )(?<!на )(?<!na )"
        self.take(_B + duration + r"(?:через|за) " + number + r"(?P<unit>" + w.SHIFT_UNIT
                  + r") (?:после|(?P<back>до))(?= \S)(?! (?:этого|того|сих))", handle)
        self.take(_B + duration + r"(?:za )?" + number + r"(?P<unit>" + w.SHIFT_UNIT
                  + r") (?:od|po|(?P<back>przed))" + day_follows, handle)
        self.take(_B + duration + number + r"(?P<unit>" + w.SHIFT_UNIT + r") (?:from|after|on|"
                  r"(?P<back>before))" + day_follows, handle)

    def past(self) -> None:
        """"в прошлую пятницу обещал", "last Friday", "w zeszły piątek", "вчера в 5": a day
        gone by says when something was said or done, never when it is due; its words are
        blanked, so the weekday is not read as the coming one."""
        short = _alt(w.WEEKDAY_SHORT)
        self.take(_B + r"(?:(?:в|во|на|w|we|on|in) )?(?:прошл\w+|позапрошл\w+|zeszł\w+|"
                  r"ubiegł\w+|last)(?: (?:" + _WEEKDAY + "|" + short + r"|недел\w+|месяц\w*|"
                  r"выходн\w+|год\w*|tygodni\w*|miesiąc\w*|weekend\w*|rok\w*|roku|week|"
                  r"month|year|night|evening))" + _E + r"(?! of)", lambda m: None)
        self.take(_B + r"(?:вчера|позавчера|yesterday|wczoraj|przedwczoraj)(?:,? (?:(?:в|во|o|at) "
                  r"[0-2]?\d(?:[:.][0-5]\d)?(?: (?:утра|вечера|дня|ночи|am|pm|rano|wieczorem))?|"
                  r"утром|вечером|днем|ночью|rano|wieczorem|w nocy|(?:in the )?(?:morning|"
                  r"evening|afternoon)|night))?" + _E, lambda m: None)

    def after_a_day(self) -> None:
        """"после понедельника", "не раньше 15-го", "after Friday", "nie wcześniej niż w piątek":
        any day after the one named, not that day; asked."""
        self.take(_B + r"(?:после|не раньше|не ранее|nie wcześniej niż(?: w)?|after|not before|"
                  r"no earlier than)(?: the)? (?:" + _WEEKDAY + r"|[0-3]?\d(?:-?(?:го|ого)| числа|"
                  r"st|nd|rd|th)(?: числа)?)" + _E + r"(?!'s)",
                  lambda m: self.doubt("after a day: which one?"))

    def british_weeks(self) -> None:
        """"Friday week", "a week on Friday", "a week today", "tomorrow week": British for the
        day named, a week later."""
        def handle(m: re.Match[str]) -> None:
            word = m.group("d")
            if word in ("today", "tomorrow"):
                day = self.today + timedelta(days=7 + (word == "tomorrow"))
            else:
                weekday = (_lookup(w.WEEKDAYS, word) if re.fullmatch(_WEEKDAY, word)
                           else _lookup(w.WEEKDAY_SHORT_EN, word))
                ahead = (weekday - self.today.weekday()) % 7 or 7
                day = self.today + timedelta(days=ahead + 7)
            self.day(day, m.group(0))

        days = r"(?P<d>today|tomorrow|" + _WEEKDAY + r")"
        short = r"(?P<d>mon|tues?|wed|weds|thu|thur|thurs|fri|sat|sun)"
        self.take(_B + r"(?:on )?" + days + r" week" + _E, handle)
        self.take(_B + r"a week (?:on |from )?" + days + _E, handle)
        self.take(_B + r"a week (?:on |from )" + short + r"\.?" + _E, handle)

    def nights(self) -> None:
        """"в ночь на субботу", "w nocy z piątku na sobotę": a night lies between two days."""
        self.take(_B + r"(?:в ночь (?:с \S+ )?на|w nocy z \S+ na)" + _E, self._night_to)
        self.take(_B + r"(?:in )?the night (?:of|before)" + _E,
                  lambda m: self.doubt(_NIGHT_BETWEEN))

    def midnight(self) -> None:
        """"завтра в полночь", "jutro o północy", "by midnight Friday": the start or the end of
        the day named? Asked; with no day named ("свет выключается в полночь") it names none."""
        def handle(m: re.Match[str]) -> None:
            if self.found.days or self.found.sources or self.found.doubts:
                self.doubt("midnight: the end of which day?")

        self.take(_B + r"(?:(?:в|к|до|после|около|ближе к) )?полу?ноч\w*|(?:(?:o|do|przed|po|"
                  r"około) )?półno(?:c|cy)|(?:(?:at|by|before|after|around|until|till) )?"
                  r"midnight" + _E, handle)

    def _night_to(self, match: re.Match[str]) -> None:
        """"в ночь на 17-е, в 3 ночи": an hour after midnight says the night's second day;
        without one the night is asked about (``_combine``)."""
        self.found.night_to = True

    def named_days(self) -> None:
        """"on Christmas Eve", "w Wigilię", "New Year's Day": a holiday that is one day."""
        for pattern, month, day_n in w.NAMED_DAYS:
            def handle(m: re.Match[str], month: int = month, day_n: int = day_n) -> None:
                day = date(self.today.year, month, day_n)
                if datetime.combine(day, time(23, 59)) < self.now:
                    day = date(day.year + 1, month, day_n)
                self.day(day, m.group(0))

            self.take(_B + r"(?:(?:on|at|by|before|for|until) )?(?:the )?(?:" + pattern + r")"
                      + _E, handle)

    def holidays(self) -> None:
        """"на майских", "na święta", "over Christmas": a holiday is a day or days around it."""
        self.take(_B + r"(?:" + w.HOLIDAYS + r")" + _E,
                  lambda m: self.soft_doubt(f"'{m.group(0)}' is a holiday: which day?", m))

    def soft_doubt(self, reason: str, m: re.Match[str]) -> None:
        """A doubt an explicit date beside it settles: "после праздников, 5 января"."""
        self.doubt(reason)
        self.found.soft.append((reason, m.group(0)))

    def leads(self) -> None:
        """"напомни накануне", "за неделю", "tydzień wcześniej", "two days before": a reminder
        a span before the one day the text names (read in ``_combine``; with no day named, or
        several, it changes nothing)."""
        def handle(m: re.Match[str]) -> None:
            word = m.groupdict().get("n")
            count = _number(word) if word else 1.0
            if (word and word.strip() in w.ABOUT_TWO) or count is None or count != int(count):
                self.doubt("about some days before a day")
                return
            unit = m.groupdict().get("unit") or "day"
            weeks = 7 if re.match(r"нед|tyd|tyg|week", unit) else 1
            self.found.lead = timedelta(days=int(count) * weeks)
            self.found.spans["\0lead"] = m.span()

        number = r"(?:(?P<n>\d+|" + _NUMBER_WORD + r") )?"
        unit_ru = r"(?P<unit>день|дня|дней|сутки|суток|неделю|недели|недель)"
        unit_pl = r"(?P<unit>dzień|dni|tydzień|tygodnie|tygodni)"
        unit_en = r"(?P<unit>days?|weeks?)"
        self.take(_B + r"(?:накануне|w przeddzień)" + _E + r"(?! (?:дня|праздник\w*|того|этого))",
                  handle)
        self.take(_B + r"(?<!на )(?<!в )за " + number + unit_ru
                  + r"(?: до(?: (?:этого|того|него|нее|события))?)?" + _E + r"(?! (?:до|назад))",
                  handle)
        self.take(_B + number + unit_pl + r" (?:wcześniej|przed(?: tym)?)" + _E, handle)
        self.take(_B + r"(?:the |a |one )?" + number + unit_en
                  + r" (?:before(?! (?:yesterday|last))|ahead|earlier|in advance|prior)" + _E,
                  handle)


    def count_ranges(self) -> None:
        """"через час-полтора", "за 2-3 dni", "in 2 or 3 days": a range of counts is asked."""
        self.take(_B + r"(?:через|спустя|za|in) (?!(?:twenty|thirty|forty|fifty)-)(?:\d+|"
                  + _NUMBER_WORD + r"|час|день|неделю|"
                  r"godzinę|dzień|tydzień|an? (?:hour|day|week))(?: ?- ?| или | lub | albo | or )"
                  r"(?:\d+(?:[.,]5)?|" + _NUMBER_WORD + r")(?: " + _UNIT_WORDS + r")?" + _E,
                  lambda m: self.doubt("a range, not one time"))

    def exact_offsets(self) -> None:
        def handle(m: re.Match[str]) -> None:
            if m.group("n") in w.ABOUT_TWO:
                self.doubt("a couple of hours is not a time")
                return
            count = _number(m.group("n")) if m.group("n") else 1.0
            if count is not None and m.group("and_half"):  # "через три с половиной часа"
                count += 0.5
            if m.group("half"):
                minutes = 30.0
            elif m.group("hour_half"):
                minutes = 90.0
            elif m.group("u_minute"):
                minutes = (count or 1) * 1
            else:
                minutes = (count or 1) * 60
            utc = self.now_aware.astimezone(UTC) + timedelta(minutes=minutes)
            self.found.exact.append(utc.astimezone(self.now_aware.tzinfo))

        lead = r"(?:через|спустя|za|in)"
        # "через минут 10", "через часа 2": the count after the unit (about as many)
        self.take(_B + r"(?:через|спустя) (?:(?P<u_minute>минут)|(?P<u_hour>часа|часов)) "
                  r"(?P<n>\d+|" + _NUMBER_WORD + r")(?P<half>)(?P<hour_half>)(?P<and_half>)"
                  + _E, handle)
        self.take(
            _B + lead + r" (?:(?P<half>полчаса|пол часа|p[óo][łl] godziny|half an hour)|"
            r"(?P<hour_half>(?:an? |one )?hour and a half)|"
            r"(?:(?P<n>\d+(?:[.,]5)?|" + _NUMBER_WORD + r")(?P<and_half> с половиной| and a half|"
            r" i pół)? )?"
            r"(?:(?P<u_minute>минут\w*|мин\.?|minut\w*|min\.?|minutes?|mins?)|"
            r"(?P<u_hour>час(?:а|ов|ик|ика|иков)?|ч\.?|godzin\w*|godz\.?|hours?|hrs?)))" + _E,
            handle,
        )

    def offsets(self) -> None:
        def handle(m: re.Match[str]) -> None:
            if m.group("few") or m.group("n") in w.ABOUT_TWO:
                self.doubt("a few days is not a day")
                return
            if not m.group("n") and m.group("u_day") in ("день", "денек", "денька"):
                # "через день" is "every other day" as often as "tomorrow": asked, as the
                # conventions say (VAGUE lists it)
                self.doubt("'через день' may mean every other day")
                return
            count = _number(m.group("n")) if m.group("n") else 1.0
            if count is None or count != int(count):
                self.doubt("a fraction of a day")
                return
            n = int(count)
            if m.group("u_day"):
                day = self.today + timedelta(days=n)
            elif m.group("u_week"):
                day = self.today + timedelta(weeks=n)
                self.found.week_offsets[m.group(0)] = n
            elif m.group("u_fortnight"):
                day = self.today + timedelta(weeks=2 * n)
            elif m.group("u_month"):
                day = _add_months(self.today, n)
            elif m.group("u_half_year"):
                day = _add_months(self.today, 6)
            else:
                day = _add_months(self.today, 12 * n)
            self.day(day, m.group(0))

        # short forms too: "через 2 нед", "через 3 дн.", "через месячишко"
        units = (r"(?P<u_day>дн(?:я|ей)|день|денек|денька|деньков|сутки|суток|дн\.?|dni|dzień|"
                 r"dob[ęy]|days?)|"
                 r"(?P<u_week>недел[юиь]|недельк[уи]|неделек|нед\.?|tydzień|tygodni\w*|tyg\.?|"
                 r"weeks?|wks?)|"
                 r"(?P<u_fortnight>fortnights?)|(?P<u_half_year>полгода|pół roku|half a year)|"
                 r"(?P<u_month>месяц\w*|мес\.?|месячишк\w*|miesiąc\w*|miesięcy|mies\.?|"
                 r"months?)|"
                 r"(?P<u_year>год(?:а)?|лет|rok|lata|lat|years?)")
        self.take(
            _B + r"(?:через|спустя|za|in) (?:(?P<few>несколько|kilka|a few|few) |"
            r"(?P<n>\d+|" + _NUMBER_WORD + r") )?(?:" + units + r")" + _E, handle)
        self.take(
            _B + r"(?P<n>\d+|" + _NUMBER_WORD + r") (?:(?P<few>x)?)(?:" + units
            + r") (?:from now|from today|later)" + _E, handle)

    def dates_with_month(self) -> None:
        # "в следующем году 2 марта", "next year on May 3rd": that date of the coming year
        next_year = re.search(_B + r"(?:в (?:следующем|будущем) году|w (?:przyszłym|następnym) "
                              r"roku|next year)" + _E, self.text)

        def resolve(day_n: int, month: int, year: int | None, phrase: str) -> None:
            self.found.dated.add(phrase)
            if year is None and next_year:
                year = self.today.year + 1
            y = year if year is not None else self.today.year
            try:
                day = date(y, month, day_n)
            except ValueError:
                self.doubt("no such day in that month")
                return
            if year is None and datetime.combine(day, time(23, 59)) < self.now:
                day = date(y + 1, month, min(day_n, calendar.monthrange(y + 1, month)[1]))
            self.day(day, phrase)

        year = r"(?: (?P<y>\d{4})(?: г(?:ода|\.)?| r(?:oku|\.)?)?)?"
        ordinal_suffix = r"(?:-?(?:го|е|ое|ого|му|го числа|st|nd|rd|th|-?go|-?ego)|\.)?"

        def numeric(m: re.Match[str]) -> None:
            resolve(int(m.group("d")), _lookup(w.MONTH_AFTER_DAY, m.group("m")),
                    int(m.group("y")) if m.group("y") else None, m.group(0))

        self.take(_B + r"(?P<d>[0-3]?\d)" + ordinal_suffix + r" (?:of )?(?P<m>" + _MONTH_DAY
                  + r")" + _E + year, numeric)
        self.take(_B + r"(?P<m>" + _MONTH_DAY + r") (?:the )?(?P<d>[0-3]?\d)(?:st|nd|rd|th)?"
                  + _E + r"(?:,? (?P<y>\d{4}))?", numeric)

        def words(m: re.Match[str]) -> None:
            resolve(self._ordinal(m), _lookup(w.MONTH_AFTER_DAY, m.group("m")), None,
                    m.group(0))

        for ordinal in (_RU_ORD, _PL_ORD):
            self.take(_B + ordinal + r" (?P<m>" + _MONTH_DAY + r")" + _E, words)
        self.take(_B + r"(?:the )?" + _EN_ORD + r" of (?P<m>" + _MONTH_DAY + r")" + _E, words)

        def month_then_word(m: re.Match[str]) -> None:  # "March the third", "May twenty-first"
            tens = {"twenty": 20, "thirty": 30}.get(m.group("t") or "", 0)
            day_n = tens + dict(w.EN_ORDINALS)[m.group("o")]
            resolve(day_n, _lookup(w.MONTH_AFTER_DAY, m.group("m")), None, m.group(0))

        self.take(_B + r"(?P<m>" + _MONTH_ALONE + r") (?:the )?(?:(?P<t>twenty|thirty)[- ])?(?P<o>"
                  + "|".join(s for s, _ in w.EN_ORDINALS) + r")" + _E + r"(?! thing)",
                  month_then_word)

        def dotted(m: re.Match[str]) -> None:
            resolve(int(m.group("d")), int(m.group("mo")), _year(m.group("y")), m.group(0))

        def iso(m: re.Match[str]) -> None:
            resolve(int(m.group("d")), int(m.group("mo")), int(m.group("y")), m.group(0))

        # "2026-04-10", "2026.04.10": the year first, as machines and careful people write it
        self.take(r"(?<![\w.:-])(?P<y>20\d\d)([-./])(?P<mo>0?[1-9]|1[0-2])\2(?P<d>[0-3]?\d)"
                  r"(?![\w:]|[.-]\d)", iso)
        # "10.04", "10.04.2027", "10.04.27", "10/04/27" (a two-digit year is this century's)
        self.take(r"(?<![\w.:])(?<!\bв )(?<!\bo )(?<!\bat )(?P<d>[0-3]?\d)\.(?P<mo>0?[1-9]|1[0-2])"
                  r"(?:\.(?P<y>\d{4}|\d{2}))?(?![\w:]|\.\d)", dotted)

    def slashed(self) -> None:
        """"24/12" or "12/24": read only when one side cannot be a month; else asked, except in
        Russian and Polish, where nobody writes the month first ("до 10/04" is 10 April)."""
        day_first = language(self.text) in ("ru", "pl")

        def handle(m: re.Match[str]) -> None:
            a, b = int(m.group("a")), int(m.group("b"))
            # "до 10/04", "10/04/27": day first in Russian and Polish when the month has its
            # leading zero, a year or a preposition of time ("3/5", "4/10" are scores)
            dated = (m.group("b").startswith("0") or m.group("y")
                     or re.search(r"(?:до|к|с|по|от|do|od|przed) $", self.text[:m.start()]))
            if a > 12 >= b or (day_first and b <= 12 and dated):
                day_n, month = a, b
            elif b > 12 >= a:
                day_n, month = b, a
            else:
                self.doubt("day/month or month/day")
                return
            year = _year(m.group("y"))
            try:
                day = date(year or self.today.year, month, day_n)
            except ValueError:
                self.doubt("no such day in that month")
                return
            if year is None and datetime.combine(day, time(23, 59)) < self.now:
                day = date(day.year + 1, month, day_n)
            self.day(day, m.group(0))

        self.take(r"(?<![\w/])(?P<a>[0-3]?\d)/(?P<b>[0-3]?\d)(?:/(?P<y>\d{4}|\d{2}))?"
                  r"(?![\w/])", handle)

    def _ordinal(self, m: re.Match[str]) -> int:
        tens = {"двадцать": 20, "тридцать": 30, "dwudziestego": 20, "trzydziestego": 30,
                "twenty": 20, "thirty": 30}.get(m.group(1) or "", 0)
        word = m.group(2)
        for table in (w.RU_ORDINAL_STEMS, w.PL_ORDINALS, w.EN_ORDINALS):
            for stem, value in table:
                if word == stem:
                    return tens + value
        raise KeyError(word)

    def days_of_month(self) -> None:
        def resolve(day_n: int, phrase: str) -> None:
            if not 1 <= day_n <= 31:
                return
            self.found.dated.add(phrase)
            month = date(self.today.year, self.today.month, 1)
            if self.next_month_first is not None:
                first = self.next_month_first
                self.found.days = [(d, p) for d, p in self.found.days if d != first]
                try:
                    self.day(date(first.year, first.month, day_n), phrase)
                except ValueError:
                    self.doubt("no such day in that month")
                return
            for _ in range(3):
                if day_n <= calendar.monthrange(month.year, month.month)[1]:
                    day = date(month.year, month.month, day_n)
                    if datetime.combine(day, time(self.hour)) > self.now or day > self.today:
                        self.day(day, phrase)
                        return
                month = _add_months(month, 1)
            self.doubt("no such day in the coming months")

        def numeric(m: re.Match[str]) -> None:
            # "с 9-го этажа", "до 3-го подъезда": an ordinal agreeing with the noun after it
            # counts floors and entrances, not days
            following = self.text[m.end():].split()[:1]
            if following and re.search(r"(?:го|му)$", m.group(0)) and \
                    noun_in_case(following[0].strip(",.!?"), "gent" if m.group(0).endswith("го")
                                 else "datv"):
                return
            resolve(int(m.group("d")), m.group(0))

        self.take(_B + r"(?:(?:до|к|ко|на|в|с|do|na|by|on|before|until) )?(?:the )?"
                  r"(?P<d>[0-3]?\d)(?:-?(?:го|ого|е|ое|му|ому)(?: числ\w*)?| числ\w*|"
                  r"-?(?:go|ego)|st|nd|rd|th)" + _E, numeric)
        self.take(_B + r"(?:do|na) (?P<d>[0-3]?\d)\.(?=[\s,;!?]|$)", numeric)

        def words(m: re.Match[str]) -> None:
            resolve(self._ordinal(m), m.group(0))

        self.take(_B + r"(?:до|к|ко|на|с) " + _RU_ORD + r"(?: числ\w*)?" + _E, words)
        # a bare ordinal in the genitive opening or closing a clause is a day of the month:
        # "двадцатого отдать долг", "piętnastego zapłacić", "оплатить до ... , двадцать пятого"
        clause_start = r"(?:^|(?<=[,.;:!?] )|(?<=- ))"
        clause_end = r"(?=\s*(?:$|[,.;:!?]|[^\w\s]))"
        ru_genitive = _RU_ORD.replace("(?:ьего|ого|ему|ому|ье|ое|ьему)", "(?:ьего|ого)")
        clock_before = r"(?<!пол)(?<!пол )(?<!половине )(?<!половины )(?<!четверть )(?<!минут )(?<!минуты )"
        self.take(clause_start + ru_genitive + _E, words)
        self.take(_B + clock_before + ru_genitive + clause_end, words)
        self.take(clause_start + _PL_ORD + _E, words)
        self.take(_B + _PL_ORD + clause_end, words)
        self.take(_B + _RU_ORD + r" числ\w*" + _E, words)
        self.take(_B + r"(?:do|na|przed) " + _PL_ORD + _E, words)
        # "the first" is a day after "on"/"by" or opening or closing a clause, not in "the first
        # week of January" or "the first two lines"
        self.take(_B + r"(?:by|on|before|until|for) the " + _EN_ORD + _E, words)
        self.take(clause_start + r"the " + _EN_ORD + _E + r"(?! (?:week|weekend|month|time|"
                  r"thing|one|two|three|few|of))", words)
        self.take(_B + r"the " + _EN_ORD + clause_end, words)

    def periods(self) -> None:
        today = self.today

        def end_of_month(m: re.Match[str]) -> None:
            shift = 1 if m.group("nx") else 0
            first = _add_months(date(today.year, today.month, 1), shift)
            self.day(_last_day(first.year, first.month), m.group(0))

        self.take(_B + r"(?:(?:в|к|до|под) )?(?:кон(?:ец|це|цу|ца)|последн(?:ий|его|ему|им) "
                  r"д(?:ень|ня|ню|нем)) (?:(?:этого|текущего) |(?P<nx>следующего|будущего) )?месяца" + _E,
                  end_of_month)
        self.take(_B + r"(?:(?:w|na|do) )?ostatni(?:ego|m|) dni(?:a|u)? (?:(?:tego|bieżącego) |"
                  r"(?P<nx>przyszłego|następnego) )?miesiąca" + _E, end_of_month)
        self.take(_B + r"(?:(?:on|by|before|until) )?(?:the )?last day of (?:the |this |"
                  r"(?P<nx>next) )?month" + _E, end_of_month)
        self.take(_B + r"(?:(?:pod|na|do|przed) )?ko(?:niec|ńca|ńcu|ńcem) (?:(?:tego|bieżącego) |"
                  r"(?P<nx>przyszłego|następnego) )?miesiąca" + _E, end_of_month)
        self.take(_B + r"(?:by |at )?(?:eom|(?:the )?month[- ]end)(?P<nx>)" + _E, end_of_month)
        self.take(_B + r"(?:(?:by|at|before|until|towards) )?(?:the )?end of (?:the |this |"
                  r"(?P<nx>next) )?month" + _E, end_of_month)

        def end_of_named_month(m: re.Match[str]) -> None:
            month = _lookup(w.MONTH_AFTER_DAY, m.groupdict().get("m") or m.group("m2"))
            year = today.year if month >= today.month else today.year + 1
            self.day(_last_day(year, month), m.group(0))

        self.take(_B + r"(?:(?:в|к|до|под) )?(?:кон(?:ец|це|цу|ца)|последн(?:ий|его|ему|им) "
                  r"д(?:ень|ня|ню|нем)) (?P<m>" + _MONTH_DAY + r")" + _E, end_of_named_month)
        self.take(_B + r"(?:(?:w|na|do) )?ostatni(?:ego|m|) dni(?:a|u)? (?P<m>" + _MONTH_DAY
                  + r")" + _E + r"|" + _B + r"(?:(?:on|by) )?(?:the )?last day of (?P<m2>"
                  + _MONTH_DAY + r")" + _E, lambda m: end_of_named_month(m))
        self.take(_B + r"(?:(?:pod|na|do) )?ko(?:niec|ńca|ńcu) (?P<m>" + _MONTH_DAY
                  + r")" + _E, end_of_named_month)
        self.take(_B + r"(?:(?:by|at|before|in) )?(?:the )?(?:end of|late) (?P<m>" + _MONTH_DAY
                  + r")" + _E, end_of_named_month)

        def middle_of_month(m: _Either) -> None:
            # "в середине месяца" is the 15th, as "в середине января" is
            middle = _add_months(date(today.year, today.month, 15), 1 if m.group("nx") else 0)
            if datetime.combine(middle, time(self.hour)) <= self.now:
                self.doubt("the middle of this month has passed")
                return
            self.day(middle, m.group(0))

        self.take(_B + r"(?:в|к|до) середин[еуы] (?:этого |(?P<nx>следующего|будущего) )?месяца"
                  + _E + r"|" + _B + r"(?:w|do|na|pod) połow(?:ie|ę|y) (?:tego |(?P<nx2>przyszłego|"
                  r"następnego) )?miesiąca" + _E + r"|" + _B + r"(?:in |by |around )?(?:the )?"
                  r"(?:middle of (?:the |this |(?P<nx3>next) )?month|mid-?month)" + _E,
                  lambda m: middle_of_month(_Either(m)))

        def next_month(m: re.Match[str]) -> None:
            first = _add_months(date(today.year, today.month, 1), 1)
            self.day(first, m.group(0))
            self.next_month_first = first  # "в следующем месяце 3-го": the 3rd of that month

        self.take(_B + r"(?:(?:в|к) )?(?:начал[уео] )?(?:следующего|след\.?|будущего) месяца" + _E
                  + r"|" + _B + r"в (?:следующем|след\.?|будущем) месяце" + _E, next_month)
        self.take(_B + r"(?:na )?(?:początku |początek )?(?:przyszłego|następnego) miesiąca"
                  + _E + r"|" + _B + r"w (?:przyszłym|następnym) miesiącu" + _E, next_month)
        self.take(_B + r"(?:(?:early|at the (?:beginning|start) of|the (?:beginning|start) of|"
                  r"in|by) )?next month" + _E, next_month)

        def end_of_week(m: re.Match[str]) -> None:
            weekday = today.weekday()
            if m.groupdict().get("nx"):
                self.day(_monday(today) + timedelta(days=11), m.group(0))
            elif weekday < 4:
                self.day(today + timedelta(days=4 - weekday), m.group(0))
            elif weekday == 4:
                self.day(today, m.group(0))
                self.found.today_named = True
            else:
                self.day(today + timedelta(days=11 - weekday), m.group(0))

        self.take(_B + r"(?:(?:в|к|до|под) )?кон(?:ец|це|цу|ца) (?:этой |(?P<nx>следующей|"
                  r"след\.?|будущей) )?недели" + _E, end_of_week)
        self.take(_B + r"(?:(?:pod|na|do) )?ko(?:niec|ńca|ńcu) (?:tego |(?P<nx>przyszłego|"
                  r"następnego) )?tygodnia" + _E, end_of_week)
        self.take(_B + r"(?:(?:by|at|before) )?(?:the )?end of (?:the |this |(?P<nx>next) )?week"
                  + _E, end_of_week)

        def around_weekend(m: _Either) -> None:
            # "до выходных" is the Friday before the coming weekend, "после выходных" the Monday
            weekday = today.weekday()
            friday = today + timedelta(days=(4 - weekday) % 7) if weekday != 5 else None
            if m.group("after"):
                self.day(_monday(today) + timedelta(days=7), m.group(0))
            elif friday is None or friday == today:
                self.doubt("before the weekend, and the weekend is here")
            else:
                self.day(friday, m.group(0))

        self.take(_B + r"(?:(?:до|перед) выходными|до выходных|(?P<after>после выходных))" + _E
                  + r"|" + _B + r"(?:przed weekendem|(?P<after2>po weekendzie))" + _E + r"|" + _B
                  + r"(?:before the weekend|(?P<after3>after the weekend))" + _E,
                  lambda m: around_weekend(_Either(m, "after")))

        def weekend(m: re.Match[str]) -> None:
            self.found.weekend_phrases.add(m.group(0))
            weekday = today.weekday()
            if m.group("nx"):
                self.day(_monday(today) + timedelta(days=12), m.group(0))
            elif weekday < 5:
                self.day(today + timedelta(days=5 - weekday), m.group(0))
            elif weekday == 5:
                self.day(today, m.group(0))
                self.found.today_named = True
            else:
                self.day(today + timedelta(days=6), m.group(0))

        self.take(_B + r"(?:на|в) (?:(?:этих|эти|ближайших|ближайшие) |(?P<nx>следующих|след\.?|"
                  r"следующие|будущих) )?выходн\w*" + _E, weekend)
        self.take(_B + r"(?:w|na|przez) (?:(?:ten|najbliższy) |(?P<nx>przyszły|następny) )?"
                  r"weekend" + _E, weekend)
        self.take(_B + r"(?:(?:on|over|at|by|for) )?(?:the |this |(?P<nx>next) )?weekend" + _E,
                  weekend)

        def next_week(m: re.Match[str]) -> None:
            # "next week" alone is a span of seven days, as "this week" is: ask which day.
            # "early next week" and "by next week" name its start, Monday.
            if re.match(r"(?:early|by|в начале|к|до|na początku|do|at the (?:start|beginning)|"
                        r"(?:the )?(?:start|beginning)) ", m.group(0).strip()):
                self.day(_monday(today) + timedelta(days=7), m.group(0))
            else:
                self.doubt("next week is seven days: which day?")

        self.take(_B + r"(?:в начале|до) (?:следующей|след\.?|будущей) недели" + _E + r"|" + _B
                  + r"к (?:следующей|след\.?|будущей) неделе" + _E + r"|" + _B
                  + r"(?:na początku|do) (?:przyszłego|następnego) tygodnia" + _E + r"|" + _B
                  + r"(?:at |by )?(?:the )?(?:start|beginning) of next week" + _E, next_week)
        self.take(_B + r"на (?:следующей|след\.?|будущей) неделе" + _E + r"|" + _B
                  + r"w (?:przyszłym|następnym) tygodniu" + _E + r"|" + _B
                  + r"(?:early |in |by )?next week" + _E, next_week)

        def end_of_year(m: re.Match[str]) -> None:
            self.day(date(today.year, 12, 31), m.group(0))

        self.take(_B + r"(?:(?:в|к|до) )?кон(?:ец|це|цу|ца) года" + _E + r"|" + _B
                  + r"(?:(?:pod|do) )?ko(?:niec|ńca) roku" + _E + r"|" + _B
                  + r"(?:by |at )?(?:the )?end of (?:the |this )?year" + _E, end_of_year)

        def month_alone(m: re.Match[str]) -> None:
            month = _lookup(w.MONTH_ALONE, m.group("m"))
            year = today.year if month > today.month else today.year + 1
            if month == today.month:
                self.doubt("this month or next year's")
                return
            day = 15 if m.group("mid") else 1
            if m.group("end"):
                day = calendar.monthrange(year, month)[1]
            self.day(date(year, month, day), m.group(0))

        self.take(_B + r"(?:" + w.MONTH_IN + r"|(?P<mid>(?:в|к) середине|до середины|(?:w|do|na) połow(?:ie|y|ę)|(?:in |by )?mid)|"
                  r"(?P<end>в конце|w końcu))[ -](?P<m>" + _MONTH_ALONE + r")" + _E, month_alone)

    def weekdays(self) -> None:
        next_week_named = re.search(
            _B + r"(?:на (?:следующей|след\.?|будущей) неделе|w (?:przyszłym|następnym) tygodniu|"
            r"next week)" + _E, self.text)
        this_week = (_B + r"(?:на этой неделе|w tym tygodniu|this week)" + _E)
        this_week_named = re.search(this_week, self.text)
        # "в субботу-воскресенье", "sat-sun": a range of days, not one
        either = r"(?:" + _WEEKDAY + "|" + _alt(w.WEEKDAY_SHORT) + r")"
        self.take(_B + r"(?:(?:в|во|w|we|on) )?" + either + r"(?:-| или | lub | albo | or )"
                  r"(?:(?:в|во|w|we|on) )?" + either + r"(?![\w])",
                  lambda m: self.doubt("two weekdays: which?"))

        def handle(m: re.Match[str]) -> None:
            handle_day(m, _lookup(w.WEEKDAYS, m.group("d")))

        def handle_day(m: re.Match[str], weekday: int) -> None:
            self.found.weekdays_named.add(weekday)
            self.found.weekday_phrases.add(m.group(0))
            mark = m.group("mark") or ""
            if not mark and this_week_named:
                mark = "this"   # "в пятницу на этой неделе": this week's Friday
            today = self.today
            if re.fullmatch(w.NEXT_MARK, mark) or next_week_named:
                self.day(_monday(today) + timedelta(days=7 + weekday), m.group(0))
                return
            ahead = (weekday - today.weekday()) % 7
            if ahead == 0 and self._is_source(m.group(0)):
                self.found.sources.append(today)
                return
            if ahead == 0:
                if mark and re.fullmatch(w.THIS_MARK, mark) and "ближайш" not in mark \
                        and "najbliższ" not in mark:
                    self.day(today, m.group(0))
                    self.found.today_named = True
                else:
                    self.doubt(_WEEKDAY_TODAY)
                return
            self.day(today + timedelta(days=ahead), m.group(0))

        def short_weekday(m: re.Match[str]) -> None:
            handle_day(m, _lookup(w.WEEKDAY_SHORT, m.group("short")))

        def closing_a_clause(m: re.Match[str]) -> None:
            # "return his drill sat", not "we sat", "in the sun", "got wed", "the cat sat"
            clause = re.split(r"[,;:!?.]\s|\s-\s|\n", self.text[:m.start()])[-1]
            words = re.findall(r"[a-z']+", clause)
            if words and words[-1] in _EN_NOT_BEFORE_A_DAY:
                return
            if (words and words[0] in _EN_DETERMINERS | _EN_SUBJECTS
                    and not re.search(r"\b(?:i'd|i'll|we'll|need to|have to|gotta|must|"
                                      r"promised|remind|should|will)\b", clause)):
                return   # "the cat sat", "she sat": a statement, its verb
            short_weekday(m)

        before = len(self.found.phrases)
        self.take(_B + r"(?:(?:в|во|к|ко|до|на|по|с|со|w|we|do|na|od|on|by|until|before|"
                  r"from) )?(?:(?P<mark>" + w.NEXT_MARK + "|" + w.THIS_MARK + r") )?(?P<d>"
                  + _WEEKDAY + r")" + _E, handle)
        marks = r"(?:(?P<mark>" + w.NEXT_MARK + "|" + w.THIS_MARK + r") )?"
        # short forms after a preposition of their own language ("в пн", "we wt.", "on Fri"):
        # English "we sat" is not the Polish "we" before a day
        for lead, shorts in (("в|во|до|к|ко|по", w.WEEKDAY_SHORT_RU),
                             ("w|we|do|od", w.WEEKDAY_SHORT_PL),
                             ("on|by|until|till|til|before", w.WEEKDAY_SHORT_EN)):
            self.take(_B + r"(?:" + lead + r") " + marks + r"(?P<short>" + _alt(shorts)
                      + r")(?![\w])", short_weekday)
        # "чт 16:00 - перезвонить", "pon. o 18 spotkanie", "пн - отдать перфоратор": a short
        # weekday opening a note, followed by a clock time or a dash, is the day (a to-do line)
        self.take(r"(?:^|(?<=[,;:!?] )|(?<=\. ))" + marks + r"(?P<short>"
                  + _alt(w.WEEKDAY_SHORT) + r")(?![\w])(?=[,:\s-]*(?:(?:в|во|o|at|@) )?"
                  r"[0-2]?\d(?:[:.][0-5]\d)?(?![\d.])|\s*[-:]\s)", short_weekday)
        # Russian short forms are no other word: "пт позвонить маме", "позвонить маме пт"
        # (not after a number: "60 вт" is watts)
        self.take(r"(?<![\w.-])(?<!\d )" + marks + r"(?P<short>" + _alt(w.WEEKDAY_SHORT_RU)
                  + r")\.?(?![\w])", short_weekday)
        # "Fri 10am", "call mom thurs": English short forms that are no other word need no
        # preposition; "sat", "sun" and "wed" are words too ("we sat", "in the sun", "got
        # wed"), so they are a day only after "this"/"next", before a time or a part of the
        # day, or closing a clause after a word that cannot be their subject or determiner
        self.take(_B + marks + r"(?P<short>mon|tues?|thu(?:rs?)?|fri|weds)\.?(?![\w'])",
                  short_weekday)
        if language(self.text) == "en":
            self.take(_B + r"(?P<mark>" + w.NEXT_MARK + "|" + w.THIS_MARK + r") (?P<short>"
                      r"sat|sun|wed)\.?(?![\w'])", short_weekday)
            self.take(_B + r"(?P<mark>)(?P<short>sat|sun|wed)\.?(?= (?:at |@ ?|around |by )?"
                      r"(?:[0-2]?\d(?::[0-5]\d)? ?(?:am|pm)?|morning|afternoon|evening|night|"
                      r"eve|arvo|noon|lunch(?:time)?|am|pm)(?![\w']))", short_weekday)
            self.take(_B + r"(?P<mark>)(?P<short>sat|sun|wed)\.?(?=\s*(?:[,;!?]|\.(?:\s|$)|"
                      r"\s-\s|$|\s*[^\w\s]+\s*$))", closing_a_clause)
        if language(self.text) == "pl":
            # "oddać książkę pt", "pt 18:00 kino": Polish short forms closing a clause
            self.take(r"(?<![\w.-])" + marks + r"(?P<short>" + _alt(w.WEEKDAY_SHORT_PL)
                      + r")(?![\w])(?=\s*(?:[,;!?]|\.?(?:\s|$)(?![\s\S]*\w)|\s-\s))",
                      short_weekday)
        if this_week_named and len(self.found.phrases) > before:
            self.take(this_week, lambda m: None)
        if next_week_named and len(self.found.phrases) > before:
            self.take(_B + r"(?:на (?:следующей|след\.?|будущей) неделе|w (?:przyszłym|następnym) "
                      r"tygodniu|next week)" + _E, lambda m: None)

    def day_words(self) -> None:
        # "завтра" written between midnight and five: the person has not slept yet and may mean
        # the day that has already begun; a careful human asks.
        after_midnight = self.now.hour < w.NIGHT_ENDS

        def plus(days: int, today_named: bool = False) -> Callable[[re.Match[str]], None]:
            def handle(m: re.Match[str]) -> None:
                if after_midnight and days > 0:
                    self.doubt("tomorrow said after midnight: the day begun or the next?")
                    return
                self.day(self.today + timedelta(days=days), m.group(0))
                if today_named:
                    self.found.today_named = True
            return handle

        # "завтра-послезавтра" is two days: the second word is read after a hyphen too
        self.take(r"(?<!\w)(?:после ?завтра|pojutrze|(?:the )?day after (?:tomorrow|tmrw))" + _E,
                  plus(2))
        self.take(_B + r"(?:(?:до|к|на) )?завтра|(?:do |na )?jutr[oa]|tomorrow|tmrw|tmr|tmrow|"
                  r"2morrow|2moro|2mrw|2mro|2morow" + _E, plus(1))
        self.take(_B + r"(?:сегодня|седня|сёдня|dzisiaj|dziś|today)" + _E, plus(0, True))

    def clock_times(self) -> None:
        def set_time(hour: int, minute: int, marker: str, phrase: str, *,
                     worded: bool = False) -> None:
            marker = marker or ""
            evening = re.fullmatch(w.PM_MARK, marker) and hour < 12
            late_night = re.fullmatch(w.NIGHT_MARK, marker) and 6 <= hour < 12
            if evening or late_night:
                hour += 12
            elif re.fullmatch(w.AM_MARK, marker) and hour == 12:
                hour = 0
            if not (0 <= hour <= 23 and 0 <= minute <= 59):
                return
            # "19:30" and "07:30" name their half of the day; "3:15" and "полвосьмого" do not
            # (the bare-hour convention: "pick up the kids at 3:15" is asked, never 03:15)
            kind = ("explicit" if marker or hour == 0 or hour >= 8
                    or re.search(r"(?<!\d)0\d[:.]", phrase) else "bare")
            if re.fullmatch(w.NIGHT_MARK, marker) and hour < 6:
                kind = "night"  # "в час ночи" said in the afternoon is the coming night
            self.found.times.append((time(hour, minute), kind))

        markers = (r"(?: (?:час(?:а|ов)?|godz(?:ina|iny|inie)?\.?|o'clock|h))?"
                   r"(?: ?(?P<mk>" + w.AM_MARK + "|" + w.PM_MARK + "|" + w.NIGHT_MARK + r"))?")

        def numeric(m: re.Match[str]) -> None:
            set_time(int(m.group("h")), int(m.group("mi") or 0), m.group("mk"), m.group(0))

        def span(m: re.Match[str]) -> None:
            # "с 9 до 11", "od 9 do 11", "from 9 to 11": the span starts at its first hour
            numeric(m)

        if self.found.moved:
            # "moved from 9 to 9:30", "перенесли с 9 на 10", "z 8 na 8:30": the new time is
            # the one after "to" / "на" / "na"
            self.take(_B + r"(?:с|со|z|ze|from) [0-2]?\d(?:[:.][0-5]\d)? (?:на|na|to|до|do) "
                      r"(?P<h>[0-2]?\d)(?:[:.](?P<mi>[0-5]\d))?" + markers + _E, numeric)
        # "в 17ч30", "в 17 ч. 30 мин.": hours and minutes by their letters
        self.take(_B + r"(?:(?:в|к|до|около) )?(?P<h>[0-2]?\d) ?ч\.? ?(?P<mi>[0-5]\d)"
                  r"(?: ?мин\.?)?(?P<mk>)(?![\w])", numeric)
        self.take(_B + r"(?:с|od|from|between|между|pomiędzy|między) (?P<h>[0-2]?\d)(?:[:.]"
                  r"(?P<mi>[0-5]\d))? (?:до|do|to|till|until|and|и|a) [0-2]?\d(?:[:.][0-5]\d)?(?: ?(?P<mk>" + w.AM_MARK + "|"
                  + w.PM_MARK + "|" + w.NIGHT_MARK + r"))?" + _E, span)

        # After "в", "o", "at" a number is an hour; after "до", "na", "by" only with minutes
        # or a marker ("на 5 человек" is not five o'clock).
        lead = r"(?:в|во|к|ко|около|в районе|o|około|ok\.|koło|at|around|about)"
        weak = r"(?:до|после|на|na|do|przed|po|by|before|until|after)"
        self.take(_B + lead + r" (?:godz(?:inie|\.)? )?(?P<h>[0-2]?\d)(?:(?:[:.-]| (?=[0-5]\d"
                  r"(?: |$)(?!человек|минут|osób|minut|people|min)))(?P<mi>[0-5]\d))?(?: ?(?:ч|h)\.?"
                  r"(?=\s|$|,))?" + markers + _E + w.NOT_AN_HOUR_CLASS, numeric)
        if self.found.days or re.search(_B + r"(?:tonight|today)" + _E, self.text):
            # "чт 16.00 — перезвонить", "Mon 9.30 standup": a clock time with a dot and no
            # preposition, beside a day named, at a quarter (a price is "12.50 zł", "2.99")
            self.take(_B + r"(?<!за )(?<!по )(?<!for )(?<!za )(?<!po )(?<!of )(?<!x )"
                      r"(?P<h>[0-2]?\d)\.(?P<mi>00|15|30|45)(?P<mk>)(?!\d|[.,]\d|\s?(?:zł|"
                      r"pln|руб|р\.|€|\$|eur|usd|gbp|k\b|тыс|%|am|pm|a\.m|p\.m))", numeric)
        # "Friday 7ish", "around 7-ish": the hour, by the usual conventions (7 is asked)
        self.take(_B + r"(?:(?:at|around|about|by) )?(?P<h>[0-2]?\d)(?::(?P<mi>[0-5]\d))?-?ish"
                  r"(?P<mk>)" + _E, numeric)
        # "tomorrow @ 9", "sat @10am"
        self.take(r"@ ?(?P<h>[0-2]?\d)(?:[:.](?P<mi>[0-5]\d))?" + markers + _E, numeric)
        if self.found.moved:
            # "перенесли с четверга на субботу, на 11", "przełożyli na piątek, na 16": after
            # a move, "на N" closing a clause is the new hour (elsewhere "на 5" counts people)
            self.take(_B + r"(?:на|na) (?P<h>[0-2]?\d)(?:[:.](?P<mi>[0-5]\d))?(?P<mk>)"
                      r"(?=\s*(?:[,.;!]|$|[^\w\s]))", numeric)
        if self.found.days and re.search(_B + _ARRANGED, self.text):
            # "договорился с мастером на 11", "записалась к врачу на пятницу на 11", "umówiłam
            # się na 17": an appointment made for a day named is made for an hour; the usual
            # bare-hour conventions then apply ("на 3" is asked)
            self.take(_B + r"(?:на|na) (?P<h>[0-2]?\d)(?:[:.](?P<mi>[0-5]\d))?(?P<mk>)"
                      r"(?![\w.:/-])" + w.NOT_AN_HOUR_AFTER, numeric)

        def weakly(m: re.Match[str]) -> None:
            if m.group("mi") or m.group("mk") or m.group("unit"):
                numeric(m)
            elif self.several_lines:
                # a list ("Na jutro: ... odebrać z pralni przed 18"): one line's hour is not
                # the whole note's; only "до 12" beside the day, as before
                if (self.found.days and 8 <= int(m.group("h")) <= 23
                        and re.match(r"(?:до|do|by|until|before) ", m.group(0))):
                    numeric(m)
            elif (self.found.days and 1 <= int(m.group("h")) <= 23
                  and not re.match(r"(?:на|na) ", m.group(0))):
                # "завтра до 12 скинуть презу", "завтра после 18", "jutro przed 9": with the
                # day named, the number is the hour, and "в пятницу до 3" a bare hour like
                # "в 3" (asked); "на 5" still counts people
                numeric(m)

        self.take(_B + weak + r" (?:godz(?:inie|\.)? )?(?P<h>[0-2]?\d)(?:[:.](?P<mi>[0-5]\d))?"
                  + markers.replace("(?: (?:час", "(?P<unit> (?:час", 1) + r"(?![\w/-])"
                  + w.NOT_AN_HOUR_AFTER, weakly)
        self.take(_B + r"(?P<h>[0-2]?\d)(?:[:.](?P<mi>[0-5]\d))?"
                  r" ?(?P<mk>am|pm|a\.m\.|p\.m\.)" + r"(?![\w])", numeric)
        # "через неделю в это же время": the clock time the message was written at
        self.take(_B + r"(?:в это же (?:самое )?время|в то же самое время|o tej samej "
                  r"(?:porze|godzinie)|(?:(?:at )?(?:this|the) )?same time(?= next| tomorrow| on))"
                  + _E, lambda m: self.found.times.append(
                      (time(self.now.hour, self.now.minute), "explicit")))
        self.take(_B + r"(?P<h>[0-2]?\d):(?P<mi>[0-5]\d)" + _E + r"(?: ?(?P<mk>"
                  + w.AM_MARK + "|" + w.PM_MARK + r"))?", numeric)

        marks = w.AM_MARK + "|" + w.PM_MARK + "|" + w.NIGHT_MARK
        genitive = "|".join(w.RU_HOUR_GENITIVE)
        pl_hours = "|".join(k for k, v in w.HOUR_WORDS.items() if k.endswith("ej"))
        en_hours = "|".join(k for k in w.HOUR_WORDS if k.isascii())

        def fraction(m: re.Match[str]) -> None:
            groups = m.groupdict()
            if groups.get("half_ru") or groups.get("half_pl"):
                nxt = groups.get("half_ru") or groups.get("half_pl") or ""
                hour = w.RU_HOUR_GENITIVE.get(nxt) or w.HOUR_WORDS[nxt]
                set_time(hour - 1 if hour > 1 else 12, 30, groups.get("mk") or "", m.group(0),
                         worded=True)
            elif groups.get("to_ru") or groups.get("to_pl") or groups.get("to_en"):
                word = groups.get("to_ru") or groups.get("to_en") or ""
                if groups.get("to_pl"):  # "za kwadrans ósma": the nominative of "ósmej"
                    word = str(groups.get("to_pl"))[:-1] + "ej"
                hour = w.HOUR_WORDS.get(word) or int(word)
                set_time(hour - 1 if hour > 1 else 12, 45, groups.get("mk") or "", m.group(0),
                         worded=True)
            else:
                word = groups.get("past_en") or groups.get("past_pl") or ""
                hour = w.HOUR_WORDS.get(word) or int(word)
                minutes = 30 if groups.get("half_en") else 15
                set_time(hour, minutes, groups.get("mk") or "", m.group(0), worded=True)

        tail = r"(?: (?P<mk>" + marks + r"))?" + _E
        self.take(_B + r"(?:в )?(?:пол ?|(?:в|к|до) половин[еы] )(?P<half_ru>" + genitive + r")"
                  + tail,
                  fraction)
        self.take(_B + r"(?:в )?без (?:четверти|пятнадцати) (?P<to_ru>"
                  + "|".join(k for k in w.HOUR_WORDS if not k.isascii() and not k.endswith("ej"))
                  + r")" + tail, fraction)
        self.take(_B + r"(?:o )?wpół do (?P<half_pl>" + pl_hours + r")" + tail, fraction)
        self.take(_B + r"(?:o )?za kwadrans (?P<to_pl>" + pl_hours.replace("ej", "a") + r")"
                  + tail, fraction)
        self.take(_B + r"(?:o )?kwadrans po (?P<past_pl>" + pl_hours + r")" + tail, fraction)
        self.take(_B + r"(?:at )?(?:(?P<half_en>half)|(?:a )?quarter) (?:past|after) (?P<past_en>"
                  + en_hours
                  + r"|\d{1,2})" + tail, fraction)
        self.take(_B + r"(?:at )?quarter to (?P<to_en>" + en_hours + r"|\d{1,2})" + tail,
                  fraction)

        def quarter_past_ru(m: re.Match[str]) -> None:
            # "в четверть седьмого" is 6:15: the quarter of the seventh hour
            hour = w.RU_HOUR_GENITIVE[m.group("hw")]
            set_time(hour - 1 if hour > 1 else 12, 15, m.group("mk") or "", m.group(0),
                     worded=True)

        self.take(_B + r"(?:в )?четверть (?P<hw>" + genitive + r")" + tail, quarter_past_ru)

        def minutes_to_ru(m: re.Match[str]) -> None:
            # "без пяти восемь" is 7:55, "без десяти два" 1:50
            hour = w.HOUR_WORDS.get(m.group("hw")) or int(m.group("hw"))
            set_time(hour - 1 if hour > 1 else 12, 60 - w.RU_MINUTES_BEFORE[m.group("mb")],
                     m.group("mk") or "", m.group(0), worded=True)

        ru_hours = "|".join(k for k in w.HOUR_WORDS if not k.isascii() and not k.endswith("ej"))
        self.take(_B + r"(?:в )?без (?P<mb>" + "|".join(sorted(w.RU_MINUTES_BEFORE, key=len,
                  reverse=True)) + r")(?: минут)? (?P<hw>" + ru_hours + r"|1[0-2]|[1-9])" + tail,
                  minutes_to_ru)

        def half_en(m: re.Match[str]) -> None:
            # British "half four" is 4:30 (the half after the hour, unlike German "halb vier")
            hour = w.HOUR_WORDS.get(m.group("hw")) or int(m.group("hw"))
            set_time(hour, 30, m.group("mk") or "", m.group(0), worded=True)

        self.take(_B + r"(?:at |by |around )?half (?P<hw>" + en_hours + r"|1[0-2]|[1-9])"
                  r"(?! (?:an? |past |to |hour|of ))" + tail, half_en)

        # minutes as words, or as digits followed by "минут"/"minut"/"minutes" ("4 to 7" is a
        # range, not 6:56)
        counts = ("|".join(sorted(w.MINUTE_WORDS, key=len, reverse=True))
                  + r"|[1-5]?\d(?= (?:минут|minut|minutes?|mins?))")

        def minutes_of(word: str) -> int:
            return w.MINUTE_WORDS.get(word) or int(word)

        def past_ru(m: re.Match[str]) -> None:
            # "десять минут восьмого" is 7:10: minutes into the eighth hour
            hour = w.RU_HOUR_GENITIVE[m.group("hw")]
            set_time(hour - 1 if hour > 1 else 12, minutes_of(m.group("mn")),
                     m.group("mk") or "", m.group(0), worded=True)

        self.take(_B + r"(?:в )?(?P<mn>" + counts + r") минут\w* (?P<hw>" + genitive + r")"
                  + tail, past_ru)

        def past(m: re.Match[str]) -> None:
            # "ten past five", "twenty after six", "dziesięć po szóstej"
            word = m.group("hw")
            hour = w.HOUR_WORDS.get(word) or int(word)
            set_time(hour, minutes_of(m.group("mn")), m.group("mk") or "", m.group(0),
                     worded=True)

        def to(m: re.Match[str]) -> None:
            # "twenty to six" is 5:40, "za dziesięć siódma" 6:50
            word = m.group("hw")
            if not word.isdigit() and word not in w.HOUR_WORDS:
                word = word[:-1] + "ej"  # "siódma" -> "siódmej"
            hour = w.HOUR_WORDS.get(word) or int(word)
            set_time(hour - 1 if hour > 1 else 12, 60 - minutes_of(m.group("mn")),
                     m.group("mk") or "", m.group(0), worded=True)

        self.take(_B + r"(?:at |by |around )?(?P<mn>" + counts + r")(?: minutes?)? (?:past|after) "
                  r"(?P<hw>" + en_hours + r"|1[0-2]|[1-9])" + tail, past)
        self.take(_B + r"(?:at |by |around )?(?P<mn>" + counts + r")(?: minutes?)? to "
                  r"(?P<hw>" + en_hours + r"|1[0-2]|[1-9])" + tail, to)
        self.take(_B + r"(?:o )?(?P<mn>" + counts + r")(?: minut)? po (?P<hw>" + pl_hours + r")"
                  + tail, past)
        self.take(_B + r"(?:o )?za (?P<mn>" + counts + r")(?: minut)? (?P<hw>"
                  + pl_hours.replace("ej", "a") + r")" + tail, to)

        def dative(m: re.Match[str]) -> None:
            word = m.group("hw")
            hour = 13 if word == "часу" and not m.group("mk") else w.RU_HOUR_DATIVE[word]
            set_time(hour, 0, m.group("mk") or "", m.group(0))

        self.take(_B + r"(?:к|до|около|после) (?P<hw>" + "|".join(w.RU_HOUR_DATIVE) + r")"
                  r"(?: часов| часам)?" + tail, dative)

        hour_words = "|".join(sorted(w.HOUR_WORDS, key=len, reverse=True))

        def worded(m: re.Match[str]) -> None:
            hour = w.HOUR_WORDS[m.group("hw")]
            marker = m.group("mk") or ""
            minutes = w.MINUTE_WORDS[m.group("mw")] if m.group("mw") else 0
            if m.group("hw") == "час" and not marker and not minutes:  # "в час" is 13:00
                hour, marker = 13, ""
            # "в семь тридцать" with no marker: a bare hour, as "в 7:30" is not
            set_time(hour, minutes, marker, m.group(0), worded=True)

        minute_words = "|".join(sorted(w.MINUTE_WORDS, key=len, reverse=True))

        # after a verb of appointment "на три" is an hour too ("договорились на три": asked)
        arranged = "|на|na" if self.found.days and re.search(_B + _ARRANGED, self.text) else ""
        self.take(_B + r"(?:в|к|до|около|o|około|at|by|around" + arranged + r") (?P<hw>"
                  + hour_words + r")"
                  r"(?: (?P<mw>" + minute_words + r")(?! (?:минут|minut|minutes|min)))?"
                  r"(?: (?:часов|часа|o'clock))?(?: (?P<mk>" + w.AM_MARK + "|" + w.PM_MARK + "|"
                  + w.NIGHT_MARK + r"))?" + _E + w.NOT_AN_HOUR_AFTER, worded)

    def parts_of_day(self) -> None:
        # "tmrw am", "fri pm": am/pm right after a day word read (blanked) is its morning or
        # afternoon ("I am" has no day word before it)
        self.take(r"(?<=\0 )(?:am|a\.m\.)(?![\w.])",
                  lambda m: self.found.times.append((time(9), "part")))
        self.take(r"(?<=\0 )(?:pm|p\.m\.)(?![\w.])",
                  lambda m: self.found.times.append((time(14), "part")))
        if self.found.days:
            # "tomorrow after lunch": with a day named; alone it is as often a habit ("my
            # brother only answers calls after lunch")
            self.take(_B + r"(?:after lunch(?:time)?|po lunchu)" + _E,
                      lambda m: self.found.times.append((time(14), "part")))
        for pattern, hour in w.PARTS_OF_DAY:
            def handle(m: re.Match[str], hour: int = hour) -> None:
                if m.group(0) == "tonight":
                    self.found.days.append((self.today, "tonight"))
                    self.found.today_named = True
                self.found.times.append((time(hour), "part"))
            # "parents' evening", "girls' night": a possessive makes it an event, not a time
            self.take(r"(?<!' )(?<!'s )" + _B + r"(?:" + pattern + r")" + _E, handle)

    def vague(self) -> None:
        self.take(_B + r"(?:" + w.VAGUE + r")" + _E,
                  lambda m: self.soft_doubt(f"'{m.group(0)}' names no day", m))

    now_aware: datetime


def read_due(text: str, written_at: datetime, reminder_hour: int = REMINDER_HOUR) -> DueReading:
    """The due time ``text`` names, read relative to ``written_at`` (aware, the person's zone).

    A naive ``written_at`` is taken as UTC.
    """
    if written_at.tzinfo is None:
        written_at = written_at.replace(tzinfo=UTC)
    corrected, unsure = correct(normalise(text))
    reading = _read(corrected, written_at, reminder_hour, unsure, "\n" in text.strip())
    if not unsure and "\n" not in text.strip():
        reasonless = _without_reasons(corrected, written_at, reminder_hour)
        if reasonless is not None:
            return reasonless
    if reading.reason == _TWO_DAYS and not unsure and "\n" not in text.strip():
        by_deadline = _deadline_over_object(corrected, written_at, reminder_hour)
        if by_deadline is not None:
            return by_deadline
    if (reading.reason in (_TWO_DAYS, _TWO_TIMES, _WEEKDAY_TODAY) and not unsure
            and "\n" not in text.strip()):
        # "концерт в субботу, а в пятницу распечатать билеты": the task's clause may say which;
        # a note of several lines is a list of tasks, and stays asked
        return _by_clause(corrected, written_at, reminder_hour) or reading
    return reading


def _deadline_over_object(corrected: str, written_at: datetime, hour: int) -> DueReading | None:
    """Two days, one a deadline ("до 10 февраля", "do czwartku", "by Thursday") and the other
    inside the task's object ("столик на 14-е", "bilety na sobotę", "tickets for Saturday"):
    the object's date is what the task is about, the deadline is when; else None."""
    found = _scanned(corrected, written_at, hour).found
    if found.either or len({d for d, _ in found.days}) != 2 or len(found.days) != 2:
        return None
    deadline: list[str] = []
    inside: list[str] = []
    for _, phrase in found.days:
        start, end = found.spans.get(phrase, (-1, -1))
        if start < 0:
            return None
        said = corrected[max(0, start - 10):end]
        if re.search(r"(?:^|\s)(?:до|do|by|before)\s" + re.escape(phrase) + "$", said) \
                or re.match(r"(?:до|do|by|before) ", phrase):
            deadline.append(phrase)
            continue
        opener = re.search(r"(\w+)\s(?:на|na|for)\s$", corrected[:start])
        if re.match(r"(?:на|na|for) ", phrase):
            opener = re.search(r"(\w+)\s$", corrected[:start])
        if opener is None or not _a_noun(opener.group(1)):
            return None
        inside.append(phrase)
    if len(deadline) != 1 or len(inside) != 1:
        return None
    start, end = found.spans[inside[0]]
    reading = _read(corrected[:start] + " " * (end - start) + corrected[end:], written_at, hour)
    return reading if reading.due is not None and not reading.ambiguous else None


def _a_noun(word: str) -> bool:
    """A word that names a thing ("столик", "bilety", "tickets"), not a verb: Russian by
    pymorphy3's tag, Polish and English by having no verb's ending or form."""
    if re.fullmatch(r"[а-я]+", word):
        return bool(morph().parse(word)[0].tag.POS == "NOUN")
    return not re.search(r"ć$|^(?:me|us|him|her|them|it|mi|nam|go|ją|je)$|"
                         r"^(?:przyjść|come|go|meet|be)$", word)


def _read(corrected: str, written_at: datetime, reminder_hour: int,
          unsure: tuple[str, ...] | list[str] = (), several_lines: bool = False) -> DueReading:
    scan = _scanned(corrected, written_at, reminder_hour, unsure, several_lines)
    return _combine(scan.found, written_at.replace(tzinfo=None), written_at.tzinfo,
                    reminder_hour)


def _scanned(corrected: str, written_at: datetime, reminder_hour: int,
             unsure: tuple[str, ...] | list[str] = (), several_lines: bool = False) -> _Scan:
    """The scan of a corrected text: what it found, and the text with what it read blanked;
    ``several_lines``: the text was a note of several lines (a list: one line's hour is not
    the whole note's)."""
    now = written_at.replace(tzinfo=None)
    scan = _Scan(corrected, now, reminder_hour)
    scan.several_lines = several_lines
    scan.now_aware = written_at
    for word in unsure:
        scan.doubt(f"'{word}' may be more than one date word")
    scan.found.either = bool(re.search(r"(?<!\w)(?:или|либо|lub|albo|or)(?!\w)", corrected))
    scan.found.moved = bool(re.search(_B + "(?:" + w.SHIFT_RU + "|" + w.SHIFT_PL + "|"
                                      + w.SHIFT_EN + ")", corrected))
    for reader in (scan.shifts, scan.past, scan.spans_from_a_day, scan.leads, scan.after_a_day,
                   scan.british_weeks,
                   scan.nights,
                   scan.named_days,
                   scan.holidays,
                   scan.count_ranges, scan.exact_offsets, scan.offsets,
                   scan.dates_with_month, scan.slashed, scan.weekdays, scan.periods,
                   scan.days_of_month, scan.day_words, scan.vague, scan.midnight,
                   scan.clock_times,
                   scan.parts_of_day):
        reader()
    lead = scan.found.spans.get("\0lead")
    if scan.found.lead is not None and lead is not None:
        # "линейка 1 сентября в 9, цветы купить накануне вечером": the event's hour is not the
        # reminder's; only the hours of the lead's own clause are
        where = next(((s, e) for s, e in clauses(corrected) if s <= lead[0] < e), (0, 0))
        kept = [(t, at) for t, at in zip(scan.found.times, scan.found.time_at, strict=False)
                if where[0] <= at < where[1]]
        scan.found.times = [t for t, _ in kept]
        scan.found.time_at = [at for _, at in kept]
    return scan


_MAY_GIVE_A_REASON = re.compile(r"(?<!\w)(?:потому что|так как|ибо|а то|бо|bo|ponieważ|gdyż|"
                                r"because|'cause|since|он|она|они|on|ona|oni|one|he|she|they|"
                                r"it|значит|то есть|следовательно|więc|zatem|czyli|so|therefore|котор\w+|któr\w+|"
                                r"which|that|who|праздник\w*|święt\w*|holidays?)(?!\w)|[а-я]+(?:ет|ит|ут|ют|ат|ят)(?!\w)")


def _without_reasons(corrected: str, written_at: datetime, hour: int) -> DueReading | None:
    """The text read without the clauses that only say why or what another is doing, when
    what is left still names a day or a time, and reads to one due time; else None.

    "w weekend posprzątać garaż bo teść przyjeżdża w niedzielę": the Saturday; "start of next
    month cancel the gym, they charge on the 3rd": the 1st; "напомни вечером полить цветы, она
    на даче до воскресенья": tonight. A clause about another is left out only when the rest
    names a day, or when its own date is only how long the state lasts ("до", "until").
    """
    if not _MAY_GIVE_A_REASON.search(corrected):
        return None
    parts = clauses(corrected)
    if len(parts) < 2:
        return None
    lang = language(corrected)
    reasons: list[tuple[int, int]] = []
    others: list[tuple[int, int, bool]] = []
    tasks: list[Role] = []
    for start, end in parts:
        scan = _scanned(corrected[start:end], written_at, hour)
        if not scan.found.phrases:
            continue
        if gives_reason(corrected[:start], corrected[start:end]) \
                or (start > 0 and only_beside(corrected[start:end], lang)):
            reasons.append((start, end))
        elif ({p for p in scan.found.phrases} <= {p for _, p in scan.found.soft}
              and role(corrected[start:end], lang, scan.text) not in (Role.OWN, Role.OWN_FIRST)):
            # "3 января записаться к стоматологу, раньше всё равно все на праздниках": a clause
            # with only a holiday or a vague phrase and no task of its own is why, not when
            reasons.append((start, end))
        elif about_another(corrected[start:end], lang):
            until = all(re.match(r"(?:до|until|till|do) ", p) for p in scan.found.phrases)
            others.append((start, end, until))
        else:
            tasks.append(role(corrected[start:end], lang, scan.text))
    if not (reasons or others) or not tasks \
            or any(kind not in (Role.OWN, Role.OWN_FIRST) for kind in tasks):
        return None   # what is left must be the person's own task, with its own date

    def blank(text: str, spans: list[tuple[int, int]]) -> str:
        for start, end in spans:
            text = text[:start] + " " * (end - start) + text[end:]
        return text

    rest = _scanned(blank(corrected, reasons + [(s, e) for s, e, _ in others]),
                    written_at, hour).found
    names_a_day = bool(rest.days or rest.exact or rest.sources)
    if not (names_a_day or rest.times):
        return None
    spans = reasons + [(s, e) for s, e, until in others if names_a_day or until]
    if not spans:
        return None
    reading = _read(blank(corrected, spans), written_at, hour)
    return reading if reading.due is not None and not reading.ambiguous else None


def _by_clause(corrected: str, written_at: datetime, hour: int) -> DueReading | None:
    """Two days or times in one message: the one in the person's own task, if only one is.

    "концерт в субботу, а в пятницу распечатать билеты": each clause is read alone; when the
    clauses that name a date are the person's own task on one side and only the scene (or
    another person's request, answered in the first person) on the other, the scene's dates
    are blanked and the rest read again ("в аэропорт 29-го, выезжаем в 11, рейс в 14:20": the
    29th at 11:00). Both own, neither own, or a reading still in doubt: None (keep asking).
    """
    parts = clauses(corrected)
    if len(parts) < 2:
        return None
    now, zone = written_at.replace(tzinfo=None), written_at.tzinfo
    lang = language(corrected)
    back = [(s, e) for s, e in parts if looks_back(corrected[s:e], lang)
            and _scanned(corrected[s:e], written_at, hour).found.phrases]
    if back and len(back) < len(parts):
        # "send the docs by Friday, promised back in November": a clause that says when the
        # promise was made is never its due time; the rest is read as if it were not there
        blanked = corrected
        for start, end in back:
            blanked = blanked[:start] + " " * (end - start) + blanked[end:]
        reading = _combine(_scanned(blanked, written_at, hour).found, now, zone, hour)
        if reading.due is not None and not reading.ambiguous:
            return reading
    own: list[Role] = []
    rest: list[tuple[int, int, Role, _Scan]] = []
    dated: list[tuple[int, int]] = []
    for start, end in parts:
        scan = _scanned(corrected[start:end], written_at, hour)
        if not scan.found.phrases:
            continue
        dated.append((start, end))
        if not re.search(r"[^\W\d_]{3,}", scan.text):
            return None   # "..., до 15-го": a date alone in its clause belongs to a neighbour
        kind = role(corrected[start:end], lang, scan.text)
        if gives_reason(corrected[:start], corrected[start:end]):
            kind = Role.SCENE   # "..., bo w sobotę już odeślą": why, not when
        if kind is Role.UNKNOWN:
            return None
        if kind in (Role.OWN, Role.OWN_FIRST):
            own.append(kind)
        else:
            rest.append((start, end, kind, scan))
    requests = [i for i, (start, end) in enumerate(dated) if REQUEST.search(corrected[start:end])]
    if len(requests) == 1 and len(dated) > 1:
        found = _scanned(corrected[slice(*dated[requests[0]])], written_at, hour).found
        if found.days or found.exact or found.sources or not found.times:
            requests = []   # only a request with its own hour and no day of its own
    if len(requests) == 1 and len(dated) > 1:
        # "завтра в 7 выезжаем, разбуди меня в 6": the one clause asking the assistant wins
        own = [Role.OWN_FIRST]
        rest = [(s, e, Role.SCENE, _scanned(corrected[s:e], written_at, hour))
                for i, (s, e) in enumerate(dated) if i != requests[0]]
    if not own or not rest:
        return None
    if any(kind is Role.OTHER for _, _, kind, _ in rest) and Role.OWN_FIRST not in own:
        return None
    blanked = corrected
    for start, end, _, _ in rest:
        blanked = blanked[:start] + " " * (end - start) + blanked[end:]
    found = _scanned(blanked, written_at, hour).found
    scene_days = {d: p for *_, scan in rest for d, p in scan.found.days}
    if not (found.days or found.exact or found.sources) and len(scene_days) == 1:
        # "поезд в субботу в 10, в 8 вызвать такси", "..., до 10 забрать букет": the task's
        # hour on the scene's one day, read with that day's words before the task's
        day, words = next(iter(scene_days.items()))
        found = _scanned(words + ", " + blanked, written_at, hour).found
        if {d for d, _ in found.days} != {day}:
            return None
    reading = _combine(found, now, zone, hour)
    return reading if reading.due is not None and not reading.ambiguous else None


# English words after which "sat", "sun", "wed" are the words, not the days ("we sat", "in the
# sun", "got wed"), and the openings of a clause that states rather than asks
_EN_SUBJECTS = frozenset({"i", "we", "he", "she", "they", "you", "it", "who", "that", "which"})
_EN_DETERMINERS = frozenset({"the", "a", "an", "my", "his", "her", "our", "their", "your",
                             "its", "this", "some", "no", "more", "much", "any"})
_EN_NOT_BEFORE_A_DAY = _EN_SUBJECTS | _EN_DETERMINERS | frozenset({
    "just", "had", "has", "have", "was", "were", "be", "been", "get", "got", "getting",
    "in", "of", "into", "under", "and", "then", "still", "newly", "hot", "bright", "never",
    "always", "once"})
_TWO_DAYS = "two different days"
# a verb of making an appointment: its "на 11" is an hour ("договорился с мастером на 11")
_ARRANGED = (r"(?:договорил\w*|договори(?:мся|лись)|записал\w*|записан\w*|записыва\w*|"
             r"назначил\w*|назначен\w*|условил\w*|umówi\w*|umawia\w*|zapisa\w*|"
             r"umówion\w*)")
_NIGHT_BETWEEN = "a night between two days: which?"
_TWO_TIMES = "two different times"
_WEEKDAY_TODAY = "the weekday is today: today or in a week?"


def _weekday_agrees(found: _Found) -> None:
    """"в субботу 12-го": a weekday beside a date on that weekday says which day, not another;
    "в выходные в воскресенье": a weekday in the weekend named is the day."""
    by_weekday = {d for d, p in found.days if p in found.weekday_phrases}
    weekends = {d for d, p in found.days if p in found.weekend_phrases}
    if len(by_weekday) == 1 and weekends:
        day = next(iter(by_weekday))
        if all(0 <= (day - saturday).days <= 1 for saturday in weekends):
            found.days = [(d, p) for d, p in found.days if d == day]
            return
    dated = {(d, p) for d, p in found.days if p not in found.weekday_phrases}
    if len(found.weekdays_named) != 1 or len({d for d, _ in dated}) != 1:
        return
    only = next(iter(dated))[0]

    def beside(a: str, b: str) -> bool:  # "в субботу 12-го", "12 grudnia, w sobotę"
        (s1, e1), (s2, e2) = found.spans.get(a, (-9, -9)), found.spans.get(b, (-99, -99))
        return 0 <= s2 - e1 <= 3 or 0 <= s1 - e2 <= 3

    near = any(beside(wp, p) for wp in found.weekday_phrases for _, p in dated)
    if near and only.weekday() in found.weekdays_named:
        found.days = [(d, p) for d, p in found.days if d == only]
        found.doubts = [x for x in found.doubts if x != _WEEKDAY_TODAY]


def _settled_by_a_date(found: _Found) -> bool:
    """True when every doubt is a vague phrase or a holiday right beside the one explicit
    date named: "после праздников, 5 января", "po sylwestrze, 2 stycznia": the date wins."""
    soft = dict(found.soft)
    days = {d for d, _ in found.days}
    dated = [p for _, p in found.days if p in found.dated]
    if len(days) == 1 and found.doubts and not found.either and all(
            x in soft and "holiday" in x and re.match(r"(?:перед|przed|before) ", soft[x])
            for x in found.doubts):
        # "w weekend umyć okna przed świętami", "в субботу убраться перед праздниками": a
        # holiday as the bound is what the day is before; the one day named is when
        return True
    if not dated or len(days) != 1 or not all(x in soft for x in found.doubts):
        return False

    def beside(a: str, b: str) -> bool:   # ", ", " on ", " в ": nothing but a small word
        (s1, e1), (s2, e2) = found.spans.get(a, (-9, -9)), found.spans.get(b, (-99, -99))
        return 0 <= s2 - e1 <= 4 or 0 <= s1 - e2 <= 4

    return all(any(beside(soft[x], p) for p in dated) for x in found.doubts)


def _combine(found: _Found, now: datetime, zone: object, hour: int) -> DueReading:
    phrase = ", ".join(found.phrases)
    _weekday_agrees(found)

    def asked(reason: str) -> DueReading:
        return DueReading(None, ambiguous=True, reason=reason, phrase=phrase)

    if found.night_to:
        # "в ночь на 17-е, в 3 ночи": hours after midnight are on the day named; otherwise ask
        if found.times and all(t.hour < 6 and kind != "part" for t, kind in found.times):
            found.times = [(t, "night") for t, _ in found.times]
        else:
            found.doubts.insert(0, _NIGHT_BETWEEN)
    if found.doubts and _settled_by_a_date(found):
        found.doubts = []
    if found.doubts:
        return asked(found.doubts[0])
    days = sorted({d for d, _ in found.days})
    if found.lead is not None and len(days) == 1 and not found.exact:
        # "20го платёж, напомни накануне": the one day named, less the lead
        days = [days[0] - found.lead]
    if found.shift is not None or found.shift_months:
        # "сдвинули на неделю, была в четверг 12-го": the one day named is the old one
        old = sorted(set(days) | set(found.sources))
        if len(old) != 1:
            return asked("moved by a span: from which day?")
        days = [_add_months(old[0], found.shift_months) + (found.shift or timedelta())]
    if found.exact:
        if days or len({e for e in found.exact}) > 1:
            return asked("an offset in hours and a day at once")
        return DueReading(found.exact[0], phrase=phrase)
    if len(days) == 2 and len(found.week_offsets) == 1 and len(found.weekdays_named) == 1:
        # "через неделю в пятницу", "w czwartek za tydzień": the weekday a week (or n) later;
        # read when the coming weekday moved by the weeks and the weekday of the week the
        # offset lands in are the same day (said on a Saturday they are not: asked)
        weeks = next(iter(found.week_offsets.values()))
        by_day = [d for d, p in found.days if p in found.weekday_phrases]
        by_offset = [d for d, p in found.days if p in found.week_offsets]
        if len(by_day) == 1 and len(by_offset) == 1:
            later = by_day[0] + timedelta(weeks=weeks)
            if later == _monday(by_offset[0]) + timedelta(days=by_day[0].weekday()):
                days = [later]
    if len(days) > 1:
        return asked(_TWO_DAYS)
    times = sorted({t for t, _ in found.times})
    if len(times) > 1:
        explicit = [t for t, kind in found.times if kind != "part"]
        parts = [t for t, kind in found.times if kind == "part"]
        if len(set(explicit)) == 1 and parts:
            only = explicit[0]
            # "вечером в 7": the part of the day says which half the bare hour is in
            if only.hour < 12 and parts[0].hour >= 12:
                only = time(only.hour + 12, only.minute)
            found.times = [(only, "explicit")]
            times = [only]
        else:
            return asked(_TWO_TIMES)
    kind = found.times[0][1] if found.times else ""
    if kind == "bare":
        return asked("an hour from 1 to 7 without morning or evening")
    clock = times[0] if times else None
    if not days and found.sources and not found.moved:
        days = sorted(set(found.sources))  # "с понедельника начать бегать": the day it starts
        if len(days) > 1:
            return asked(_TWO_DAYS)
    elif not days and found.sources:
        return asked("moved from a day, to when?")
    if not days:
        if clock is None:
            return DueReading(None, phrase=phrase)
        candidate = datetime.combine(now.date(), clock)
        if candidate <= now:
            if kind not in ("part", "night"):
                return asked("that time has passed today")
            candidate += timedelta(days=1)
        return _due(candidate, zone, phrase)
    candidate = datetime.combine(days[0], clock or time(hour))
    if candidate <= now:
        return asked("that time has passed")
    return _due(candidate, zone, phrase)


def _due(local: datetime, zone: object, phrase: str) -> DueReading:
    assert isinstance(zone, ZoneInfo) or hasattr(zone, "utcoffset")
    return DueReading(local.replace(tzinfo=zone), phrase=phrase)  # type: ignore[arg-type]


def local_text(moment: datetime) -> str:
    """``YYYY-MM-DDTHH:MM`` in the moment's own zone: how the date set writes a due time."""
    return moment.strftime("%Y-%m-%dT%H:%M")
