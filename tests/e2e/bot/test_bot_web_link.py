"""/web in Telegram: a one-time link, valid for minutes, that opens the person's own memory
page; without WEB_PUBLIC_URL the bot says how to open the page instead."""

from __future__ import annotations

import asyncio
import re
import socket
from collections.abc import AsyncIterator

import httpx
import pytest

from tests.e2e.bot.harness import bot_settings, polling
from tests.support.telegram_server import TelegramTestServer
from wave_agent.bot.services_backend import ServicesBackend
from wave_agent.services import Services
from wave_agent.settings import Settings

pytestmark = pytest.mark.neo4j


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.fixture
async def backend(services: Services) -> AsyncIterator[ServicesBackend]:
    made = ServicesBackend(services)
    await made.start()
    yield made


async def test_web_sends_a_one_time_link_to_the_persons_own_page(
    owner: int, settings: Settings, services: Services, backend: ServicesBackend,
    telegram: TelegramTestServer,
) -> None:
    import uvicorn

    from wave_agent.web.app import build_app

    port = _free_port()
    base = f"http://127.0.0.1:{port}"
    configured = bot_settings(settings, telegram, owner, web_public_url=base)
    services.settings = configured  # the page and the bot share DATA_DIR, so one secret
    app, _ = build_app(services)
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port,
                                           log_level="warning", lifespan="off"))
    serving = asyncio.create_task(server.serve())
    try:
        while not server.started:
            assert not serving.done(), serving.exception()
            await asyncio.sleep(0.05)
        async with polling(configured, backend, telegram):
            await telegram.send_command(owner, "web")
            [reply] = await telegram.wait_for_method("sendMessage", owner, timeout=60)
        text = str(reply.params["text"])
        link = re.search(r'href="([^"]+)"', text)
        assert link is not None and "works once and for 10 minutes" in text, text
        url = link.group(1).replace("&amp;", "&")
        assert url.startswith(base + "/login?token=")
        async with httpx.AsyncClient(follow_redirects=True) as browser, httpx.AsyncClient() as other:
            first = await browser.get(url)  # follows to the records page, logged in
            assert first.status_code == 200 and f"memory of tg-{owner}" in first.text
            again = await other.get(url)
            assert again.status_code == 401  # one time only
    finally:
        server.should_exit = True
        await serving


async def test_web_without_a_public_url_says_how_to_open_the_page(
    owner: int, settings: Settings, backend: ServicesBackend, telegram: TelegramTestServer,
) -> None:
    async with polling(bot_settings(settings, telegram, owner), backend, telegram):
        await telegram.send_command(owner, "web")
        [reply] = await telegram.wait_for_method("sendMessage", owner, timeout=60)
    text = str(reply.params["text"])
    assert "wave web" in text and "WEB_PUBLIC_URL" in text
