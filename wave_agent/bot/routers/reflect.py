"""/reflect <question>: a narrative from memory (memory_reflect)."""

from __future__ import annotations

from aiogram import Bot, Router
from aiogram.filters import Command, CommandObject
from aiogram.types import Message
from aiogram.utils.chat_action import ChatActionSender

from wave_agent.bot.backend import BotBackend
from wave_agent.bot.formatting import escape
from wave_agent.bot.replies import BotConfig, send_html


def router() -> Router:
    r = Router(name="reflect")

    @r.message(Command("reflect"))
    async def reflect(message: Message, command: CommandObject, bot: Bot, backend: BotBackend,
                      wave_user: str, config: BotConfig) -> None:
        question = (command.args or "").strip()
        if not question:
            await send_html(bot, message.chat.id,
                            "Ask a question after the command, e.g. <code>/reflect how has my "
                            "attitude to work changed?</code>", config)
            return
        async with ChatActionSender.typing(bot=bot, chat_id=message.chat.id):
            answer = await backend.reflect(wave_user, question)
        await send_html(bot, message.chat.id, escape(answer), config)

    return r
