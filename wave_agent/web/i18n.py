"""The page's languages: Russian, Polish and English, one catalogue, dates and numbers by Babel.

The language is, in order: ``?lang=`` (the switch on the page, remembered in a cookie), the
cookie, the browser's ``Accept-Language``, and English when the browser says nothing.

**Adding a string.** Write it in English in the template as ``{{ _("Records") }}`` (or
``_("...")`` in Python), and add a row to ``CATALOGUE`` with its Russian and Polish. English is
the key itself. ``tests/unit/web/test_i18n.py`` fails when a ``_()`` string in a template has
no row, or a row lacks a language. A string not yet wrapped shows in English.
"""

from __future__ import annotations

from datetime import date, datetime
from typing import Final

LANGUAGES: Final = ("ru", "pl", "en")
DEFAULT: Final = "en"
COOKIE: Final = "wave_lang"
NAMES: Final = {"ru": "Русский", "pl": "Polski", "en": "English"}

# English -> {language: translation}. Keep rows grouped by the template they come from.
CATALOGUE: dict[str, dict[str, str]] = {
    # base.html
    "Wave memory": {"ru": "Память Wave", "pl": "Pamięć Wave"},
    "memory of": {"ru": "память", "pl": "pamięć"},
    "Records": {"ru": "Записи", "pl": "Wpisy"},
    "Commitments": {"ru": "Обещания", "pl": "Zobowiązania"},
    "Waiting for you": {"ru": "Ждут вас", "pl": "Czekają na ciebie"},
    "People and things": {"ru": "Люди и вещи", "pl": "Ludzie i rzeczy"},
    "Days": {"ru": "Дни", "pl": "Dni"},
    "Health": {"ru": "Здоровье", "pl": "Kondycja"},
    "Core blocks": {"ru": "Основные блоки", "pl": "Bloki główne"},
    "Export": {"ru": "Экспорт", "pl": "Eksport"},
    "Language": {"ru": "Язык", "pl": "Język"},
    # records.html
    "Search as Wave recalls…": {"ru": "Искать, как вспоминает Wave…",
                                "pl": "Szukaj tak, jak przypomina sobie Wave…"},
    "any tier": {"ru": "любой уровень", "pl": "dowolny poziom"},
    "any status": {"ru": "любой статус", "pl": "dowolny status"},
    "any type": {"ru": "любой тип", "pl": "dowolny typ"},
    "Show": {"ru": "Показать", "pl": "Pokaż"},
    "Recall for": {"ru": "Поиск по запросу", "pl": "Wyniki dla"},
    "with the voices that found each record.": {
        "ru": "и голоса, которые нашли каждую запись.",
        "pl": "i głosy, które znalazły każdy wpis."},
    "Answered without the {voice} voice: {reason}": {
        "ru": "Ответ без голоса «{voice}»: {reason}",
        "pl": "Odpowiedź bez głosu „{voice}”: {reason}"},
    "Nothing here yet. Tell Wave something, or": {
        "ru": "Пока пусто. Расскажите Wave что-нибудь или выполните",
        "pl": "Na razie pusto. Powiedz coś Wave albo uruchom"},
    "text": {"ru": "текст", "pl": "tekst"},
    "type": {"ru": "тип", "pl": "typ"},
    "tier": {"ru": "уровень", "pl": "poziom"},
    "status": {"ru": "статус", "pl": "status"},
    "created": {"ru": "создана", "pl": "utworzony"},
    "confirmed": {"ru": "подтверждена", "pl": "potwierdzony"},
    "conf.": {"ru": "увер.", "pl": "pewn."},
    "found by": {"ru": "нашли", "pl": "znalazły"},
    "← newer": {"ru": "← новее", "pl": "← nowsze"},
    "older →": {"ru": "старше →", "pl": "starsze →"},
    "page": {"ru": "страница", "pl": "strona"},
    "of": {"ru": "из", "pl": "z"},
}


def negotiate(asked: str | None, remembered: str | None, accept_language: str | None) -> str:
    """The page's language for this request (see the module docstring)."""
    for choice in (asked, remembered):
        if choice in LANGUAGES:
            return str(choice)
    ranked: list[tuple[float, int, str]] = []
    for n, part in enumerate((accept_language or "").split(",")):
        tag, _, params = part.strip().partition(";")
        code = tag.strip().lower()[:2]
        weight = 1.0
        if params.strip().startswith("q="):
            try:
                weight = float(params.strip()[2:])
            except ValueError:
                weight = 0.0
        if code in LANGUAGES and weight > 0:
            ranked.append((-weight, n, code))
    return sorted(ranked)[0][2] if ranked else DEFAULT


def translate(lang: str, text: str, **values: object) -> str:
    """``text`` (English) in ``lang``; ``{name}`` fields filled from ``values``."""
    said = CATALOGUE.get(text, {}).get(lang, text) if lang != "en" else text
    return said.format(**values) if values else said


def format_day(value: date | datetime | None, lang: str) -> str:
    """A date as people of ``lang`` write it (Babel, CLDR): 2 дек. 2026 г., 2 gru 2026."""
    if value is None:
        return ""
    from babel.dates import format_date

    return str(format_date(value, format="medium", locale=lang))


def format_number(value: float, lang: str) -> str:
    from babel.numbers import format_decimal

    return str(format_decimal(value, locale=lang))
