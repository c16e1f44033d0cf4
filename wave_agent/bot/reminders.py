"""Reminders on Telegram: the message with its buttons, and the scheduler that asks
"is anything due?" every ``REMINDER_INTERVAL_S`` seconds (apscheduler on the bot's loop, beside
maintenance).

What is due, and that nothing goes out twice, is the sweep's business
(``wave_agent.commitments.sweep``, through the backend); this module only turns a due
commitment into a message: the promise, its due time in the person's zone, "late" when it fell
due while the bot was down, and the buttons "done", "tomorrow", "next week", "a date",
"cancel". A commitment whose date was unclear gets the question with the same buttons.
"""

from __future__ import annotations

import asyncio
import logging
from datetime import UTC, datetime

from aiogram import Bot
from aiogram.filters.callback_data import CallbackData
from aiogram.types import InlineKeyboardMarkup
from aiogram.utils.keyboard import InlineKeyboardBuilder
from apscheduler.schedulers.asyncio import AsyncIOScheduler
from apscheduler.triggers.interval import IntervalTrigger

from graph.commitments import Commitment
from wave_agent.bot.backend import BotBackend
from wave_agent.commitments import words
from wave_agent.commitments.sweep import Notice, SweepReport

log = logging.getLogger("wave.bot.reminders")

TELEGRAM_PREFIX = "tg-"


class CommitmentAction(CallbackData, prefix="cm"):
    action: str  # done, tomorrow, week, date, cancel
    id: str


def keyboard(commitment: Commitment, lang: str) -> InlineKeyboardMarkup:
    builder = InlineKeyboardBuilder()
    for action in ("done", "tomorrow", "week", "date", "cancel"):
        builder.button(text=words.say(action, lang),
                       callback_data=CommitmentAction(action=action, id=commitment.id))
    builder.adjust(1, 2, 1, 1)
    return builder.as_markup()


def notice_text(commitment: Commitment, notice: Notice) -> str:
    lang = words.lang_of(commitment.text)
    if notice.kind == "question":
        return words.say("question", lang, text=commitment.text)
    due = words.when(commitment.due_at, commitment.timezone, lang)
    text = words.say("reminder", lang, text=commitment.text, due=due)
    if notice.late:
        text += "\n" + words.say("late", lang, due=due)
    return text


def chat_of(user_id: str) -> int:
    return int(user_id.removeprefix(TELEGRAM_PREFIX))


async def send_notice(bot: Bot, commitment: Commitment, notice: Notice) -> None:
    """Send one reminder or question; raises when Telegram did not take it (the sweep then
    gives the reminder back and retries)."""
    lang = words.lang_of(commitment.text)
    await bot.send_message(chat_of(commitment.user_id), notice_text(commitment, notice),
                           reply_markup=keyboard(commitment, lang))


async def tick(bot: Bot, backend: BotBackend) -> SweepReport:
    """One sweep: what is due now goes out."""

    async def send(commitment: Commitment, notice: Notice) -> None:
        await send_notice(bot, commitment, notice)

    return await backend.remind(send)


async def _scheduled(bot: Bot, backend: BotBackend) -> None:
    try:
        await tick(bot, backend)
    except asyncio.CancelledError:  # the bot is stopping; the next start sweeps again
        log.info("reminder sweep interrupted by shutdown")
    except Exception:  # a store down: the next tick retries; never kill the job
        log.exception("reminder sweep failed; the next one retries")


def start_reminders(bot: Bot, backend: BotBackend, interval_s: float) -> AsyncIOScheduler:
    """Sweep every ``interval_s`` seconds, starting now (so a reminder that fell due while the
    bot was down goes out at once); ``scheduler.shutdown()`` stops it."""
    scheduler = AsyncIOScheduler(timezone="UTC")
    scheduler.add_job(_scheduled, IntervalTrigger(seconds=interval_s, timezone="UTC"),
                      args=(bot, backend), id="reminders", name="commitment reminders",
                      max_instances=1, coalesce=True, next_run_time=datetime.now(UTC))
    scheduler.start()
    log.info("reminders: a sweep every %ss", interval_s)
    return scheduler

