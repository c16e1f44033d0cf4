"""``wave chat`` in a pipe: one subprocess answers every line and drains the outbox."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from contextlib import closing
from pathlib import Path

import pytest

from graph.store import GraphStore

pytestmark = pytest.mark.slow


async def test_wave_chat_in_a_pipe_answers_each_line_and_drains(
    tmp_path: Path, neo4j_uri: str, user_id: str
) -> None:
    data = tmp_path / "data"
    env = {k: v for k, v in os.environ.items() if not k.startswith(("LLM_", "NEO4J_", "DATA_DIR"))}
    env.update(DATA_DIR=str(data), NEO4J_URI=neo4j_uri, DEFAULT_USER=user_id,
               HF_HUB_OFFLINE="1", TRANSFORMERS_OFFLINE="1", LOG_LEVEL="WARNING")
    lines = [
        "Меня зовут Влад. Я живу в Берлине.",
        "спасибо",
        "/debug",
        "I love green tea in the mornings.",
    ]
    done = subprocess.run(
        [str(Path(sys.executable).parent / "wave"), "chat", "--debug"],
        input="\n".join(lines) + "\n", capture_output=True, text=True, env=env, timeout=900,
        check=False, cwd=Path(__file__).resolve().parents[3],
    )
    assert done.returncode == 0, done.stderr[-3000:]
    out = done.stdout
    assert out.count("[офлайн") == 2 and out.count("[offline") == 1, out
    assert "auto-recall: not searched; fewer than two real words" in out  # /debug after спасибо
    assert "budget 18,000 chars" in done.stderr  # --debug after each turn
    with sqlite3.connect(data / "outbox.sqlite3") as db:
        assert db.execute("SELECT count(*) FROM jobs WHERE status = 'pending'").fetchone()[0] == 0
        assert db.execute("SELECT count(*) FROM jobs").fetchone()[0] == 3
    graph = await GraphStore.connect(neo4j_uri, "neo4j", "x")
    try:
        texts = sorted(f.text for f in await graph.list_facts(user_id))
    finally:
        await graph.close()
    assert texts == ["The user loves green tea in the mornings", "Пользователь живёт в Берлине",
                     "Пользователя зовут Влад"]


def _jobs(outbox: Path) -> int | None:
    """Jobs in the outbox, or None while the file or its schema is still being made.

    Read-only, and the schema is looked up first: the writer creates the file before its
    tables, so a plain count can meet "no such table: jobs".
    """
    if not outbox.exists():
        return None
    try:
        with closing(sqlite3.connect(f"file:{outbox}?mode=ro", uri=True, timeout=30)) as db:
            if db.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'jobs'"
                          ).fetchone() is None:
                return None
            return int(db.execute("SELECT count(*) FROM jobs").fetchone()[0])
    except sqlite3.OperationalError as exc:
        if "locked" in str(exc) or "busy" in str(exc):
            return None  # the writer holds it right now; look again
        raise


def test_polling_the_outbox_waits_for_its_schema(tmp_path: Path) -> None:
    """The moment that made the test below flaky: the file exists, its tables not yet."""
    from wave_agent.infra.outbox import Outbox

    outbox = tmp_path / "outbox.sqlite3"
    assert _jobs(outbox) is None
    with closing(sqlite3.connect(outbox)) as half_made:
        half_made.execute("PRAGMA journal_mode=WAL")  # what Outbox does before its schema
        assert _jobs(outbox) is None
    made = Outbox(outbox)
    try:
        assert _jobs(outbox) == 0
    finally:
        made.close()


async def test_killed_mid_way_then_restarted_every_fact_arrives_once(
    tmp_path: Path, neo4j_uri: str, user_id: str
) -> None:
    """SIGKILL while the post-processor works; the next `wave chat` (empty stdin) drains."""
    import time

    data = tmp_path / "data"
    env = {k: v for k, v in os.environ.items() if not k.startswith(("LLM_", "NEO4J_", "DATA_DIR"))}
    env.update(DATA_DIR=str(data), NEO4J_URI=neo4j_uri, DEFAULT_USER=user_id,
               HF_HUB_OFFLINE="1", TRANSFORMERS_OFFLINE="1", LOG_LEVEL="WARNING")
    wave = str(Path(sys.executable).parent / "wave")
    lines = ["My name is Olga. I live in Riga.", "I work at Spotify.",
             "Запомни, что у брата день рождения 3 мая"]
    stderr = tmp_path / "first-chat.stderr"
    proc = subprocess.Popen([wave, "chat"], stdin=subprocess.PIPE, stdout=subprocess.DEVNULL,
                            stderr=stderr.open("w"), text=True, env=env)
    try:
        assert proc.stdin is not None
        proc.stdin.write("\n".join(lines) + "\n")
        proc.stdin.flush()
        outbox = data / "outbox.sqlite3"
        deadline = time.monotonic() + 900  # a guard only: a loaded machine is slow, not wrong
        while _jobs(outbox) != 3:
            assert proc.poll() is None, f"wave chat exited early: {stderr.read_text()[-3000:]}"
            assert time.monotonic() < deadline, "wave chat did not answer three messages"
            time.sleep(0.05)
    finally:
        proc.kill()  # SIGKILL: no drain, no clean close
        proc.wait(timeout=30)

    again = subprocess.run([wave, "chat"], input="", capture_output=True, text=True, env=env,
                           timeout=900, check=False)
    assert again.returncode == 0, again.stderr[-3000:]
    with sqlite3.connect(data / "outbox.sqlite3") as db:
        assert db.execute("SELECT count(*) FROM jobs WHERE status = 'pending'").fetchone()[0] == 0
    graph = await GraphStore.connect(neo4j_uri, "neo4j", "x")
    try:
        facts = await graph.list_facts(user_id)
    finally:
        await graph.close()
    assert sorted(f.text for f in facts) == sorted([
        "The user's name is Olga", "The user lives in Riga", "The user works at Spotify",
        "У брата день рождения 3 мая"])
    assert all(f.mention_count == 1 for f in facts)
