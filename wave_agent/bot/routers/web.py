"""/web: a one-time link to the person's memory page (when WEB_PUBLIC_URL is set)."""

from __future__ import annotations

from collections.abc import Callable

from aiogram import Bot, Router
from aiogram.filters import Command
from aiogram.types import Message

from wave_agent.bot.formatting import escape
from wave_agent.bot.replies import BotConfig, send_html

NO_PAGE = (
    "The memory page is not published. On the machine that runs Wave, <code>wave web</code> "
    "prints a login link; to get links here, set WEB_PUBLIC_URL (and WEB_ENABLED=true for "
    "<code>wave run</code>)."
)


def router() -> Router:
    r = Router(name="web")

    @r.message(Command("web"))
    async def web(message: Message, bot: Bot, wave_user: str, config: BotConfig,
                  web_link: Callable[[str], str | None]) -> None:
        link = web_link(wave_user)
        if link is None:
            await send_html(bot, message.chat.id, NO_PAGE, config)
            return
        await send_html(bot, message.chat.id,
                        f'Your memory: <a href="{escape(link)}">open it</a>\n'
                        "The link works once and for 10 minutes; it shows only your own memory.",
                        config)

    return r
