"""One memory behind every door, at once, from any directory.

``wave run`` serves the bot (against the local Bot API server) with the memory page beside it.
While it runs, from another working directory: a second MCP client (the MCP Inspector's CLI from
npm, not the SDK) starts ``wave mcp`` and recalls, and ``wave recall`` runs; each finds the
person's Russian record with every voice (lexical, semantic, temporal, graph), though the bot's
process holds the local archive, and the bot keeps answering.
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import socket
import subprocess
import sys
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.support.telegram_server import TelegramTestServer
from wave_agent.settings import Settings

pytestmark = [pytest.mark.neo4j, pytest.mark.slow]

WAVE = str(Path(sys.executable).with_name("wave"))
INSPECTOR = (Path(__file__).resolve().parents[2] / "support" / "mcp-inspector" / "node_modules"
             / ".bin" / "mcp-inspector")
VOICES = {"lexical", "semantic", "temporal", "graph"}
TOLD = "Моя сестра Лена живёт в Казани"
ASKED = "где живёт сестра"


def _env(**values: str) -> dict[str, str]:
    wave_vars = {n.upper() for n in Settings.model_fields}
    env = {k: v for k, v in os.environ.items() if k.upper() not in wave_vars}
    env.update(HF_HUB_OFFLINE="1", TRANSFORMERS_OFFLINE="1", LOG_LEVEL="WARNING", **values)
    return env


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _voices(ranks: dict[str, Any]) -> set[str]:
    return {voice for voice, rank in ranks.items() if rank is not None}


def _inspector_recall(shared: dict[str, str], person: str, cwd: Path) -> dict[str, Any]:
    """The Inspector's CLI starts `wave mcp` itself (it passes only the variables given with
    -e, as desktop clients do) and calls `recall`."""
    passed = [arg for name in (*shared, "PYTHONPATH", "XDG_DATA_HOME", "HF_HUB_OFFLINE")
              if (value := _env(**shared).get(name)) for arg in ("-e", f"{name}={value}")]
    done = subprocess.run(
        [str(INSPECTOR), "--cli", *passed, WAVE, "mcp", "--user", person,
         "--method", "tools/call", "--tool-name", "recall", "--tool-arg", f"query={ASKED}"],
        cwd=cwd, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    answer = json.loads(done.stdout)
    assert not answer.get("isError"), answer
    return dict(answer["structuredContent"])


async def test_the_inspector_and_the_cli_recall_with_every_voice_while_wave_run_answers(
    tmp_path: Path, neo4j_uri: str, owner: int, telegram: TelegramTestServer
) -> None:
    if not INSPECTOR.exists():
        pytest.skip("the MCP Inspector is not installed: run `npm ci --prefix "
                    "tests/support/mcp-inspector` (scripts/test.sh does)")
    person = f"tg-{owner}"
    # each voice gets 30 s (not 2): this test is about which voices answer, on a busy machine
    shared = {"DATA_DIR": str(tmp_path / "data"), "NEO4J_URI": neo4j_uri, "STORE_TIMEOUT_S": "30"}
    web_port = _free_port()
    bot = await asyncio.create_subprocess_exec(
        WAVE, "run", cwd=tmp_path,
        env=_env(TELEGRAM_BOT_TOKEN=telegram.token, TELEGRAM_API_BASE=telegram.base_url,
                 TELEGRAM_ALLOWED_USERS=str(owner), WEB_ENABLED="1", WEB_PORT=str(web_port),
                 **shared),
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
    try:
        await telegram.wait_for_method("getUpdates", timeout=300)
        await telegram.send_text(owner, f"{TOLD}.")
        await telegram.wait_for_method("sendMessage", owner, count=1, timeout=300)
        # the bot's process now holds the archive; a write from the CLI goes through its door
        written = await asyncio.to_thread(subprocess.run, [WAVE, "remember", TOLD, "--json",
                                                           "--user", person],
                                          env=_env(**shared), cwd=tmp_path, capture_output=True,
                                          text=True, timeout=600)
        assert written.returncode == 0, written.stderr
        assert "pending" not in written.stderr

        elsewhere = tmp_path / "an-ide-project"
        elsewhere.mkdir()
        answer = await asyncio.to_thread(_inspector_recall, shared, person, elsewhere)
        assert answer["note"] is None, answer
        first = answer["records"][0]
        assert "Казан" in first["text"] and _voices(first["ranks"]) >= VOICES, answer

        cli = await asyncio.to_thread(subprocess.run, [WAVE, "recall", ASKED, "--json",
                                                       "--user", person],
                                      env=_env(**shared), cwd=elsewhere, capture_output=True,
                                      text=True, timeout=600)
        assert cli.returncode == 0 and "without" not in cli.stderr, cli.stderr
        top = json.loads(cli.stdout)[0]
        assert "Казан" in top["text"] and _voices(top["ranks"]) >= VOICES, top

        # the bot kept answering, and the page is up beside it
        await telegram.send_text(owner, "А ещё у меня есть кот Барсик.")
        await telegram.wait_for_method("sendMessage", owner, count=2, timeout=300)
        async with httpx.AsyncClient() as page:
            front = await page.get(f"http://127.0.0.1:{web_port}/", timeout=30)
        assert front.status_code in (200, 401), front.status_code
        bot.send_signal(signal.SIGTERM)
        _, err = await asyncio.wait_for(bot.communicate(), 240)
    finally:
        if bot.returncode is None:
            bot.kill()
            await bot.wait()
    assert bot.returncode == 0, err.decode()[-3000:]
    assert "Traceback" not in err.decode()
