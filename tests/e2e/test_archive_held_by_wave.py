"""Qdrant local mode lets one process open the archive. While a real Wave process (`wave chat`,
as `wave run` would) holds it, every other door must get the whole memory: a write from the CLI
is indexed at once, and recall from the CLI and from an MCP client (started from another
working directory) finds a Russian record with the semantic voice, through the holder's door
(``archive.door``). When the holder goes, the next process takes the archive itself.
"""

from __future__ import annotations

import json
import subprocess
import time
from pathlib import Path

import pytest
from mcp import Client
from mcp.client.stdio import StdioServerParameters

from archive.local_mode import holder_pid
from tests.e2e.test_memory_cli import cli_env  # noqa: F401  (fixture)
from tests.support.cli import WAVE, wave

pytestmark = [pytest.mark.neo4j, pytest.mark.slow]

HOLD_DEADLINE_S = 300  # a loaded machine: the model load alone took 2.5 min at load 20


def _wait_until_held(lock: Path, holder: subprocess.Popen[str]) -> int:
    deadline = time.monotonic() + HOLD_DEADLINE_S
    while time.monotonic() < deadline:
        assert holder.poll() is None, holder.communicate()[1]
        pid = holder_pid(lock) if lock.exists() else None
        if pid is not None:
            return pid
        time.sleep(0.2)
    pytest.fail("`wave chat` did not open the archive in time")


def _recall(env: dict[str, str], query: str) -> list[dict[str, object]]:
    found = wave(env, "recall", query, "--json")
    assert found.returncode == 0 and "Traceback" not in found.stderr, found.stderr
    assert "without the semantic voice" not in found.stderr, found.stderr
    return list(json.loads(found.stdout))


async def _mcp_recall(env: dict[str, str], cwd: Path, query: str) -> dict[str, object]:
    params = StdioServerParameters(command=WAVE, args=["mcp"], env=env, cwd=str(cwd))
    async with Client(params, read_timeout_seconds=HOLD_DEADLINE_S) as client:
        result = await client.call_tool("recall", {"query": query, "k": 5})
        assert not result.is_error, result.content
        return dict(result.structured_content or json.loads(result.content[0].text))


async def test_every_door_recalls_with_every_voice_while_wave_chat_holds_the_archive(
    cli_env: dict[str, str], tmp_path: Path,  # noqa: F811
) -> None:
    lock = Path(cli_env["DATA_DIR"]) / "qdrant" / ".lock"
    holder = subprocess.Popen([WAVE, "chat"], env=cli_env, stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert _wait_until_held(lock, holder) == holder.pid

        written = wave(cli_env, "remember", "Моя черепаха Тортилла любит одуванчики", "--json")
        assert written.returncode == 0, written.stderr
        record = json.loads(written.stdout)
        assert record["status"] == "created"
        assert "pending" not in written.stderr and "Traceback" not in written.stderr

        hits = _recall(cli_env, "чем питается черепаха")
        assert hits and hits[0]["id"] == record["id"], hits
        assert hits[0]["ranks"]["semantic"] is not None, hits[0]  # type: ignore[index]

        elsewhere = tmp_path / "an-ide-project"
        elsewhere.mkdir()
        answer = await _mcp_recall(cli_env, elsewhere, "чем питается черепаха")
        assert answer["note"] is None, answer
        first = answer["records"][0]  # type: ignore[index]
        assert first["id"] == record["id"] and "semantic" in first["found_by"], answer
        assert holder_pid(lock) == holder.pid  # nobody took it from the holder
    finally:
        assert holder.stdin is not None
        holder.stdin.close()
        try:
            holder.wait(timeout=180)
        except subprocess.TimeoutExpired:
            holder.kill()
            raise
    assert holder.returncode == 0, holder.stderr.read() if holder.stderr else ""

    # the holder is gone: the next process opens the archive itself
    alone = _recall(cli_env, "чем питается черепаха")
    assert alone[0]["ranks"]["semantic"] is not None  # type: ignore[index]


async def test_a_process_killed_while_holding_the_archive_leaves_no_door_shut(
    cli_env: dict[str, str],  # noqa: F811
) -> None:
    lock = Path(cli_env["DATA_DIR"]) / "qdrant" / ".lock"
    holder = subprocess.Popen([WAVE, "chat"], env=cli_env, stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        _wait_until_held(lock, holder)
        written = wave(cli_env, "remember", "Мой пёс Бублик боится грозы", "--json")
        assert written.returncode == 0, written.stderr
    finally:
        holder.kill()  # its socket file stays behind; its lock goes with it
        holder.wait(timeout=60)
    hits = _recall(cli_env, "кто боится грозы")
    assert hits[0]["text"] == "Мой пёс Бублик боится грозы"
    assert hits[0]["ranks"]["semantic"] is not None  # type: ignore[index]
