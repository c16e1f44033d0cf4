"""/forget_me on Telegram: a confirmation that names what will be lost, then the button erases
the person from every layer and file; another person's memory stays.

Real aiogram long-polls the local Bot API server; Neo4j, Qdrant local mode and files are real.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from tests.e2e.bot.harness import bot_settings, new_telegram_id, polling
from tests.support.telegram_server import TelegramTestServer
from wave_agent.bot.services_backend import ServicesBackend
from wave_agent.services import Services
from wave_agent.settings import Settings

pytestmark = pytest.mark.neo4j


@pytest.fixture
async def backend(services: Services) -> AsyncIterator[ServicesBackend]:
    made = ServicesBackend(services)
    await made.start()
    yield made


def _holding(root: Path, needle: str) -> list[str]:
    raw = needle.encode("utf-8")
    return [str(p) for p in root.rglob("*") if p.is_file() and raw in p.read_bytes()]


def _their_files(data: Path, user_id: str) -> dict[str, bytes]:
    return {str(p.relative_to(data)): p.read_bytes() for layer in ("blocks", "episodes", "snapshots")
            for p in sorted((data / layer / user_id).rglob("*")) if p.is_file()}


def _button(telegram: TelegramTestServer, chat_id: int, data: str) -> int:
    for message_id, message in reversed(list(telegram.sent[chat_id].items())):
        for row in message.get("reply_markup", {}).get("inline_keyboard", []):
            if any(b["callback_data"] == data for b in row):
                return message_id
    raise AssertionError(f"no button {data!r} in chat {chat_id}")


async def test_forget_me_asks_first_then_the_button_erases_every_layer(
    owner: int, settings: Settings, backend: ServicesBackend, services: Services,
    telegram: TelegramTestServer,
) -> None:
    other = new_telegram_id()
    me, them = f"tg-{owner}", f"tg-{other}"
    config = bot_settings(settings, telegram, owner, telegram_allowed_users=[owner, other])
    async with polling(config, backend, telegram):
        await telegram.send_text(owner, "Меня зовут Анна Вжжиковская, я живу в Казани.")
        await telegram.wait_for_method("sendMessage", owner, timeout=120)
        await telegram.send_text(other, "Меня зовут Пётр Ухватов, я живу в Твери.")
        await telegram.wait_for_method("sendMessage", other, timeout=120)
        await backend.drain(120)
        theirs = _their_files(settings.data_dir, them)
        assert _holding(settings.data_dir, "Вжжиковская") and theirs

        # first: the question, naming what will be lost; "keep" erases nothing
        await telegram.send_command(owner, "forget_me")
        asked = (await telegram.wait_for_method("sendMessage", owner, count=2, timeout=120))[-1]
        message_id = _button(telegram, owner, "fm:no")
        await telegram.press_button(owner, owner, message_id, "fm:no")
        [kept] = await telegram.wait_for_method("editMessageText", timeout=120)
        assert _holding(settings.data_dir, "Вжжиковская")

        await telegram.send_command(owner, "forget_me")
        await telegram.wait_for_method("sendMessage", owner, count=3, timeout=120)
        message_id = _button(telegram, owner, "fm:yes")
        await telegram.press_button(owner, owner, message_id, "fm:yes")
        edits = await telegram.wait_for_method("editMessageText", count=2, timeout=180)

    shown = asked.shown or ""
    assert "Erase everything" in shown and "records" in shown and "cannot be undone" in shown
    assert "Nothing was erased" in (kept.shown or "")
    assert "your memory is erased" in (edits[-1].shown or "")
    for needle in (me, "Вжжиковская", "Казани"):
        assert _holding(settings.data_dir, needle) == [], needle
    assert await (await services.graph()).user_node_count(me) == 0
    assert _their_files(settings.data_dir, them) == theirs  # byte for byte
    # (SQLite pages move from -wal into the main file when compacted: compared as rows there)
    assert {p.split("/")[-1].removesuffix("-wal") for p in _holding(settings.data_dir, "Ухватов")
            } >= {"sessions.sqlite3", "outbox.sqlite3", "human.md"}
    assert await (await services.graph()).user_node_count(them) > 0
