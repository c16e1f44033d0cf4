"""`wave delete` and `wave forget-me` through the real console script: what went,
layer by layer, in text and JSON; forget-me asks first and erases nothing without a yes."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from tests.e2e.test_memory_cli import cli_env  # noqa: F401  (fixture)
from tests.support.cli import WAVE, ok_json, wave

pytestmark = [pytest.mark.neo4j, pytest.mark.slow]


def answered(env: dict[str, str], answer: str, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([WAVE, *args], env=env, capture_output=True, text=True, timeout=180,
                          input=answer, cwd=env["DATA_DIR"].rsplit("/", 1)[0])


def test_delete_says_what_went_and_forget_me_asks_first(cli_env: dict[str, str]) -> None:  # noqa: F811
    user = cli_env["DEFAULT_USER"]
    kept = ok_json(cli_env, "remember", "Я живу в Казани")
    gone = ok_json(cli_env, "remember", "Моя фамилия Вжжиковская")
    assert isinstance(kept, dict) and isinstance(gone, dict)

    done = wave(cli_env, "delete", gone["id"])
    assert done.returncode == 0, done.stderr
    assert f"Erased #{gone['id']}" in done.stdout
    assert "graph: 1 record" in done.stdout and "archive: 1 vector" in done.stdout
    assert "episodes: nothing held it" in done.stdout  # a CLI record has no day line

    again = wave(cli_env, "delete", gone["id"])
    assert again.returncode == 1 and "Traceback" not in again.stderr and "Next" in again.stderr

    refused = answered(cli_env, "n\n", "forget-me")
    assert refused.returncode == 1 and "Nothing was erased" in refused.stderr
    assert "1 records" in refused.stderr  # the confirmation names what would be lost
    facts = ok_json(cli_env, "facts")
    assert isinstance(facts, list) and [f["id"] for f in facts] == [kept["id"]]

    # log lines that name the person, as the chat's and the bot's logs write them (a block
    # update, a turn), in the current file and a rotated one
    logs = Path(cli_env["DATA_DIR"]) / "logs"
    logs.mkdir(exist_ok=True)
    for name in ("wave-chat.log", "wave.log.1"):
        with (logs / name).open("a", encoding="utf-8") as handle:
            handle.write(f"2026-12-02 06:50:22,082 INFO wave.blocks.markdown: block human of "
                         f"{user} is now version 1\n2026-12-02 06:50:23,000 INFO wave.x: kept\n")

    erased = ok_json(cli_env, "forget-me", "--yes")
    assert isinstance(erased, dict) and erased["kind"] == "person"
    assert "kept" in (logs / "wave-chat.log").read_text(encoding="utf-8")  # others' lines stay
    assert erased["removed"]["graph"]["nodes"] >= 1
    data = Path(cli_env["DATA_DIR"])
    assert not [p for p in data.rglob("*") if p.is_file() and user.encode() in p.read_bytes()]
    exported = wave(cli_env, "export", "--out", str(data.parent / "out"), "--json")
    counts = json.loads(exported.stdout)["counts"]
    assert all(n == 0 for n in counts.values()), counts
