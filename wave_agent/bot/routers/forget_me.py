"""/forget_me: erase everything Wave holds about the person, after a confirmation button.

The command answers with what would be lost (counts by layer) and two buttons; only "Erase
everything" erases (through the same ``Eraser`` as ``wave forget-me``). The rate-limit window
and any conversation state this process keeps for the person go too. The confirmation message
is edited to say what went, without buttons, so it cannot be pressed twice.
"""

from __future__ import annotations

import logging

from aiogram import Bot, Router
from aiogram.filters import Command
from aiogram.filters.callback_data import CallbackData
from aiogram.fsm.context import FSMContext
from aiogram.types import CallbackQuery, Message
from aiogram.utils.keyboard import InlineKeyboardBuilder

from wave_agent.bot.backend import BotBackend
from wave_agent.bot.formatting import escape
from wave_agent.bot.middlewares import RateLimit
from wave_agent.bot.replies import BotConfig, render

log = logging.getLogger("wave.bot.forget_me")


class ForgetMe(CallbackData, prefix="fm"):
    action: str  # "yes" erase, "no" keep


def router() -> Router:
    r = Router(name="forget_me")

    @r.message(Command("forget_me"))
    async def ask(message: Message, backend: BotBackend, wave_user: str,
                  config: BotConfig) -> None:
        lost = await backend.forget_me_preview(wave_user)
        builder = InlineKeyboardBuilder()
        builder.button(text="🗑 Erase everything", callback_data=ForgetMe(action="yes"))
        builder.button(text="Keep my memory", callback_data=ForgetMe(action="no"))
        text, mode = render(
            "<b>Erase everything I know about you?</b>\n"
            f"This removes {escape(lost)}: facts, core blocks with their history, the daily "
            "log, conversation snapshots and this conversation. It cannot be undone; "
            "/export first keeps a copy.", config)
        await message.answer(text, parse_mode=mode, reply_markup=builder.as_markup())

    @r.callback_query(ForgetMe.filter())
    async def decide(query: CallbackQuery, callback_data: ForgetMe, bot: Bot,
                     backend: BotBackend, wave_user: str, config: BotConfig,
                     state: FSMContext, rate_limit: RateLimit | None = None) -> None:
        if callback_data.action == "yes":
            outcome = await backend.forget_me(wave_user)
            await state.clear()
            if rate_limit is not None:
                rate_limit.forget(query.from_user.id)
            log.info("a person erased their memory")
            await query.answer("Erased")
            verdict = f"<b>Done: your memory is erased.</b> {escape(outcome)}"
        else:
            await query.answer("Kept")
            verdict = "<b>Kept.</b> Nothing was erased."
        message = query.message
        if message is None or not isinstance(message, Message):
            return
        text, mode = render(verdict, config)
        await bot.edit_message_text(text=text, chat_id=message.chat.id,
                                    message_id=message.message_id, parse_mode=mode,
                                    reply_markup=None)

    return r
