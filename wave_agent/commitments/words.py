"""What a person reads about commitments, in Russian, Polish and English (the language of the
promise itself). Every string of the reminders, the buttons and the lists is here, together,
so the page's string catalogue can take them over as they are."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

from babel.dates import format_datetime

from graph.commitments import Commitment, CommitmentState
from graph.stemming import language_of

LANGS = ("ru", "pl", "en")

STRINGS: dict[str, dict[str, str]] = {
    "ru": {
        "reminder": "⏰ Напоминание: {text}\nСрок: {due}",
        "late": "Напоминаю с опозданием: я был недоступен, срок был {due}.",
        "question": "Когда напомнить: «{text}»? Дату я не понял наверняка.",
        "done": "✅ Сделано", "tomorrow": "➡️ Перенести на завтра", "week": "➡️ На неделю",
        "date": "📅 Перенести на дату", "cancel": "✖️ Отменить",
        "closed_done": "✅ Сделано: {text}", "closed_cancel": "✖️ Отменено: {text}",
        "moved": "➡️ Перенёс на {due}: {text}",
        "ask_date": "Напишите, на когда перенести «{text}» (например: «в пятницу в 10», "
                    "«15 марта», «через неделю»).",
        "no_date": "Не понял дату: {why}. Напишите, например, «в пятницу в 10».",
        "none_open": "Открытых обещаний нет.",
        "open_head": "Открытые обещания ({n}):",
        "no_due": "без срока",
        "today_head": "Сегодня по обещаниям:",
        "settings_set": "Готово: {what} = {value}.",
        "reminders_on": "Напоминания включены.", "reminders_off": "Напоминания выключены. "
        "Включить снова: /reminders on",
    },
    "pl": {
        "reminder": "⏰ Przypomnienie: {text}\nTermin: {due}",
        "late": "Przypominam z opóźnieniem: byłem niedostępny, termin minął {due}.",
        "question": "Kiedy przypomnieć: „{text}”? Nie jestem pewien daty.",
        "done": "✅ Zrobione", "tomorrow": "➡️ Przełóż na jutro", "week": "➡️ Za tydzień",
        "date": "📅 Przełóż na datę", "cancel": "✖️ Anuluj",
        "closed_done": "✅ Zrobione: {text}", "closed_cancel": "✖️ Anulowane: {text}",
        "moved": "➡️ Przełożone na {due}: {text}",
        "ask_date": "Napisz, na kiedy przełożyć „{text}” (np. „w piątek o 10”, „15 marca”, "
                    "„za tydzień”).",
        "no_date": "Nie rozumiem daty: {why}. Napisz np. „w piątek o 10”.",
        "none_open": "Brak otwartych zobowiązań.",
        "open_head": "Otwarte zobowiązania ({n}):",
        "no_due": "bez terminu",
        "today_head": "Dziś w zobowiązaniach:",
        "settings_set": "Gotowe: {what} = {value}.",
        "reminders_on": "Przypomnienia włączone.", "reminders_off": "Przypomnienia wyłączone. "
        "Włącz ponownie: /reminders on",
    },
    "en": {
        "reminder": "⏰ Reminder: {text}\nDue: {due}",
        "late": "A late reminder: I was unavailable, it was due {due}.",
        "question": "When should I remind you: “{text}”? I was not sure of the date.",
        "done": "✅ Done", "tomorrow": "➡️ Move to tomorrow", "week": "➡️ Next week",
        "date": "📅 Move to a date", "cancel": "✖️ Cancel",
        "closed_done": "✅ Done: {text}", "closed_cancel": "✖️ Cancelled: {text}",
        "moved": "➡️ Moved to {due}: {text}",
        "ask_date": "Write when to move “{text}” to (e.g. “Friday at 10”, “March 15”, "
                    "“in a week”).",
        "no_date": "I could not read the date: {why}. Write e.g. “Friday at 10”.",
        "none_open": "No open commitments.",
        "open_head": "Open commitments ({n}):",
        "no_due": "no due date",
        "today_head": "Commitments today:",
        "settings_set": "Done: {what} = {value}.",
        "reminders_on": "Reminders are on.", "reminders_off": "Reminders are off. "
        "Turn them on again: /reminders on",
    },
}

# A commitment's state in each language (the memory page's words are in web/i18n.py).
STATE_NAMES = {
    "ru": {"open": "открыто", "done": "сделано", "cancelled": "отменено", "missed": "пропущено"},
    "pl": {"open": "otwarte", "done": "zrobione", "cancelled": "anulowane",
           "missed": "przegapione"},
    "en": {"open": "open", "done": "done", "cancelled": "cancelled", "missed": "missed"},
}


def lang_of(text: str) -> str:
    return {"russian": "ru", "polish": "pl"}.get(language_of(text), "en")


def say(key: str, lang: str, **values: object) -> str:
    return STRINGS.get(lang, STRINGS["en"])[key].format(**values)


def when(moment: datetime | None, timezone: str, lang: str) -> str:
    """A due time as a person reads it, in their zone: "пт, 4 декабря, 10:00"."""
    if moment is None:
        return say("no_due", lang)
    local = moment.astimezone(ZoneInfo(timezone))
    return format_datetime(local, "EEE, d MMMM, HH:mm", locale=lang)


def line(c: Commitment, lang: str | None = None) -> str:
    """One commitment in a list: due time, text, and its state unless open."""
    lang = lang or lang_of(c.text)
    state = "" if c.state is CommitmentState.OPEN else f" ({STATE_NAMES[lang][c.state.value]})"
    return f"{when(c.due_at, c.timezone, lang)} — {c.text}{state}"
