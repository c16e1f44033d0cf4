"""What the person changes on the memory page reaches the bot's next reply at once.

``wave run`` hosts the bot, the memory page and the maintenance scheduler in one process over
one ``Services``; this is that composition: real aiogram long-polling the local Bot API server,
the page served by uvicorn over the same services, the real stores. The turn keeps the person's
notes cached between messages of a conversation; the offline model's reply lists the notes
that match the question, so a note still cached is a note the person sees.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import AsyncIterator

import httpx
import pytest

from tests.e2e.bot.harness import bot_settings, free_port, polling
from tests.support.telegram_server import TelegramTestServer
from wave_agent.bot.services_backend import ServicesBackend
from wave_agent.services import Services
from wave_agent.settings import Settings

pytestmark = pytest.mark.neo4j

CELLO = "Я играю на виолончели по средам"
QUESTION = "На каком инструменте я играю по средам?"


@pytest.fixture
async def backend(services: Services) -> AsyncIterator[ServicesBackend]:
    made = ServicesBackend(services)
    await made.start()
    yield made


@pytest.fixture
async def page(services: Services) -> AsyncIterator[str]:
    """The memory page over the bot's services, as ``wave run`` serves it; its base URL."""
    import uvicorn

    from wave_agent.web.app import build_app

    app, _ = build_app(services)
    port = free_port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port,
                                           log_level="warning", lifespan="off"))
    serving = asyncio.create_task(server.serve())
    try:
        while not server.started:  # wait for the listener, not for a time
            assert not serving.done(), serving.exception()
            await asyncio.sleep(0.05)
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        await serving


async def _ask(telegram: TelegramTestServer, owner: int, text: str) -> str:
    """The owner asks; the bot's reply as the person sees it."""
    before = len(telegram.texts_to(owner))
    await telegram.send_text(owner, text)
    await telegram.wait_for(
        lambda c: c.method == "sendmessage" and int(c.params["chat_id"]) == owner
        and c.shown is not None, count=before + 1)
    return telegram.texts_to(owner)[before]


async def _forget_on_the_page(services: Services, base: str, user_id: str, record_id: str) -> None:
    """Log in with a printed link, then press "forget" on the record's page (CSRF and all)."""
    from wave_agent.app.page_auth import load_secret, login_url

    link = login_url(base, load_secret(services.settings), user_id, once=False)
    async with httpx.AsyncClient(follow_redirects=True, timeout=60) as browser:
        records = await browser.get(link)
        assert records.status_code == 200, records.text[:300]
        found = re.search(r'"X-CSRF-Token"\s*:\s*"([^"]+)"', records.text.replace("&#34;", '"')
                          .replace("&quot;", '"'))
        assert found is not None, "no CSRF token on the page"
        done = await browser.post(f"{base}/records/{record_id}/forget",
                                  headers={"X-CSRF-Token": found.group(1)})
        assert done.status_code == 200 and "forgotten" in done.text, done.text[:300]


async def test_a_record_forgotten_on_the_page_leaves_the_bots_next_reply(
    owner: int, settings: Settings, services: Services, backend: ServicesBackend,
    telegram: TelegramTestServer, page: str,
) -> None:
    user_id = f"tg-{owner}"
    writer = await services.writer()
    cello = (await writer.remember(user_id, CELLO)).fact
    await writer.remember(user_id, "Я живу в Тбилиси")
    assert cello is not None

    async with polling(bot_settings(settings, telegram, owner), backend, telegram):
        first = await _ask(telegram, owner, QUESTION)
        assert "виолончели" in first, first  # the note is in the turn's cache and shown

        await _forget_on_the_page(services, page, user_id, cello.id)

        # the same conversation: without the change reaching the turn, its cached notes
        # would still hold the cello
        second = await _ask(telegram, owner, QUESTION)
        await backend.drain(60)

    assert "виолончели" not in second, second
    stored = await (await services.graph()).get_fact(user_id, cello.id)
    assert stored is not None and stored.status.value == "archived"  # forgotten, not erased
