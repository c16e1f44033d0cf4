"""/health: the state of the person's memory, contradictions first."""

from __future__ import annotations

from aiogram import Bot, Router
from aiogram.filters import Command
from aiogram.types import Message

from wave_agent.bot.backend import BotBackend
from wave_agent.bot.formatting import escape
from wave_agent.bot.replies import BotConfig, send_html


def router() -> Router:
    r = Router(name="health")

    @r.message(Command("health"))
    async def health(message: Message, bot: Bot, backend: BotBackend, wave_user: str,
                     config: BotConfig) -> None:
        report = await backend.health(wave_user)
        await send_html(bot, message.chat.id, f"<pre>{escape(report)}</pre>", config)

    return r
