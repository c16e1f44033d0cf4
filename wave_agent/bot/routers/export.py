"""/export: the person's whole memory as documents (JSON for machines, markdown to read)."""

from __future__ import annotations

from datetime import UTC, datetime

from aiogram import Bot, Router
from aiogram.filters import Command
from aiogram.types import BufferedInputFile, Message
from aiogram.utils.chat_action import ChatActionSender

from wave_agent.bot.backend import BotBackend


def router() -> Router:
    r = Router(name="export")

    @r.message(Command("export"))
    async def export(message: Message, bot: Bot, backend: BotBackend, wave_user: str) -> None:
        async with ChatActionSender.upload_document(bot=bot, chat_id=message.chat.id):
            result = await backend.export(wave_user)
        stamp = datetime.now(UTC).strftime("%Y%m%d-%H%M")
        counts = ", ".join(f"{n} {what}" for what, n in result.counts.items()) or "no records"
        await bot.send_document(
            message.chat.id,
            BufferedInputFile(result.markdown_bytes, filename=f"wave-memory-{stamp}.md"),
            caption=f"Your memory, readable ({counts}).",
        )
        await bot.send_document(
            message.chat.id,
            BufferedInputFile(result.json_bytes, filename=f"wave-memory-{stamp}.json"),
            caption="The same, as JSON (every record with all its fields).",
        )

    return r
