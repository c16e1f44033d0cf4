"""``wave commitments`` through the real console script: add a promise, see it by due time,
move it, close it. Real Neo4j and Qdrant local; Wave's clock fixed with ``WAVE_NOW``."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import uuid
from pathlib import Path

import pytest

from wave_agent.settings import Settings

pytestmark = [pytest.mark.neo4j, pytest.mark.slow]

WAVE = str(Path(sys.executable).with_name("wave"))


@pytest.fixture
def cli_env(tmp_path: Path, neo4j_uri: str) -> dict[str, str]:
    names = {n.upper() for n in Settings.model_fields}
    env = {k: v for k, v in os.environ.items() if k.upper() not in names}
    env.update(
        DATA_DIR=str(tmp_path / "data"), NEO4J_URI=neo4j_uri, HF_HUB_OFFLINE="1",
        TRANSFORMERS_OFFLINE="1", DEFAULT_USER=f"cli-{uuid.uuid4().hex[:8]}", LOG_LEVEL="WARNING",
        TIMEZONE="Europe/Moscow", WAVE_NOW="2026-12-02T14:30+03:00",
    )
    return env


def wave(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([WAVE, *args], env=env, capture_output=True, text=True, timeout=900,
                          cwd=env["DATA_DIR"].rsplit("/", 1)[0])


def ok_json(env: dict[str, str], *args: str) -> object:
    done = wave(env, *args, "--json")
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_a_promise_is_added_listed_by_due_time_moved_and_closed(cli_env: dict[str, str]) -> None:
    later = ok_json(cli_env, "commitments", "add", "до 15-го оплатить садик")
    sooner = ok_json(cli_env, "commitments", "add", "обещала маме позвонить в пятницу")
    assert isinstance(later, dict) and isinstance(sooner, dict)
    assert sooner["due_at"].startswith("2026-12-04T07:00")  # Friday 10:00 in Moscow
    listed = ok_json(cli_env, "commitments")
    assert isinstance(listed, list)
    assert [c["id"] for c in listed] == [sooner["id"], later["id"]]

    moved = ok_json(cli_env, "commitments", "move", sooner["id"], "в субботу в 12")
    assert isinstance(moved, dict) and moved["due_at"].startswith("2026-12-05T09:00")
    done = ok_json(cli_env, "commitments", "done", later["id"])
    assert isinstance(done, dict) and done["state"] == "done"
    assert [c["id"] for c in ok_json(cli_env, "commitments")] == [sooner["id"]]  # type: ignore[union-attr]

    unclear = wave(cli_env, "commitments", "move", sooner["id"], "когда-нибудь")
    assert unclear.returncode == 1
    assert "Next:" in unclear.stderr and "Traceback" not in unclear.stderr
