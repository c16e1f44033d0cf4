"""When part of memory cannot be read, the bot's reply says so, in the person's language.

Each case makes a real store unavailable: the local archive held by a process that serves no
door (Qdrant local mode lets one process open it), Neo4j stopped mid-conversation (its own
embedded server, never the shared one), core blocks on a Letta server nobody runs. The bot is
real aiogram polling the local Bot API server; the model is offline mode. The reply names the
memory that is missing and that the answer may be incomplete, without store names or errors
(those stay in ``/debug`` and the log).
"""

from __future__ import annotations

import socket
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path

import pytest

from archive.embedder import Embedder
from tests.e2e.bot.harness import bot_settings, free_port, polling
from tests.support.telegram_server import TelegramTestServer
from wave_agent.bot.services_backend import ServicesBackend
from wave_agent.infra import localneo4j
from wave_agent.services import Services
from wave_agent.settings import Settings

pytestmark = [pytest.mark.neo4j, pytest.mark.slow]

INTERNALS = ("Neo4j", "Qdrant", "Letta", "archive", "semantic", "timed out", "Error", "bolt")


def _last_reply(telegram: TelegramTestServer, owner: int) -> str:
    replies = [c for c in telegram.calls_of("sendMessage")
               if int(c.params["chat_id"]) == owner and c.shown is not None]
    return str(replies[-1].shown)


async def _ask(telegram: TelegramTestServer, owner: int, text: str, expect: int) -> str:
    await telegram.send_text(owner, text)
    await telegram.wait_for(
        lambda c: c.method == "sendmessage" and int(c.params["chat_id"]) == owner
        and c.shown is not None, count=expect, timeout=240)
    return _last_reply(telegram, owner)


def _no_internals(reply: str) -> None:
    leaked = [word for word in INTERNALS if word.lower() in reply.lower()]
    assert not leaked, (leaked, reply)


@pytest.fixture
def held_archive(settings: Settings) -> Iterator[Path]:
    """Another program (not Wave: it serves no door) holds the local archive directory."""
    path = settings.qdrant_local_path
    path.mkdir(parents=True, exist_ok=True)
    code = textwrap.dedent(f"""
        import sys
        from qdrant_client import QdrantClient
        client = QdrantClient(path={str(path)!r})
        print("held", flush=True)
        sys.stdin.readline()
        client.close()
    """)
    holder = subprocess.Popen([sys.executable, "-c", code], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
        yield path
    finally:
        assert holder.stdin is not None
        holder.stdin.write("\n")
        holder.stdin.close()
        holder.wait(timeout=60)


async def test_archive_held_the_russian_reply_says_search_by_meaning_is_missing(
    held_archive: Path, settings: Settings, embedder: Embedder, owner: int,
    telegram: TelegramTestServer,
) -> None:
    configured = bot_settings(settings, telegram, owner)
    async with Services(configured) as services:
        services._cache["embedder"] = embedder
        backend = ServicesBackend(services)
        await backend.start()
        async with polling(configured, backend, telegram):
            reply = await _ask(telegram, owner, "Где живёт моя сестра Лена?", expect=1)
    assert "Часть моей памяти сейчас недоступна (поиск по смыслу)" in reply, reply
    assert "ответ может быть неполным" in reply
    _no_internals(reply)


@pytest.fixture
def own_neo4j(tmp_path: Path) -> Iterator[Settings]:
    """A private embedded Neo4j, stopped by the test (never the shared test server)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = int(sock.getsockname()[1])
    private = Settings(_env_file=None, data_dir=tmp_path / "neo",  # type: ignore[call-arg]
                       neo4j_port=port)
    localneo4j.up(private, wait_s=240)
    try:
        yield private
    finally:
        localneo4j.down(private)


async def test_neo4j_stopped_the_polish_reply_says_the_facts_are_missing(
    own_neo4j: Settings, settings: Settings, embedder: Embedder, owner: int,
    telegram: TelegramTestServer,
) -> None:
    # a fresh server plans its first queries slowly (seconds on a busy machine): a 2 s read
    # budget would truthfully report the facts missing before the stop, too
    configured = bot_settings(settings, telegram, owner,
                              neo4j_uri=own_neo4j.effective_neo4j_uri, store_timeout_s=15.0)
    async with Services(configured) as services:
        services._cache["embedder"] = embedder
        backend = ServicesBackend(services)
        await backend.start()
        async with polling(configured, backend, telegram):
            told = await _ask(telegram, owner, "Moja siostra Lena mieszka w Krakowie.", 1)
            asked = await _ask(telegram, owner, "Gdzie mieszka moja siostra Lena?", 2)
            localneo4j.down(own_neo4j)
            down = await _ask(telegram, owner, "Gdzie teraz mieszka moja siostra?", 3)
    for whole in (told, asked):  # every layer answered: no such sentence
        assert "niedostępna" not in whole, whole
    assert "Część mojej pamięci jest teraz niedostępna (zapisane fakty" in down, down
    assert "odpowiedź może być niepełna" in down
    _no_internals(down)


async def test_core_blocks_unreachable_the_english_reply_names_them(
    settings: Settings, embedder: Embedder, owner: int, telegram: TelegramTestServer,
) -> None:
    configured = bot_settings(settings, telegram, owner,
                              letta_base_url=f"http://127.0.0.1:{free_port()}")
    async with Services(configured) as services:
        services._cache["embedder"] = embedder
        backend = ServicesBackend(services)
        await backend.start()
        async with polling(configured, backend, telegram):
            reply = await _ask(telegram, owner, "Where does my sister Lena live now?", 1)
    assert ("Part of my memory is out of reach right now (what I keep about you and about "
            "myself)") in reply, reply
    assert "this answer may be incomplete" in reply
    _no_internals(reply)
