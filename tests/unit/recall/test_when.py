"""The period a question names (recall's dated voice): dates, months, years, relative phrases in
English, Russian and Polish; the "may" verb; impossible dates; time zones; exclusive ends."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest

from wave_agent.recall.when import Span, query_span

NOW = datetime(2023, 8, 15, 12, 0, tzinfo=UTC)
MOSCOW = ZoneInfo("Europe/Moscow")


def day(year: int, month: int, d: int) -> tuple[datetime, datetime]:
    start = datetime(year, month, d, tzinfo=UTC)
    return start, start + timedelta(days=1)


def month(year: int, m: int) -> tuple[datetime, datetime]:
    after = datetime(year + 1, 1, 1, tzinfo=UTC) if m == 12 else datetime(year, m + 1, 1, tzinfo=UTC)
    return datetime(year, m, 1, tzinfo=UTC), after


def year(y: int) -> tuple[datetime, datetime]:
    return datetime(y, 1, 1, tzinfo=UTC), datetime(y + 1, 1, 1, tzinfo=UTC)


def bounds(text: str, now: datetime = NOW) -> tuple[datetime, datetime] | None:
    span = query_span(text, now)
    return None if span is None else (span.start, span.end)


# ---------------------------------------------------------------- explicit days


@pytest.mark.parametrize("text", [
    "What did I do on 3 June, 2023?",
    "June 3, 2023",
    "june 3rd 2023",
    "on 3 June 2023",
    "the 3rd of June 2023",
    "Jun 3, 2023",
    "Jun. 3 2023",
    "2023-06-03",
    "2023-06-03T10:00",
    "03.06.2023",
    "3.6.2023",
    "что было 3 июня 2023",
    "3 июня 2023 года",
    "3-го июня 2023 г.",
    "3 ИЮНЯ 2023",
    "co robiłem 3 czerwca 2023",
    "3 czerwca 2023 r.",
    "3. czerwca 2023 roku",
])
def test_an_explicit_date_is_that_whole_day(text: str) -> None:
    assert bounds(text) == day(2023, 6, 3)


@pytest.mark.parametrize(("text", "expected"), [
    ("What happened on June 3?", day(2023, 6, 3)),
    ("3 сентября", day(2022, 9, 3)),  # September 2023 is still ahead of NOW
    ("15 sierpnia", day(2023, 8, 15)),  # today counts
    ("29 February", day(2020, 2, 29)),  # the most recent leap day
])
def test_a_day_without_a_year_is_the_most_recent_one_not_in_the_future(
    text: str, expected: tuple[datetime, datetime]
) -> None:
    assert bounds(text) == expected


# ---------------------------------------------------------------- months


@pytest.mark.parametrize("text", [
    "June 2023", "in June, 2023", "JUNE 2023", "Jun 2023", "June of 2023",
    "июнь 2023", "в июне 2023", "в июне 2023 года", "июня 2023",
    "w czerwcu 2023", "czerwiec 2023", "w czerwcu 2023 roku",
])
def test_month_and_year_is_the_whole_month(text: str) -> None:
    assert bounds(text) == month(2023, 6)


RU_MONTHS = [
    ("январь", "января", "январе"), ("февраль", "февраля", "феврале"), ("март", "марта", "марте"),
    ("апрель", "апреля", "апреле"), ("май", "мая", "мае"), ("июнь", "июня", "июне"),
    ("июль", "июля", "июле"), ("август", "августа", "августе"),
    ("сентябрь", "сентября", "сентябре"), ("октябрь", "октября", "октябре"),
    ("ноябрь", "ноября", "ноябре"), ("декабрь", "декабря", "декабре"),
]
PL_MONTHS = [
    ("styczeń", "stycznia", "styczniu"), ("luty", "lutego", "lutym"),
    ("marzec", "marca", "marcu"), ("kwiecień", "kwietnia", "kwietniu"), ("maj", "maja", "maju"),
    ("czerwiec", "czerwca", "czerwcu"), ("lipiec", "lipca", "lipcu"),
    ("sierpień", "sierpnia", "sierpniu"), ("wrzesień", "września", "wrześniu"),
    ("październik", "października", "październiku"), ("listopad", "listopada", "listopadzie"),
    ("grudzień", "grudnia", "grudniu"),
]
EN_MONTHS = [
    ("January", "Jan"), ("February", "Feb."), ("March", "Mar"), ("April", "apr"), ("May", "May"),
    ("June", "Jun"), ("July", "Jul."), ("August", "aug"), ("September", "Sept"),
    ("October", "Oct"), ("November", "nov."), ("December", "Dec"),
]


@pytest.mark.parametrize(("number", "forms"), list(enumerate(RU_MONTHS, start=1)))
def test_every_russian_month_in_every_common_case(number: int, forms: tuple[str, ...]) -> None:
    for form in forms:
        assert bounds(f"{form} 2021") == month(2021, number), form
    assert bounds(f"10 {forms[1]} 2021") == day(2021, number, 10)
    assert bounds(f"что было в {forms[2]} 2021 года?") == month(2021, number)


@pytest.mark.parametrize(("number", "forms"), list(enumerate(PL_MONTHS, start=1)))
def test_every_polish_month_in_every_common_case(number: int, forms: tuple[str, ...]) -> None:
    for form in forms:
        assert bounds(f"{form} 2021") == month(2021, number), form
    assert bounds(f"10 {forms[1]} 2021") == day(2021, number, 10)
    assert bounds(f"co było w {forms[2]} 2021 roku?") == month(2021, number)


@pytest.mark.parametrize(("number", "forms"), list(enumerate(EN_MONTHS, start=1)))
def test_every_english_month_full_and_abbreviated(number: int, forms: tuple[str, ...]) -> None:
    for form in forms:
        assert bounds(f"{form} 2021") == month(2021, number), form
        assert bounds(f"{form} 10, 2021") == day(2021, number, 10), form


def test_russian_and_polish_months_in_the_other_cases() -> None:
    assert bounds("с мая 2021") == month(2021, 5)
    assert bounds("за январём 2021") == month(2021, 1)
    assert bounds("z czerwcem 2021") == month(2021, 6)
    assert bounds("listopadem 2021") == month(2021, 11)


def test_polish_typed_without_diacritics() -> None:
    assert bounds("10 wrzesnia 2021") == day(2021, 9, 10)
    assert bounds("pazdziernik 2021") == month(2021, 10)
    assert bounds("w zeszlym tygodniu") == (NOW - timedelta(days=14), NOW)


@pytest.mark.parametrize(("text", "expected"), [
    ("What did I do in June?", month(2023, 6)),
    ("during June", month(2023, 6)),
    ("since March", month(2023, 3)),
    ("in Sept", month(2022, 9)),
    ("in Sept. with Anna", month(2022, 9)),
    ("что я делал в июне?", month(2023, 6)),
    ("в мае", month(2023, 5)),
    ("co robiłem w czerwcu?", month(2023, 6)),
    ("we wrześniu", month(2022, 9)),
    ("od lutego", month(2023, 2)),
])
def test_a_month_alone_after_a_preposition(text: str, expected: tuple[datetime, datetime]) -> None:
    assert bounds(text) == expected


def test_a_month_alone_is_the_most_recent_one_not_in_the_future() -> None:
    now = datetime(2023, 3, 10, 9, 0, tzinfo=UTC)
    assert bounds("in June", now) == month(2022, 6)
    assert bounds("in March", now) == month(2023, 3)
    assert bounds("в июне", now) == month(2022, 6)
    assert bounds("w marcu", now) == month(2023, 3)
    assert bounds("in February", now) == month(2023, 2)


@pytest.mark.parametrize(("text", "expected"), [
    ("in June last year", month(2022, 6)),
    ("in June of this year", month(2023, 6)),
    ("в июне прошлого года", month(2022, 6)),
    ("в декабре этого года", month(2023, 12)),
    ("w czerwcu zeszłego roku", month(2022, 6)),
    ("w czerwcu w ubiegłym roku", month(2022, 6)),
])
def test_a_month_with_last_or_this_year(text: str, expected: tuple[datetime, datetime]) -> None:
    assert bounds(text) == expected


# ---------------------------------------------------------------- English "may"


def test_may_the_verb_names_no_period() -> None:
    assert query_span("May I ask what Anna likes?", NOW) is None
    assert query_span("may i ask what anna likes", NOW) is None
    assert query_span("We may go to the sea", NOW) is None
    assert query_span("all 3 may come", NOW) is None


def test_may_the_month() -> None:
    assert bounds("What did I do in May?") == month(2023, 5)
    assert bounds("what did i do in may") == month(2023, 5)
    assert bounds("since may") == month(2023, 5)
    assert bounds("the 3rd of may") == day(2023, 5, 3)
    assert bounds("on May 3") == day(2023, 5, 3)
    assert bounds("May 2022") == month(2022, 5)
    assert bounds("3 may 2022") == day(2022, 5, 3)  # a full date cannot be the verb
    assert bounds("We may meet in June") == month(2023, 6)


def test_an_abbreviation_that_is_also_a_name_needs_a_clause_end() -> None:
    assert query_span("What did I talk about since Jan left?", NOW) is None
    assert bounds("What happened in Jan?") == month(2023, 1)
    assert bounds("in Jan. with Anna") == month(2023, 1)


# ---------------------------------------------------------------- years


@pytest.mark.parametrize("text", [
    "What did I do in 2021?", "during 2021", "since 2021",
    "в 2021 году", "в 2021 г.", "что было в 2021?", "с 2021 года",
    "w 2021", "w 2021 roku", "od 2021 r.",
])
def test_a_year_after_a_preposition_is_the_whole_year(text: str) -> None:
    assert bounds(text) == year(2021)


@pytest.mark.parametrize("text", [
    "в 2000 раз больше", "od 2000 złotych", "2021 was fine", "in 1850", "in 2101",
])
def test_numbers_that_are_not_a_year_named_as_a_period(text: str) -> None:
    assert query_span(text, NOW) is None


# ---------------------------------------------------------------- relative to now


@pytest.mark.parametrize(("text", "expected"), [
    ("What did I eat yesterday?", day(2023, 8, 14)),
    ("что я ел вчера?", day(2023, 8, 14)),
    ("co jadłem wczoraj?", day(2023, 8, 14)),
    ("today", day(2023, 8, 15)),
    ("сегодня", day(2023, 8, 15)),
    ("dzisiaj", day(2023, 8, 15)),
    ("dziś", day(2023, 8, 15)),
    ("the day before yesterday", day(2023, 8, 13)),
    ("позавчера", day(2023, 8, 13)),
    ("przedwczoraj", day(2023, 8, 13)),
    ("last week", (NOW - timedelta(days=14), NOW)),
    ("на прошлой неделе", (NOW - timedelta(days=14), NOW)),
    ("w zeszłym tygodniu", (NOW - timedelta(days=14), NOW)),
    ("w ubiegłym tygodniu", (NOW - timedelta(days=14), NOW)),
    ("last month", month(2023, 7)),
    ("в прошлом месяце", month(2023, 7)),
    ("w zeszłym miesiącu", month(2023, 7)),
    ("last year", year(2022)),
    ("в прошлом году", year(2022)),
    ("w zeszłym roku", year(2022)),
])
def test_relative_phrases_count_from_now(text: str, expected: tuple[datetime, datetime]) -> None:
    assert bounds(text) == expected


@pytest.mark.parametrize("text", ["5 days ago", "5 дней назад", "5 dni temu"])
def test_n_days_ago_is_that_day_and_one_either_side(text: str) -> None:
    start, _ = day(2023, 8, 9)
    _, end = day(2023, 8, 11)
    assert bounds(text) == (start, end)


def test_last_month_and_last_year_in_january() -> None:
    now = datetime(2024, 1, 5, 8, 0, tzinfo=UTC)
    assert bounds("last month", now) == month(2023, 12)
    assert bounds("last year", now) == year(2023)
    assert bounds("in December", now) == month(2023, 12)


# ---------------------------------------------------------------- impossible dates


def test_an_impossible_date_is_skipped_never_raised() -> None:
    assert query_span("2023-02-31", NOW) is None
    assert query_span("31.02.2023", NOW) is None
    assert query_span("13.13.2023", NOW) is None
    assert query_span("31 февраля", NOW) is None
    assert query_span("3 June 1850", NOW) is None
    assert query_span("June 2150", NOW) is None


def test_an_impossible_day_leaves_its_real_month() -> None:
    span = query_span("31 February 2023", NOW)
    assert span is not None
    assert (span.start, span.end, span.phrase) == (*month(2023, 2), "February 2023")


# ---------------------------------------------------------------- the most specific wins


@pytest.mark.parametrize(("text", "expected"), [
    ("yesterday I remembered what we did on 3 June 2023", day(2023, 6, 3)),
    ("in 2021, in June", month(2023, 6)),
    ("last week, or in 2021?", year(2021)),
    ("в прошлом году, 10 мая 2022", day(2022, 5, 10)),
    ("June 3 2023 or June 4", day(2023, 6, 3)),
    ("on 3 June 2023 and on 5 June 2023", day(2023, 6, 3)),
])
def test_the_most_specific_phrase_wins(text: str, expected: tuple[datetime, datetime]) -> None:
    assert bounds(text) == expected


# ---------------------------------------------------------------- no period


@pytest.mark.parametrize("text", [
    "", "What does Anna like?", "Что любит Анна?", "Co lubi Anna?", "мама мыла раму",
    "what is 2+2", "I have 3 cats", "version 1.2.3", "call me at 12.30",
    "marching in the rain", "majówka", "Jan called me",
])
def test_text_without_a_period_gives_none(text: str) -> None:
    assert query_span(text, NOW) is None


# ---------------------------------------------------------------- time zones, bounds


def test_a_day_in_moscow_starts_at_moscow_midnight() -> None:
    span = query_span("3 June 2023", NOW, MOSCOW)
    assert span is not None
    assert span.start == datetime(2023, 6, 3, tzinfo=MOSCOW)
    assert span.start.utcoffset() == timedelta(hours=3)
    assert span.start.astimezone(UTC) == datetime(2023, 6, 2, 21, 0, tzinfo=UTC)
    assert span.end == datetime(2023, 6, 4, tzinfo=MOSCOW)


def test_relative_days_follow_the_local_calendar() -> None:
    late_utc = datetime(2023, 8, 15, 22, 30, tzinfo=UTC)  # already 16 August in Moscow
    span = query_span("вчера", late_utc, MOSCOW)
    assert span is not None
    assert (span.start, span.end) == (
        datetime(2023, 8, 15, tzinfo=MOSCOW), datetime(2023, 8, 16, tzinfo=MOSCOW)
    )
    span = query_span("in August", late_utc, MOSCOW)
    assert span is not None and span.start == datetime(2023, 8, 1, tzinfo=MOSCOW)


def test_the_end_is_exclusive() -> None:
    span = query_span("3 June 2023", NOW)
    assert span is not None

    def holds(moment: datetime) -> bool:
        return span.start <= moment < span.end

    assert holds(datetime(2023, 6, 3, 0, 0, tzinfo=UTC))
    assert holds(datetime(2023, 6, 3, 23, 59, 59, 999999, tzinfo=UTC))
    assert not holds(datetime(2023, 6, 4, 0, 0, tzinfo=UTC))
    assert span.end - span.start == timedelta(days=1)


def test_span_is_plain_frozen_data_with_the_phrase() -> None:
    span = query_span("What did I do in June?", NOW)
    assert span == Span(*month(2023, 6), "in June")
    with pytest.raises(AttributeError):
        span.phrase = "x"  # type: ignore[misc]


def test_a_naive_now_is_refused() -> None:
    with pytest.raises(ValueError, match="timezone-aware"):
        query_span("yesterday", datetime(2023, 8, 15))  # noqa: DTZ001
