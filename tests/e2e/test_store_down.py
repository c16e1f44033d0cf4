"""Neo4j down: every surface says so in one line with the step that brings it back.

The graph layer's ``GraphUnavailable`` is a ``WaveError`` (``common.errors``), so the CLI, the
memory page and the MCP server show its message and its next step (``wave services up``)
instead of a traceback or a bare "internal error". The bot's side is in
``tests/e2e/bot/test_bot_errors.py``. Nothing listens on the Neo4j port these tests use.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from pathlib import Path

import httpx
from mcp import Client

from wave_agent.settings import Settings

WAVE = str(Path(sys.executable).with_name("wave"))
NEXT_STEP = "`wave services up`, or check NEO4J_URI"


def _dead_neo4j() -> str:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return f"bolt://127.0.0.1:{sock.getsockname()[1]}"


def _env(data: Path) -> dict[str, str]:
    wave_vars = {n.upper() for n in Settings.model_fields}
    env = {k: v for k, v in os.environ.items() if k.upper() not in wave_vars}
    env.update(DATA_DIR=str(data), NEO4J_URI=_dead_neo4j(), HF_HUB_OFFLINE="1",
               DEFAULT_USER="down-test", LOG_LEVEL="WARNING")
    return env


def test_the_cli_prints_the_next_step(tmp_path: Path) -> None:
    done = subprocess.run([WAVE, "facts"], env=_env(tmp_path / "data"), capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 1, done.stderr
    assert "Neo4j at bolt://127.0.0.1:" in done.stderr and f"Next: {NEXT_STEP}" in done.stderr
    assert "Traceback" not in done.stderr


async def test_the_memory_page_shows_the_next_step(tmp_path: Path) -> None:
    from wave_agent.app import page_auth as auth
    from wave_agent.services import Services
    from wave_agent.web.app import build_app

    settings = Settings(_env_file=None, data_dir=tmp_path / "data",  # type: ignore[call-arg]
                        neo4j_uri=_dead_neo4j())
    async with Services(settings) as services:
        app, web = build_app(services)
        cookies = {auth.SESSION_COOKIE: auth.session_cookie(web.secret, "down-test")}
        async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app),
                                     base_url="http://page", cookies=cookies) as client:
            page = await client.get("/records")
    assert page.status_code == 503
    assert "Memory could not be read" in page.text and "wave services up" in page.text


async def test_an_mcp_tool_call_returns_the_next_step(tmp_path: Path) -> None:
    from wave_agent.mcp.server import Identity, build_server
    from wave_agent.services import Services

    settings = Settings(_env_file=None, data_dir=tmp_path / "data",  # type: ignore[call-arg]
                        neo4j_uri=_dead_neo4j())
    async with Services(settings) as services, \
            Client(build_server(services, Identity(user_id="down-test"))) as client:
        result = await client.call_tool("facts", {})
    assert result.is_error
    text = str(result.content[0].text)  # type: ignore[union-attr]
    assert "Neo4j at bolt://127.0.0.1:" in text and NEXT_STEP in text, text
