"""Wave works in private chats only: a group gets one short note, and nothing of memory.

Regression: with the bot added to a group, the owner's ``/export`` posted the
whole memory into the group, replies could quote recalled memory there, and every stranger
got a refusal. Real aiogram long-polls the local Bot API server; the stores are real.
"""

from __future__ import annotations

import json
import secrets
import sqlite3
from collections.abc import AsyncIterator

import pytest

from tests.e2e.bot.harness import STRANGER, bot_settings, polling
from tests.support.telegram_server import BOT_USERNAME, TelegramTestServer
from wave_agent.bot.middlewares import PRIVATE_ONLY_TEXT
from wave_agent.bot.services_backend import ServicesBackend
from wave_agent.services import Services
from wave_agent.settings import Settings

pytestmark = pytest.mark.neo4j

NOTE = PRIVATE_ONLY_TEXT.format(username=BOT_USERNAME)


@pytest.fixture
async def backend(services: Services) -> AsyncIterator[ServicesBackend]:
    made = ServicesBackend(services)
    await made.start()
    yield made


def _jobs(settings: Settings) -> int:
    with sqlite3.connect(settings.outbox_path) as db:
        (jobs,) = db.execute("SELECT count(*) FROM jobs").fetchone()
    return int(jobs)


async def test_a_group_gets_one_note_and_nothing_of_the_owners_memory(
    owner: int, settings: Settings, backend: ServicesBackend, services: Services,
    telegram: TelegramTestServer,
) -> None:
    group_id = -(10**12 + secrets.randbelow(10**9))
    group = TelegramTestServer.group(group_id)
    config = bot_settings(settings, telegram, owner)
    async with polling(config, backend, telegram) as running:
        await (await services.writer()).remember(f"tg-{owner}", "Мою собаку зовут Жучка")
        await telegram.send_command(owner, "memory")
        [shown] = await telegram.wait_for(
            lambda c: c.method == "sendmessage" and "Жучка" in (c.shown or ""))
        assert int(shown.params["chat_id"]) == owner  # there is memory to leak
        facts_before = await (await services.graph()).list_facts(f"tg-{owner}")
        jobs_before = _jobs(settings)
        calls_before = len(telegram.calls)

        await telegram.send_command(owner, "export", chat=group)
        await telegram.send_command(owner, "memory", chat=group)
        await telegram.send_text(owner, "Как зовут мою собаку?", chat=group)
        await telegram.send_text(STRANGER, "Всем привет! Что это за бот?", chat=group)
        last = await telegram.send_command(STRANGER, "memory", chat=group)
        await running.settled(last)

        in_group = [c for c in telegram.calls[calls_before:] if c.method != "getupdates"]
        # a button pressed on a message in the group: a toast for the presser, nothing more
        calls_before = len(telegram.calls)
        pressed = await telegram.push_update({"callback_query": {
            "id": "cb-group", "from": TelegramTestServer.user(owner), "chat_instance": "ci-g",
            "data": "rv:a:p-1", "message": {"message_id": 5, "date": 1, "chat": group,
                                            "text": "…"}}})
        await running.settled(pressed)
        after_press = [c.method for c in telegram.calls[calls_before:]
                       if c.method != "getupdates"]

    assert [(c.method, int(c.params["chat_id"]), c.shown) for c in in_group] == [
        ("sendmessage", group_id, NOTE)]  # once for the whole group, whoever wrote
    assert not telegram.calls_of("sendDocument")
    assert not any(int(c.params.get("chat_id", 0) or 0) == STRANGER for c in telegram.calls)
    assert "Жучка" not in json.dumps([c.params for c in in_group], ensure_ascii=False)
    [toast] = [c for c in telegram.calls_of("answerCallbackQuery")
               if c.params["callback_query_id"] == "cb-group"]
    assert toast.params["text"] == NOTE[:200] and after_press == ["answercallbackquery"]
    # nothing said in the group was stored or queued for the post-processor
    assert await (await services.graph()).list_facts(f"tg-{owner}") == facts_before
    assert _jobs(settings) == jobs_before
    assert await (await services.graph()).list_facts(f"tg-{STRANGER}") == []


async def test_the_note_is_per_group_and_private_chats_go_on(
    owner: int, settings: Settings, backend: ServicesBackend, telegram: TelegramTestServer,
) -> None:
    first, second = (TelegramTestServer.group(-(10**12 + secrets.randbelow(10**9)), chat_type=t)
                     for t in ("group", "supergroup"))
    config = bot_settings(settings, telegram, owner)
    async with polling(config, backend, telegram) as running:
        await telegram.send_command(owner, "help", chat=first)
        await telegram.send_command(owner, "help", chat=second)
        await telegram.send_command(owner, "start", chat=first)
        last = await telegram.send_command(owner, "help")
        await running.settled(last)

    assert telegram.texts_to(first["id"]) == [NOTE]
    assert telegram.texts_to(second["id"]) == [NOTE]
    [private] = telegram.texts_to(owner)
    assert "/memory" in private and "private chats only" not in private
