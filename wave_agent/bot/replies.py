"""Sending Wave's answers: split below the limit, in Telegram HTML or plain text."""

from __future__ import annotations

import re
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


_CLI = re.compile(r"`wave (facts|recall|proposals|quarantine|forget|approve|reject|health|"
                  r"reflect|export)((?: [^`]*)?)`")
_USER_HINT = re.compile(r"\s*\(add --user [^)]*\)")


def _bot_command(match: re.Match[str]) -> str:
    command, args = match.group(1), match.group(2).strip()
    if command in {"facts", "recall"}:
        return "/memory"
    if command in {"approve", "reject"}:
        where = "/quarantine" if args.startswith("f-") else "/proposals"
        label = "✅ Approve" if command == "approve" else "✖️ Reject"
        return f"the {label} button under {args or 'the item'} in {where}"
    return f"/{command} {args}".rstrip()


def for_telegram(text: str) -> str:
    """Wave's next steps name CLI commands; on Telegram, name the bot's way to do the same.

    Commands with no bot equivalent (``wave delete``, ``wave supersede``...) stay as they are:
    they work in a terminal with ``--user tg-<id>``.
    """
    text = _CLI.sub(_bot_command, text)
    if "`wave " not in text:
        text = _USER_HINT.sub("", text)
    return text
