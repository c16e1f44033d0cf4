"""Sending Wave's answers: split below the limit, in Telegram HTML or plain text."""

from __future__ import annotations

from dataclasses import dataclass

from aiogram import Bot
from aiogram.enums import ParseMode
from aiogram.types import InlineKeyboardMarkup, Message

from wave_agent.bot.formatting import ParseMode as Mode
from wave_agent.bot.formatting import split_html, split_plain, strip_html


@dataclass(frozen=True, slots=True)
class BotConfig:
    """Presentation settings the handlers need (from ``Settings``, read at the edge)."""

    parse_mode: Mode = "html"
    page_size: int = 10
    chunk_chars: int = 4000


async def send_html(
    bot: Bot,
    chat_id: int,
    html_text: str,
    config: BotConfig,
    *,
    reply_markup: InlineKeyboardMarkup | None = None,
) -> list[Message]:
    """Send our HTML (already escaped) in as many messages as it takes; buttons on the last."""
    if config.parse_mode == "html":
        chunks = split_html(html_text, config.chunk_chars)
        mode: str | None = ParseMode.HTML
    else:
        chunks = split_plain(strip_html(html_text), config.chunk_chars)
        mode = None
    sent: list[Message] = []
    for index, chunk in enumerate(chunks):
        markup = reply_markup if index == len(chunks) - 1 else None
        sent.append(
            await bot.send_message(
                chat_id, chunk, parse_mode=mode, reply_markup=markup,
                link_preview_options=None,
            )
        )
    return sent


def render(html_text: str, config: BotConfig) -> tuple[str, str | None]:
    """One short message (an edit, a page) in the configured mode: (text, parse_mode)."""
    if config.parse_mode == "html":
        return html_text, ParseMode.HTML
    return strip_html(html_text), None
