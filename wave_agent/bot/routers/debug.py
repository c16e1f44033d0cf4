"""/debug: the last turn's prompt layers and their sizes."""

from __future__ import annotations

from aiogram import Bot, Router
from aiogram.filters import Command
from aiogram.types import Message

from wave_agent.bot.backend import BotBackend
from wave_agent.bot.formatting import escape
from wave_agent.bot.replies import BotConfig, send_html


def router() -> Router:
    r = Router(name="debug")

    @r.message(Command("debug"))
    async def debug(message: Message, bot: Bot, backend: BotBackend, wave_user: str,
                    config: BotConfig) -> None:
        report = backend.debug(wave_user)
        if report is None:
            await send_html(bot, message.chat.id,
                            "No turn yet in this process: write me something, then /debug.",
                            config)
            return
        await send_html(bot, message.chat.id, f"<pre>{escape(report)}</pre>", config)

    return r
