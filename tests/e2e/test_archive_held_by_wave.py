"""Qdrant local mode lets one process open the archive. While a real Wave process
(`wave chat`, as `wave run` would) holds it, a second Wave process must work, or say in a line
why and what to do: here it works (the write lands in the graph, flagged for reindex; recall
answers without the semantic voice) and says which process holds the archive. Never a hang
(every call has a deadline), never a traceback.
"""

from __future__ import annotations

import json
import subprocess
import time
from pathlib import Path

import pytest

from archive.local_mode import holder_pid
from tests.e2e.test_memory_cli import WAVE, cli_env, wave  # noqa: F401  (fixture)

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


def test_a_second_wave_process_works_while_wave_chat_holds_the_archive(
    cli_env: dict[str, str],  # noqa: F811
) -> None:
    lock = Path(cli_env["DATA_DIR"]) / "qdrant" / ".lock"
    holder = subprocess.Popen([WAVE, "chat"], env=cli_env, stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert _wait_until_held(lock, holder) == holder.pid

        written = wave(cli_env, "remember", "Моя черепаха Тортилла любит одуванчики", "--json")
        assert written.returncode == 0, written.stderr
        assert json.loads(written.stdout)["status"] == "created"
        assert "Traceback" not in written.stderr
        said = [line for line in written.stderr.splitlines() if "archive update pending" in line]
        assert len(said) == 1, written.stderr
        assert f"pid {holder.pid}" in said[0] and "QDRANT_URL" in said[0]

        found = wave(cli_env, "recall", "черепаха Тортилла", "--json")
        assert found.returncode == 0, found.stderr
        assert "Тортилла" in found.stdout and "Traceback" not in found.stderr
    finally:
        assert holder.stdin is not None
        holder.stdin.close()
        try:
            holder.wait(timeout=180)
        except subprocess.TimeoutExpired:
            holder.kill()
            raise
    assert holder.returncode == 0, holder.stderr.read() if holder.stderr else ""
