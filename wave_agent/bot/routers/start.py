"""/start, /help, and help for any command Wave does not know (never silence)."""

from __future__ import annotations

from aiogram import Bot, F, Router
from aiogram.filters import Command, CommandStart
from aiogram.types import BotCommand, Message

from wave_agent.bot.formatting import escape
from wave_agent.bot.replies import BotConfig, send_html

COMMANDS: list[tuple[str, str]] = [
    ("start", "what Wave is and what it can do"),
    ("reset", "end this conversation (a snapshot is kept) and start fresh"),
    ("memory", "your core blocks and facts, by tier"),
    ("forget", "/forget <id>: archive a record (reversible)"),
    ("proposals", "changes Wave proposes, to approve or reject"),
    ("quarantine", "records held back because they read like instructions"),
    ("reflect", "/reflect <question>: a narrative from your memory"),
    ("commitments", "your open promises by due time, to close or move"),
    ("reminders", "/reminders on|off, tz <zone>, hour <0-23>: reminders of your promises"),
    ("health", "the state of your memory (contradictions first)"),
    ("export", "your whole memory as files (JSON and markdown)"),
    ("forget_me", "erase everything Wave holds about you (asks first)"),
    ("debug", "what went into the last answer, layer by layer"),
    ("web", "a one-time link to your memory page"),
    ("help", "this list"),
]


def bot_commands() -> list[BotCommand]:
    return [BotCommand(command=name, description=text) for name, text in COMMANDS]


def help_html() -> str:
    lines = [f"/{name} — {escape(text)}" for name, text in COMMANDS]
    return (
        "Write to me as you would to a person: I answer, and I remember what matters "
        "(facts, decisions, preferences) in your own memory, which only you can see.\n\n"
        + "\n".join(lines)
    )


def router() -> Router:
    r = Router(name="start")

    @r.message(CommandStart())
    async def start(message: Message, bot: Bot, config: BotConfig) -> None:
        name = escape(message.from_user.first_name) if message.from_user else "there"
        await send_html(bot, message.chat.id, f"Hi, {name}! I'm <b>Wave</b>.\n\n" + help_html(),
                        config)

    @r.message(Command("help"))
    async def help_(message: Message, bot: Bot, config: BotConfig) -> None:
        await send_html(bot, message.chat.id, help_html(), config)

    @r.message(F.text.startswith("/"))
    async def unknown(message: Message, bot: Bot, config: BotConfig) -> None:
        command = escape((message.text or "").split()[0])
        await send_html(bot, message.chat.id,
                        f"I don't know the command <code>{command}</code>. Here is what I can do:\n\n"
                        + help_html(), config)

    @r.message()
    async def not_text(message: Message, bot: Bot, config: BotConfig) -> None:
        await send_html(bot, message.chat.id,
                        "I can only read text for now: please write it to me in words "
                        "(a caption on a photo works too).", config)

    return r
