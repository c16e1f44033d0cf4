"""Builds the aiogram ``Bot`` and ``Dispatcher`` and runs them (long polling by default).

``TELEGRAM_API_BASE`` points the bot at another Bot API server (a local ``telegram-bot-api`` for
large files, or the test server) through ``TelegramAPIServer.from_base``. The backend (what the
handlers call) is injected as workflow data; nothing here opens a store.
"""

from __future__ import annotations

import logging
from typing import Any

from aiogram import Bot, Dispatcher
from aiogram.client.default import DefaultBotProperties
from aiogram.client.session.aiohttp import AiohttpSession
from aiogram.client.telegram import TelegramAPIServer
from aiogram.exceptions import TelegramForbiddenError, TelegramRetryAfter
from aiogram.types import ErrorEvent

from wave_agent.bot.backend import BotBackend
from wave_agent.bot.middlewares import (
    AllowList,
    ApiRetry,
    InFlight,
    MessageSize,
    PrivateOnly,
    RateLimit,
)
from wave_agent.bot.reminders import start_reminders
from wave_agent.bot.replies import BotConfig, for_telegram
from wave_agent.bot.routers import all_routers
from wave_agent.bot.routers.start import bot_commands
from wave_agent.errors import ConfigError, Unavailable, WaveError
from wave_agent.settings import Settings

log = logging.getLogger("wave.bot")

DRAIN_TIMEOUT_S = 60.0
IN_FLIGHT_TIMEOUT_S = 90.0  # a turn with a slow model call may take this long


def build_bot(settings: Settings) -> Bot:
    if not settings.telegram_bot_token:
        raise ConfigError(
            "TELEGRAM_BOT_TOKEN", "not set",
            "create a bot with @BotFather, put its token in TELEGRAM_BOT_TOKEN (.env), "
            "or talk to Wave in the terminal with `wave chat`",
        )
    session = AiohttpSession(
        api=TelegramAPIServer.from_base(settings.telegram_api_base)
    ) if settings.telegram_api_base else AiohttpSession()
    session.middleware(ApiRetry())
    return Bot(settings.telegram_bot_token, session=session,
               default=DefaultBotProperties(link_preview_is_disabled=True))


def bot_config(settings: Settings) -> BotConfig:
    return BotConfig(parse_mode=settings.telegram_parse_mode)


def build_dispatcher(settings: Settings, backend: BotBackend, **extra: Any) -> Dispatcher:
    """The dispatcher with its middlewares, routers, error handler and lifecycle hooks."""
    in_flight = InFlight()
    from wave_agent.app.page_auth import link_maker

    extra.setdefault("web_link", link_maker(settings))
    extra.setdefault("reminder_interval_s", settings.reminder_interval_s)
    dispatcher = Dispatcher(
        backend=backend, config=bot_config(settings), in_flight=in_flight, **extra
    )
    dispatcher.update.outer_middleware(in_flight)
    allowed = set(settings.telegram_allowed_users)
    if not allowed:
        log.warning("TELEGRAM_ALLOWED_USERS is empty: Wave will refuse everyone. "
                    "Put your Telegram id there (a stranger's refusal shows their id).")
    dispatcher.update.outer_middleware(PrivateOnly())  # before AllowList: no group gets memory
    dispatcher.update.outer_middleware(AllowList(allowed))
    rate = RateLimit(settings.telegram_rate_per_minute)
    dispatcher["rate_limit"] = rate  # /forget_me clears the person's window
    dispatcher.message.outer_middleware(rate)
    dispatcher.callback_query.outer_middleware(rate)
    dispatcher.message.outer_middleware(MessageSize(settings.telegram_max_message_chars))
    dispatcher.include_routers(*all_routers())
    dispatcher.errors.register(_on_error)
    dispatcher.startup.register(_on_startup)
    dispatcher.shutdown.register(_on_shutdown)
    return dispatcher


async def _on_startup(bot: Bot, backend: BotBackend, dispatcher: Dispatcher,
                      reminder_interval_s: float) -> None:
    await bot.set_my_commands(bot_commands())
    log.info("bot commands registered")
    dispatcher["reminders"] = start_reminders(bot, backend, reminder_interval_s)


async def _on_shutdown(backend: BotBackend, in_flight: InFlight, dispatcher: Dispatcher) -> None:
    """Let the turns in progress finish (their replies go out), then drain the post-processor."""
    reminders = dispatcher.workflow_data.pop("reminders", None)
    if reminders is not None:
        reminders.shutdown(wait=False)
    if in_flight.count:
        log.info("waiting for %d update(s) in progress", in_flight.count)
        if not await in_flight.wait_idle(IN_FLIGHT_TIMEOUT_S):
            log.warning("%d update(s) still running after %ss; stopping anyway",
                        in_flight.count, IN_FLIGHT_TIMEOUT_S)
    log.info("draining the post-processor before exit")
    await backend.drain(DRAIN_TIMEOUT_S)


async def _on_error(event: ErrorEvent, bot: Bot) -> bool:
    """Wave's refusals and the store layers' errors (Neo4j down, the archive locked) reach the
    person with their next step; anything else is logged and answered with an apology."""
    exc = event.exception
    update = event.update
    chat_id = None
    if update.message is not None:
        chat_id = update.message.chat.id
    elif update.callback_query is not None and update.callback_query.message is not None:
        chat_id = update.callback_query.message.chat.id
    if isinstance(exc, TelegramForbiddenError):
        log.info("cannot write to chat (the person blocked the bot?): %s", exc.message)
        return True
    if isinstance(exc, TelegramRetryAfter):
        log.warning("Telegram still rate-limits after retries: %s", exc.message)
        return True
    if isinstance(exc, WaveError):  # Wave's own and every store layer's, with the next step
        log.info("refused: %s", exc)
        lead = "I can't reach part of my memory right now" if isinstance(exc, Unavailable) \
            else "I couldn't do that"
        text = f"{lead}: {for_telegram(exc.message)}."
        if exc.next_step:
            text += f"\nWhat works: {for_telegram(exc.next_step)}."
    else:
        log.exception("handler failed on update %s", update.update_id, exc_info=exc)
        text = ("Something went wrong on my side and I couldn't finish that. Nothing you said "
                "is lost; please try again in a moment.")
    if chat_id is not None:
        try:
            await bot.send_message(chat_id, text)
        except Exception:  # the error path must not raise again
            log.exception("could not tell chat about the error")
    return True


async def run_polling(settings: Settings, backend: BotBackend) -> None:
    """Long polling until SIGINT/SIGTERM; the shutdown hook drains the post-processor."""
    bot = build_bot(settings)
    dispatcher = build_dispatcher(settings, backend)
    await bot.delete_webhook(drop_pending_updates=False)
    await dispatcher.start_polling(bot, handle_signals=True, close_bot_session=True)
