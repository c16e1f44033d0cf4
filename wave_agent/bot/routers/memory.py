"""/memory (core blocks and facts by tier, paged with inline buttons) and /forget <id>."""

from __future__ import annotations

from aiogram import Bot, Router
from aiogram.filters import Command, CommandObject
from aiogram.filters.callback_data import CallbackData
from aiogram.types import CallbackQuery, InlineKeyboardMarkup, Message
from aiogram.utils.keyboard import InlineKeyboardBuilder

from graph.models import Fact, Status, Tier
from wave_agent.bot.backend import BotBackend, MemoryView
from wave_agent.bot.formatting import escape, split_html
from wave_agent.bot.replies import BotConfig, for_telegram, render

PAGE_CHARS = 3500
TIER_TITLES = {
    Tier.CORE: "Core (always in mind)",
    Tier.FACT: "Facts (confirmed)",
    Tier.OBSERVATION: "Observations (heard once)",
    Tier.ARCHIVE: "Archive (out of circulation)",
}


class MemoryPage(CallbackData, prefix="mem"):
    page: int


def _fact_line(fact: Fact) -> str:
    status = "" if fact.status is Status.ACTIVE else f" <i>[{fact.status.value}]</i>"
    return (f"• <code>{escape(fact.id)}</code> {escape(fact.text)} "
            f"<i>({fact.type.value}, {fact.confidence:.2f})</i>{status}")


def memory_html(view: MemoryView) -> str:
    parts: list[str] = []
    for name, text in view.blocks.items():
        body = escape(text.strip()) if text.strip() else "<i>(empty)</i>"
        parts.append(f"<b>Block: {escape(name)}</b>\n{body}")
    shown = [f for f in view.facts if f.status is not Status.SUPERSEDED]
    for tier in (Tier.CORE, Tier.FACT, Tier.OBSERVATION, Tier.ARCHIVE):
        facts = [f for f in shown if f.tier is tier]
        if facts:
            parts.append(f"<b>{TIER_TITLES[tier]}: {len(facts)}</b>\n"
                         + "\n".join(_fact_line(f) for f in facts))
    superseded = len(view.facts) - len(shown)
    if superseded:
        parts.append(f"<i>{superseded} superseded record(s) are kept for history "
                     "(/export shows them).</i>")
    if not parts:
        return "Your memory is empty so far: tell me about yourself and I'll remember."
    return "\n\n".join(parts)


def _pager(page: int, pages: int) -> InlineKeyboardMarkup | None:
    if pages <= 1:
        return None
    builder = InlineKeyboardBuilder()
    if page > 0:
        builder.button(text="‹ Back", callback_data=MemoryPage(page=page - 1))
    builder.button(text=f"{page + 1}/{pages}", callback_data=MemoryPage(page=page))
    if page < pages - 1:
        builder.button(text="Next ›", callback_data=MemoryPage(page=page + 1))
    return builder.as_markup()


def router() -> Router:
    r = Router(name="memory")

    @r.message(Command("memory"))
    async def memory(message: Message, backend: BotBackend, wave_user: str,
                     config: BotConfig) -> None:
        pages = split_html(memory_html(await backend.memory(wave_user)), PAGE_CHARS)
        text, mode = render(pages[0], config)
        await message.answer(text, parse_mode=mode, reply_markup=_pager(0, len(pages)))

    @r.callback_query(MemoryPage.filter())
    async def turn_page(query: CallbackQuery, callback_data: MemoryPage, bot: Bot,
                        backend: BotBackend, wave_user: str, config: BotConfig) -> None:
        pages = split_html(memory_html(await backend.memory(wave_user)), PAGE_CHARS)
        page = min(max(callback_data.page, 0), len(pages) - 1)
        await query.answer()
        if query.message is None or not isinstance(query.message, Message):
            return
        if page == callback_data.page and query.message.html_text == pages[page]:
            return
        text, mode = render(pages[page], config)
        await bot.edit_message_text(text=text, chat_id=query.message.chat.id,
                                    message_id=query.message.message_id, parse_mode=mode,
                                    reply_markup=_pager(page, len(pages)))

    @r.message(Command("forget"))
    async def forget(message: Message, command: CommandObject, backend: BotBackend,
                     wave_user: str, config: BotConfig) -> None:
        fact_id = (command.args or "").strip()
        if not fact_id or " " in fact_id:
            text, mode = render("Say which record: <code>/forget f-abc12345</code> "
                                "(ids are shown by /memory).", config)
            await message.answer(text, parse_mode=mode)
            return
        result = await backend.forget(wave_user, fact_id)
        text, mode = render(escape(for_telegram(result)), config)
        await message.answer(text, parse_mode=mode)

    return r
