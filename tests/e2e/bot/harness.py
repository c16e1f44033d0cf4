"""End-to-end bot harness: the local Bot API server, real aiogram polling it, real services.

Nothing inside aiogram is patched: the bot reaches ``TelegramTestServer`` through
``TELEGRAM_API_BASE`` (``TelegramAPIServer.from_base``) and the real dispatcher long-polls it
in a task that each test stops at the end. Stores are the real Neo4j, Qdrant local mode and
files under the test's data directory.
"""

from __future__ import annotations

import asyncio
import secrets
import socket
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Any

from aiogram import Dispatcher

from tests.support.telegram_server import TelegramTestServer
from wave_agent.bot.app import build_bot, build_dispatcher
from wave_agent.bot.backend import BotBackend
from wave_agent.bot.middlewares import InFlight
from wave_agent.settings import Settings

STRANGER = 666_000  # never in the allow-list


def new_telegram_id() -> int:
    """A fresh Telegram id per test: tests share one Neo4j, isolated by user scope."""
    return secrets.randbelow(10**9) + 10**9


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@dataclass
class RunningBot:
    telegram: TelegramTestServer
    settings: Settings
    backend: BotBackend
    dispatcher: Dispatcher

    async def settled(self, last: dict[str, Any], *, timeout: float = 60.0) -> None:
        """Wait until every update up to ``last`` has been fetched and fully handled.

        The bot confirms ``last`` with its next ``getUpdates`` offset; by the time that request
        reaches the server the handling tasks have started (they were scheduled first), and
        ``InFlight`` counts them until they end. For asserting what did *not* happen.
        """
        await self.telegram.wait_delivered(last, timeout=timeout)
        in_flight: InFlight = self.dispatcher["in_flight"]
        assert await in_flight.wait_idle(timeout), f"{in_flight.count} update(s) still running"


def bot_settings(
    base: Settings, telegram: TelegramTestServer, owner: int, **overrides: Any
) -> Settings:
    values: dict[str, Any] = {
        **base.model_dump(),
        "telegram_bot_token": telegram.token,
        "telegram_api_base": telegram.base_url,
        "telegram_allowed_users": [owner],
        **overrides,
    }
    return Settings(_env_file=None, **values)  # type: ignore[call-arg]


@asynccontextmanager
async def polling(
    settings: Settings, backend: BotBackend, telegram: TelegramTestServer
) -> AsyncIterator[RunningBot]:
    """The real dispatcher long-polling the test server until the block ends."""
    bot = build_bot(settings)
    dispatcher = build_dispatcher(settings, backend)
    task = asyncio.create_task(
        dispatcher.start_polling(bot, handle_signals=False, polling_timeout=1)
    )
    try:
        await telegram.wait_for_method("getUpdates", timeout=120)
        yield RunningBot(telegram, settings, backend, dispatcher)
    finally:
        if not task.done():
            await dispatcher.stop_polling()
        await task
