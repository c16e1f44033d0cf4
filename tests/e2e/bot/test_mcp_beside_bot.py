"""The MCP server and ``wave run`` (the bot) at the same time on one person's memory, both
writing: nothing is lost and no lock error reaches either side.

Real processes: ``wave run`` against the local Bot API server, ``wave mcp`` over stdio with the
SDK's client, one Neo4j, one DATA_DIR. With Qdrant local mode (the default) one process holds
the archive: the other's writes land in the graph flagged for reindexing, which is not an error
for the client. With a Qdrant server (``WAVE_TEST_QDRANT_URL``, when the binary exists) both
share it and every record has its vector.
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import sys
from pathlib import Path
from typing import Any

import pytest
from mcp import Client
from mcp.client.stdio import StdioServerParameters

from tests.support.telegram_server import TelegramTestServer
from wave_agent.services import Services
from wave_agent.settings import Settings

pytestmark = [pytest.mark.neo4j, pytest.mark.slow]

WAVE = str(Path(sys.executable).with_name("wave"))
SAID_ON_TELEGRAM = (
    "Я люблю зелёный чай с жасмином.",
    "Мой брат Кирилл живёт в Екатеринбурге.",
    "Я работаю архитектором в бюро на Садовой.",
)
TOLD_TO_AN_AGENT = (
    "Пароль от домашнего Wi-Fi записан на холодильнике",
    "Любимая книга — «Мастер и Маргарита»",
    "Кот Барсик боится пылесоса",
    "Бабушка живёт в Твери на улице Горького",
)


def _env(**values: str) -> dict[str, str]:
    wave_vars = {n.upper() for n in Settings.model_fields}
    env = {k: v for k, v in os.environ.items() if k.upper() not in wave_vars}
    env.update(HF_HUB_OFFLINE="1", TRANSFORMERS_OFFLINE="1", LOG_LEVEL="WARNING", **values)
    return env


async def test_mcp_and_the_bot_write_the_same_memory_at_once(
    tmp_path: Path, neo4j_uri: str, owner: int, telegram: TelegramTestServer
) -> None:
    data = tmp_path / "data"
    person = f"tg-{owner}"
    shared = {"DATA_DIR": str(data), "NEO4J_URI": neo4j_uri}
    qdrant_url = os.environ.get("WAVE_TEST_QDRANT_URL")
    if qdrant_url:
        shared["QDRANT_URL"] = qdrant_url
    bot = await asyncio.create_subprocess_exec(
        WAVE, "run", cwd=tmp_path,
        env=_env(TELEGRAM_BOT_TOKEN=telegram.token, TELEGRAM_API_BASE=telegram.base_url,
                 TELEGRAM_ALLOWED_USERS=str(owner), **shared),
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
    )
    answers: list[dict[str, Any]] = []
    try:
        await telegram.wait_for_method("getUpdates", timeout=240)
        params = StdioServerParameters(command=WAVE, args=["mcp", "--user", person],
                                       env=_env(**shared), cwd=str(tmp_path))
        async with Client(params, read_timeout_seconds=300) as client:

            async def agent() -> None:
                for text in TOLD_TO_AN_AGENT:
                    result = await client.call_tool("remember", {"text": text})
                    assert not result.is_error, result.content
                    answers.append(dict(result.structured_content
                                        or json.loads(result.content[0].text)))

            async def person_on_telegram() -> None:
                for n, text in enumerate(SAID_ON_TELEGRAM, 1):
                    await telegram.send_text(owner, text)
                    replies = await telegram.wait_for_method("sendMessage", owner, count=n,
                                                             timeout=240)
                    assert len(replies) >= n

            await asyncio.gather(agent(), person_on_telegram())
        bot.send_signal(signal.SIGTERM)  # drains the post-processor before it exits
        _, err = await asyncio.wait_for(bot.communicate(), 240)
    finally:
        if bot.returncode is None:
            bot.kill()
            await bot.wait()
    log = err.decode()
    assert bot.returncode == 0, log[-3000:]
    for side in (log, json.dumps(answers, ensure_ascii=False)):
        assert "Traceback" not in side and "ArchiveLocked" not in side
    assert [a["status"] for a in answers] == ["created"] * len(TOLD_TO_AN_AGENT)

    settings = Settings(_env_file=None, **{"data_dir": data, "neo4j_uri": neo4j_uri,  # type: ignore[arg-type]
                                           **({"qdrant_url": qdrant_url} if qdrant_url else {})})
    async with Services(settings) as services:
        facts = await (await services.graph()).list_facts(person)
        assert services.outbox().pending_count() == 0
        archive = await services.archive()
        indexed = await archive.fact_ids(person)
    texts = {f.text for f in facts}
    for text in TOLD_TO_AN_AGENT:  # every agent write is in the graph...
        assert text in texts
    for needle in ("чай", "Кирилл", "архитектор"):  # ...and every Telegram statement
        assert any(needle in t for t in texts), texts
    # nothing lost from the archive either: each record has its vector, or is flagged for
    # `wave reindex` because another process held the local archive when it was written
    for fact in facts:
        assert fact.id in indexed or fact.needs_index, fact
    if qdrant_url:
        assert {f.id for f in facts} <= indexed
    assert len({f.id for f in facts}) == len(facts)
