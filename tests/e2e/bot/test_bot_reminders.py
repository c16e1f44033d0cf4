"""A promise comes back on Telegram on time, once: real aiogram long-polls the local Bot API
server, the reminder scheduler runs inside the bot, the stores are real, and Wave's clock is
moved with ``WAVE_NOW`` (Wednesday, then Friday 10:00, then Saturday 10:00)."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Callable

import pytest

from archive.embedder import Embedder
from tests.e2e.bot.harness import bot_settings, polling
from tests.support.telegram_server import Call, TelegramTestServer
from wave_agent.bot.app import build_bot
from wave_agent.bot.reminders import tick
from wave_agent.bot.services_backend import ServicesBackend
from wave_agent.services import Services
from wave_agent.settings import Settings

pytestmark = pytest.mark.neo4j


@pytest.fixture
def moscow(settings: Settings) -> Settings:
    return settings.model_copy(update={"timezone": "Europe/Moscow", "reminder_interval_s": 0.5})


@pytest.fixture
async def services(moscow: Settings, embedder: Embedder) -> AsyncIterator[Services]:
    async with Services(moscow, embedder=embedder) as opened:
        yield opened


def reminders_to(telegram: TelegramTestServer, owner: int) -> list[str]:
    return [t for t in telegram.texts_to(owner) if t.startswith("⏰ Напоминание")]


def a_reminder(owner: int, day: str) -> Callable[[Call], bool]:
    def match(call: Call) -> bool:
        return (call.method == "sendmessage" and int(call.params.get("chat_id", 0)) == owner
                and "Напоминание" in str(call.params.get("text")) and day in str(
                    call.params.get("text")))
    return match


def button(telegram: TelegramTestServer, owner: int, prefix: str) -> tuple[int, str]:
    for message_id, message in reversed(list(telegram.sent[owner].items())):
        for row in message.get("reply_markup", {}).get("inline_keyboard", []):
            for b in row:
                if b["callback_data"].startswith(prefix):
                    return message_id, b["callback_data"]
    raise AssertionError(f"no button {prefix!r}")


async def test_a_promise_on_wednesday_is_reminded_on_friday_moved_to_saturday_and_sent_once(
    owner: int, moscow: Settings, services: Services, embedder: Embedder,
    telegram: TelegramTestServer, monkeypatch: pytest.MonkeyPatch,
) -> None:
    config = bot_settings(moscow, telegram, owner)
    backend = ServicesBackend(services)
    await backend.start()
    monkeypatch.setenv("WAVE_NOW", "2026-12-02T14:30+03:00")  # Wednesday
    async with polling(config, backend, telegram) as running:
        zone = await telegram.send_command(owner, "reminders", "tz Europe/Moscow")
        await running.settled(zone)
        assert (await services.commitments()).default_timezone == "Europe/Moscow"
        assert (await (await services.commitments()).prefs(f"tg-{owner}")).timezone == \
            "Europe/Moscow"
        wrong = await telegram.send_command(owner, "reminders", "tz Mars/Olympus")
        await running.settled(wrong)
        assert "Europe/Moscow" in telegram.texts_to(owner)[-1]  # the refusal names the fix
        said = await telegram.send_text(owner, "обещала маме позвонить в пятницу")
        await running.settled(said)
        await backend.drain(120)
        [promise] = await backend.commitments(f"tg-{owner}")
        assert reminders_to(telegram, owner) == []  # nothing due on Wednesday

        monkeypatch.setenv("WAVE_NOW", "2026-12-04T10:00+03:00")  # Friday 10:00
        [friday] = await telegram.wait_for(a_reminder(owner, "4 декабря"))
        assert "позвонить" in friday.params["text"]
        assert "опозданием" not in friday.params["text"]
        message_id, tomorrow = button(telegram, owner, f"cm:tomorrow:{promise.id}")
        await telegram.press_button(owner, owner, message_id, tomorrow)
        [edited] = await telegram.wait_for_method("editMessageText", owner)
        assert "Перенёс" in edited.params["text"] and "5 декабря" in edited.params["text"]
        assert "reply_markup" not in edited.params or not json.loads(
            edited.params.get("reply_markup") or "{}").get("inline_keyboard")

    # a restart: new services over the same data and graph; Friday still, nothing is sent again
    async with Services(moscow, embedder=embedder) as again:
        restarted = ServicesBackend(again)
        await restarted.start()
        bot = build_bot(config)
        try:
            monkeypatch.setenv("WAVE_NOW", "2026-12-04T10:05+03:00")
            assert (await tick(bot, restarted)).sent == 0
            assert len(reminders_to(telegram, owner)) == 1
            async with polling(config, restarted, telegram):
                monkeypatch.setenv("WAVE_NOW", "2026-12-05T10:00+03:00")  # Saturday 10:00
                await telegram.wait_for(a_reminder(owner, "5 декабря"))
            assert (await tick(bot, restarted)).sent == 0
            assert (await tick(bot, restarted)).sent == 0
        finally:
            await bot.session.close()
    saturday = [t for t in reminders_to(telegram, owner) if "5 декабря" in t]
    assert len(saturday) == 1
    assert len(reminders_to(telegram, owner)) == 2
