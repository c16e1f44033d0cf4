"""/proposals and /quarantine: each item with its reason and approve/reject buttons.

Pressing a button calls the writer (through the backend) and edits the message to say what
happened, without the buttons, so a decision cannot be made twice by accident.
"""

from __future__ import annotations

import logging

from aiogram import Bot, F, Router
from aiogram.filters import Command
from aiogram.filters.callback_data import CallbackData
from aiogram.types import CallbackQuery, Message
from aiogram.utils.keyboard import InlineKeyboardBuilder

from wave_agent.bot.backend import BotBackend, ReviewItem, ReviewKind
from wave_agent.bot.formatting import escape
from wave_agent.bot.replies import BotConfig, for_telegram, render
from wave_agent.errors import WaveError

log = logging.getLogger("wave.bot.review")

MAX_ITEMS = 10
PREVIEW_CHARS = 1200  # per quoted record, so an item with its verdict stays one message


def _preview(text: str) -> str:
    """Display only (the record itself is never cut): long records are shown in part."""
    return text if len(text) <= PREVIEW_CHARS else text[:PREVIEW_CHARS].rstrip() + "… (/export has all)"


class Review(CallbackData, prefix="rv"):
    action: str  # "a" approve, "r" reject
    item: str


def item_html(item: ReviewItem) -> str:
    lines = [f"<b>{escape(item.title)}</b> <code>{escape(item.id)}</code>",
             f"Why: {escape(item.reason)}"]
    lines += [escape(_preview(d)) for d in item.details]
    return "\n".join(lines)


def router() -> Router:
    r = Router(name="review")

    async def show(message: Message, kind: ReviewKind, backend: BotBackend, wave_user: str,
                   config: BotConfig) -> None:
        items = await backend.review_items(wave_user, kind)
        if not items:
            empty = ("No proposals waiting: nothing needs your decision."
                     if kind == "proposals" else "Quarantine is empty: nothing was held back.")
            await message.answer(empty)
            return
        head = (f"{len(items)} proposal(s) waiting for you:" if kind == "proposals"
                else f"{len(items)} record(s) held in quarantine (kept out of every prompt "
                     "until you approve):")
        if len(items) > MAX_ITEMS:
            head += f" showing the first {MAX_ITEMS}."
        await message.answer(head)
        for item in items[:MAX_ITEMS]:
            builder = InlineKeyboardBuilder()
            builder.button(text="✅ Approve", callback_data=Review(action="a", item=item.id))
            builder.button(text="✖️ Reject", callback_data=Review(action="r", item=item.id))
            text, mode = render(item_html(item), config)
            await message.answer(text, parse_mode=mode, reply_markup=builder.as_markup())

    @r.message(Command("proposals"))
    async def proposals(message: Message, backend: BotBackend, wave_user: str,
                        config: BotConfig) -> None:
        await show(message, "proposals", backend, wave_user, config)

    @r.message(Command("quarantine"))
    async def quarantine(message: Message, backend: BotBackend, wave_user: str,
                         config: BotConfig) -> None:
        await show(message, "quarantine", backend, wave_user, config)

    @r.callback_query(Review.filter(F.action.in_({"a", "r"})))
    async def decide(query: CallbackQuery, callback_data: Review, bot: Bot, backend: BotBackend,
                     wave_user: str, config: BotConfig) -> None:
        approve = callback_data.action == "a"
        try:
            outcome = await backend.decide(wave_user, callback_data.item, approve)
        except WaveError as exc:
            await query.answer(for_telegram(str(exc))[:200], show_alert=True)
            return
        log.info("%s %s", "approved" if approve else "rejected", callback_data.item)
        await query.answer("Approved" if approve else "Rejected")
        message = query.message
        if message is None or not isinstance(message, Message):
            return
        verdict = "✅ Approved" if approve else "✖️ Rejected"
        original = message.html_text if config.parse_mode == "html" else escape(message.text or "")
        text, mode = render(
            f"{original}\n\n<b>{verdict}.</b> {escape(for_telegram(outcome))}", config)
        await bot.edit_message_text(text=text, chat_id=message.chat.id,
                                    message_id=message.message_id, parse_mode=mode,
                                    reply_markup=None)

    return r
