"""/commitments, /reminders, and the buttons under a reminder.

/commitments lists the open promises by due time, each with the reminder's buttons;
/reminders on|off turns the person's reminders on or off. A button closes the promise (done,
cancel) or moves it (tomorrow, next week, a date the person then writes); the message is edited
to say what happened, without buttons, so a second tap cannot act twice.
"""

from __future__ import annotations

import logging

from aiogram import Bot, F, Router
from aiogram.filters import Command, CommandObject, StateFilter
from aiogram.fsm.context import FSMContext
from aiogram.fsm.state import State, StatesGroup
from aiogram.types import CallbackQuery, Message

from graph.commitments import Commitment, CommitmentState
from wave_agent.bot.backend import BotBackend
from wave_agent.bot.reminders import CommitmentAction, keyboard
from wave_agent.commitments import words
from wave_agent.errors import WaveError

log = logging.getLogger("wave.bot.commitments")

MAX_ITEMS = 10


class Postponing(StatesGroup):
    date = State()  # waiting for the date a promise moves to


def _lang(message: Message | None, fallback: str = "ru") -> str:
    user = message.from_user if message is not None else None
    code = (user.language_code or "") if user is not None else ""
    return code[:2] if code[:2] in words.LANGS else fallback


def _outcome(commitment: Commitment, action: str) -> str:
    lang = words.lang_of(commitment.text)
    if action == "done":
        return words.say("closed_done", lang, text=commitment.text)
    if action == "cancel":
        return words.say("closed_cancel", lang, text=commitment.text)
    due = words.when(commitment.due_at, commitment.timezone, lang)
    return words.say("moved", lang, due=due, text=commitment.text)


def router() -> Router:
    r = Router(name="commitments")

    @r.message(Command("commitments"))
    async def listing(message: Message, backend: BotBackend, wave_user: str) -> None:
        open_ones = await backend.commitments(wave_user)
        lang = _lang(message)
        if not open_ones:
            await message.answer(words.say("none_open", lang))
            return
        await message.answer(words.say("open_head", lang, n=len(open_ones)))
        for c in open_ones[:MAX_ITEMS]:
            await message.answer(words.line(c), reply_markup=keyboard(c, words.lang_of(c.text)))

    @r.message(Command("reminders"))
    async def reminders(message: Message, command: CommandObject, backend: BotBackend,
                        wave_user: str) -> None:
        lang = _lang(message)
        choice = (command.args or "").strip().lower()
        words_given = (command.args or "").split()
        if len(words_given) == 2 and words_given[0].lower() in ("tz", "hour"):
            what, value = words_given[0].lower(), words_given[1]
            try:
                await backend.reminder_settings(
                    wave_user, timezone=value if what == "tz" else None,
                    hour=int(value) if what == "hour" and value.isdigit() else None)
            except WaveError as exc:
                await message.answer(str(exc))
                return
            await message.answer(words.say("settings_set", lang, what=what, value=value))
            return
        if choice not in ("on", "off"):
            await message.answer("/reminders on | off | tz Europe/Moscow | hour 9")
            return
        await backend.set_reminders(wave_user, choice == "on")
        await message.answer(words.say("reminders_on" if choice == "on" else "reminders_off",
                                       lang))

    @r.callback_query(CommitmentAction.filter())
    async def act(query: CallbackQuery, callback_data: CommitmentAction, bot: Bot,
                  backend: BotBackend, wave_user: str, state: FSMContext) -> None:
        action, cid = callback_data.action, callback_data.id
        message = query.message if isinstance(query.message, Message) else None
        if action == "date":
            await state.set_state(Postponing.date)
            await state.update_data(commitment=cid)
            await query.answer()
            found = [c for c in await backend.commitments(wave_user) if c.id == cid]
            text = found[0].text if found else cid
            if message is not None:
                await message.answer(words.say("ask_date", words.lang_of(text), text=text))
            return
        if action in ("done", "cancel"):
            target = CommitmentState.DONE if action == "done" else CommitmentState.CANCELLED
            changed = await backend.close_commitment(wave_user, cid, target)
        else:
            changed = await backend.postpone_commitment(wave_user, cid, action)
        await query.answer()
        log.info("commitment %s: %s", cid, action)
        if message is not None:
            await bot.edit_message_text(text=_outcome(changed, action), chat_id=message.chat.id,
                                        message_id=message.message_id, reply_markup=None)

    @r.message(StateFilter(Postponing.date), F.text)
    async def typed_date(message: Message, backend: BotBackend, wave_user: str,
                         state: FSMContext) -> None:
        data = await state.get_data()
        cid = str(data.get("commitment", ""))
        try:
            changed = await backend.postpone_commitment(wave_user, cid, message.text or "")
        except WaveError as exc:
            await message.answer(words.say("no_date", _lang(message), why=exc.message))
            return
        await state.clear()
        await message.answer(_outcome(changed, "date"))

    return r
