"""Conversation: a message in, the typing action while the turn runs, the reply out, then
post-processing in the background. /reset ends the session (a snapshot is written)."""

from __future__ import annotations

import logging
import re

from aiogram import Bot, F, Router
from aiogram.filters import Command
from aiogram.types import Message, MessageEntity
from aiogram.utils.chat_action import ChatActionSender

from wave_agent.bot.backend import BotBackend, Provenance
from wave_agent.bot.formatting import escape
from wave_agent.bot.replies import BotConfig, send_html

log = logging.getLogger("wave.bot.chat")

_URL = re.compile(r"https?://\S+|www\.\S+", re.IGNORECASE)
MANY_LINKS = 3  # a message with this many links is treated as quoted web content


def provenance_of(message: Message) -> Provenance | None:
    """Forwarded, quoting, or full of links: not simply the person speaking."""
    origin = message.forward_origin
    sent = message.text or message.caption or ""
    if origin is not None:
        source = (
            getattr(getattr(origin, "chat", None), "title", None)
            or getattr(getattr(origin, "sender_user", None), "full_name", None)
            or getattr(origin, "sender_user_name", None)
            or getattr(origin, "author_signature", None)
            or origin.type
        )
        return Provenance("forwarded", f"forwarded from {source}", sent)
    if message.quote is not None or message.external_reply is not None:
        return Provenance("quoted", "quotes another message", sent)
    entities: list[MessageEntity] = list(message.entities or message.caption_entities or [])
    links = sum(1 for e in entities if e.type in {"url", "text_link"}) or len(_URL.findall(sent))
    if links >= MANY_LINKS:
        return Provenance("links", f"{links} links", sent)
    return None


def message_text(message: Message, provenance: Provenance | None = None) -> str:
    """The text the turn sees: a quote comes along in «», a marked message says so first."""
    text = message.text or message.caption or ""
    if message.quote is not None and message.quote.text:
        text = f"«{message.quote.text}»\n\n{text}"
    if provenance is not None:
        text = f"{provenance.marker}\n{text}"
    return text


def commands_router() -> Router:
    r = Router(name="session")

    @r.message(Command("reset"))
    async def reset(message: Message, bot: Bot, backend: BotBackend, wave_user: str,
                    config: BotConfig) -> None:
        async with ChatActionSender.typing(bot=bot, chat_id=message.chat.id):
            summary = await backend.reset(wave_user)
        await send_html(bot, message.chat.id,
                        "Done: this conversation is closed and I start fresh. "
                        + escape(summary), config)

    return r


def router() -> Router:
    r = Router(name="chat")

    @r.message(F.text & ~F.text.startswith("/") | F.caption)
    async def chat(message: Message, bot: Bot, backend: BotBackend, wave_user: str,
                   config: BotConfig) -> None:
        provenance = provenance_of(message)
        if provenance is not None:
            log.info("message marked as %s (%s)", provenance.kind, provenance.detail)
        async with ChatActionSender.typing(bot=bot, chat_id=message.chat.id):
            reply = await backend.chat(wave_user, message_text(message, provenance), provenance)
        # The reply goes out first; only then does post-processing start.
        await send_html(bot, message.chat.id, escape(reply.text), config)
        backend.after_reply(wave_user, reply)

    return r
