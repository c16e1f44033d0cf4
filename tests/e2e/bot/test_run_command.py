"""``wave run`` as a person runs it: a real process, real aiogram, the local Bot API server."""

from __future__ import annotations

import asyncio
import os
import signal
import sys
from pathlib import Path

import pytest

from tests.support.telegram_server import TelegramTestServer
from wave_agent.services import Services
from wave_agent.settings import Settings

pytestmark = pytest.mark.neo4j

WAVE = str(Path(sys.executable).with_name("wave"))


def _env(**values: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.upper().startswith(("TELEGRAM_", "NEO4J_"))}
    env.update(HF_HUB_OFFLINE="1", TRANSFORMERS_OFFLINE="1", **values)
    return env


async def test_run_without_a_token_says_how_to_get_one(tmp_path: Path) -> None:
    process = await asyncio.create_subprocess_exec(
        WAVE, "run", cwd=tmp_path, env=_env(DATA_DIR=str(tmp_path / "data")),
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
    )
    _, err = await asyncio.wait_for(process.communicate(), 60)
    message = err.decode()
    assert process.returncode == 2
    assert "TELEGRAM_BOT_TOKEN" in message and "@BotFather" in message and "wave chat" in message
    assert "Traceback" not in message


async def test_run_answers_on_telegram_and_drains_on_sigterm(
    tmp_path: Path, neo4j_uri: str, owner: int, telegram: TelegramTestServer
) -> None:
    data = tmp_path / "data"
    process = await asyncio.create_subprocess_exec(
        WAVE, "run", cwd=tmp_path,
        env=_env(DATA_DIR=str(data), NEO4J_URI=neo4j_uri, TELEGRAM_BOT_TOKEN=telegram.token,
                 TELEGRAM_API_BASE=telegram.base_url, TELEGRAM_ALLOWED_USERS=str(owner)),
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
    )
    try:
        await telegram.wait_for_method("getUpdates", timeout=900)
        await telegram.send_text(owner, "Я люблю зелёный чай с жасмином.")
        [reply] = await telegram.wait_for_method("sendMessage", owner, timeout=300)
        process.send_signal(signal.SIGTERM)
        _, err = await asyncio.wait_for(process.communicate(), 600)
    finally:
        if process.returncode is None:
            process.kill()
            await process.wait()
    screen = err.decode()
    assert process.returncode == 0, screen[-2000:]
    assert reply.shown
    # what it did is in its log file; the terminal got none of those INFO lines
    log = (data / "logs" / "wave.log").read_text(encoding="utf-8")
    assert "draining the post-processor before exit" in log and "INFO" not in screen
    assert "maintenance scheduled" in log
    settings = Settings(_env_file=None, data_dir=data, neo4j_uri=neo4j_uri)  # type: ignore[call-arg]
    async with Services(settings) as services:
        facts = await (await services.graph()).list_facts(f"tg-{owner}")
        assert services.outbox().pending_count() == 0
    assert any("чай" in f.text for f in facts)
