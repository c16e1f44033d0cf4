"""The Telegram surface itself: help for unknown commands, limits, API errors, webhook mode.

Real aiogram against the local Bot API server; the backend is the real one over real stores.
"""

from __future__ import annotations

import asyncio
import logging
import socket

import aiohttp
import pytest

from tests.e2e.bot.harness import bot_settings, free_port, polling
from tests.support.telegram_server import TelegramTestServer
from wave_agent.bot.services_backend import ServicesBackend
from wave_agent.bot.webhook import run_webhook
from wave_agent.errors import ConfigError
from wave_agent.services import Services
from wave_agent.settings import Settings

pytestmark = pytest.mark.neo4j

SECRET = "wave-hook-secret-0123456789"


async def test_unknown_command_gets_help_not_silence(
    owner: int, settings: Settings, services: Services, telegram: TelegramTestServer
) -> None:
    config = bot_settings(settings, telegram, owner)
    async with polling(config, ServicesBackend(services), telegram):
        await telegram.send_command(owner, "frobnicate")
        [call] = await telegram.wait_for_method("sendMessage", owner)
    shown = call.shown or ""
    assert "/frobnicate" in shown and "/memory" in shown and "/export" in shown
    commands = telegram.calls_of("setMyCommands")
    assert commands and "proposals" in str(commands[0].params["commands"])


async def test_rate_limit_answers_kindly_once_and_drops_the_rest(
    owner: int, settings: Settings, services: Services, telegram: TelegramTestServer
) -> None:
    config = bot_settings(settings, telegram, owner, telegram_rate_per_minute=2)
    async with polling(config, ServicesBackend(services), telegram) as running:
        for _ in range(5):
            last = await telegram.send_command(owner, "help")
        await running.settled(last)  # all five handled: nothing more will come
    texts = telegram.texts_to(owner)
    assert len(texts) == 3  # two answers, one kind refusal, nothing for the last two
    assert sum("2 a minute" in t for t in texts) == 1


async def test_oversized_message_gets_a_kind_answer_naming_the_limit(
    owner: int, settings: Settings, services: Services, telegram: TelegramTestServer
) -> None:
    config = bot_settings(settings, telegram, owner, telegram_max_message_chars=200)
    async with polling(config, ServicesBackend(services), telegram):
        await telegram.send_text(owner, "очень длинно " * 40)
        [call] = await telegram.wait_for_method("sendMessage", owner)
    assert "I read up to 200" in (call.shown or "")
    graph = await services.graph()
    assert await graph.list_facts(f"tg-{owner}") == []


async def test_retry_after_from_telegram_is_waited_out_and_the_answer_arrives(
    owner: int, settings: Settings, services: Services, telegram: TelegramTestServer
) -> None:
    telegram.fail_next("sendMessage", status=429, retry_after=1)
    telegram.fail_next("sendMessage", status=502, description="Bad Gateway")
    config = bot_settings(settings, telegram, owner)
    async with polling(config, ServicesBackend(services), telegram):
        await telegram.send_command(owner, "help")
        await telegram.wait_for(lambda c: c.method == "sendmessage" and c.shown is not None)
    attempts = telegram.calls_of("sendMessage")
    assert len(attempts) == 3
    assert attempts[1].at - attempts[0].at >= 0.9  # Telegram's retry_after was honoured


async def test_webhook_mode_checks_the_secret_and_answers(
    owner: int, settings: Settings, services: Services, telegram: TelegramTestServer
) -> None:
    port = free_port()
    config = bot_settings(
        settings, telegram, owner, telegram_mode="webhook",
        telegram_webhook_url="https://wave.example/hook/abc",
        telegram_webhook_listen=f"127.0.0.1:{port}", telegram_webhook_secret=SECRET,
    )
    stop = asyncio.Event()
    server = asyncio.create_task(run_webhook(config, ServicesBackend(services), stop=stop))
    try:
        [registered] = await telegram.wait_for_method("setWebhook")
        assert registered.params["url"] == "https://wave.example/hook/abc"
        assert registered.params["secret_token"] == SECRET
        update = {"update_id": 1, "message": {
            "message_id": 1, "date": 1, "chat": {"id": owner, "type": "private"},
            "from": TelegramTestServer.user(owner), "text": "/help",
            "entities": [{"type": "bot_command", "offset": 0, "length": 5}]}}
        url = f"http://127.0.0.1:{port}/hook/abc"
        async with aiohttp.ClientSession() as http:
            async with http.post(url, json=update) as refused:
                assert refused.status == 401
            wrong = {"X-Telegram-Bot-Api-Secret-Token": SECRET[:-1] + "x"}
            async with http.post(url, json=update, headers=wrong) as refused:
                assert refused.status == 401
            headers = {"X-Telegram-Bot-Api-Secret-Token": SECRET}
            async with http.post(url, json=update, headers=headers) as accepted:
                assert accepted.status == 200
        [answer] = await telegram.wait_for_method("sendMessage", owner)
        assert "/memory" in (answer.shown or "")
    finally:
        stop.set()
        await server
    assert len(telegram.calls_of("sendMessage")) == 1  # the two refused posts did nothing


@pytest.mark.parametrize(("secret", "problem"), [
    (None, "not set"), ("short-secret", "only 12 characters")])
async def test_webhook_mode_refuses_to_start_without_a_strong_secret(
    owner: int, settings: Settings, services: Services, telegram: TelegramTestServer,
    secret: str | None, problem: str,
) -> None:
    port = free_port()
    config = bot_settings(
        settings, telegram, owner, telegram_mode="webhook",
        telegram_webhook_url="https://wave.example/hook/abc",
        telegram_webhook_listen=f"127.0.0.1:{port}", telegram_webhook_secret=secret,
    )
    with pytest.raises(ConfigError) as refused:
        await run_webhook(config, ServicesBackend(services), stop=asyncio.Event())
    assert str(refused.value).startswith(f"TELEGRAM_WEBHOOK_SECRET: {problem}: webhook mode")
    assert "\n" not in str(refused.value)
    assert telegram.calls == []  # nothing registered with Telegram
    with socket.socket() as probe:  # and nothing listens
        assert probe.connect_ex(("127.0.0.1", port)) != 0


async def test_blocked_by_the_user_is_logged_and_the_bot_goes_on(
    owner: int, settings: Settings, services: Services, telegram: TelegramTestServer,
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.INFO, logger="wave")
    telegram.fail_next("sendMessage", status=403)
    config = bot_settings(settings, telegram, owner)
    async with polling(config, ServicesBackend(services), telegram):
        await telegram.send_command(owner, "help")
        await telegram.wait_for_method("sendMessage", owner)
        await telegram.send_command(owner, "start")
        await telegram.wait_for(lambda c: c.method == "sendmessage" and c.shown is not None)
    assert "blocked the bot" in caplog.text
    assert len(telegram.calls_of("sendMessage")) == 2  # a 403 is not retried


async def test_empty_allow_list_refuses_everyone_with_their_id(
    owner: int, settings: Settings, services: Services, telegram: TelegramTestServer
) -> None:
    config = bot_settings(settings, telegram, owner, telegram_allowed_users=[])
    async with polling(config, ServicesBackend(services), telegram):
        await telegram.send_text(owner, "Привет")
        [refusal] = await telegram.wait_for_method("sendMessage", owner)
    assert str(owner) in (refusal.shown or "") and "TELEGRAM_ALLOWED_USERS" in (refusal.shown or "")


async def test_plain_mode_sends_text_without_markup(
    owner: int, settings: Settings, services: Services, telegram: TelegramTestServer
) -> None:
    config = bot_settings(settings, telegram, owner, telegram_parse_mode="plain")
    async with polling(config, ServicesBackend(services), telegram):
        await telegram.send_command(owner, "start")
        [call] = await telegram.wait_for_method("sendMessage", owner)
    assert "parse_mode" not in call.params
    assert call.params["text"].startswith("Hi, Тест! I'm Wave.")
    assert "<b>" not in call.params["text"] and "/reflect" in call.params["text"]
