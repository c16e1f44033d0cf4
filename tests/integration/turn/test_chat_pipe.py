"""``wave chat`` in a pipe: one subprocess answers every line and drains the outbox."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
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
        input="\n".join(lines) + "\n", capture_output=True, text=True, env=env, timeout=300,
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
    proc = subprocess.Popen([wave, "chat"], stdin=subprocess.PIPE, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL, text=True, env=env)
    try:
        assert proc.stdin is not None
        proc.stdin.write("\n".join(lines) + "\n")
        proc.stdin.flush()
        outbox = data / "outbox.sqlite3"
        deadline = time.monotonic() + 240
        while time.monotonic() < deadline:
            if outbox.exists():
                with sqlite3.connect(outbox) as db:
                    if db.execute("SELECT count(*) FROM jobs").fetchone()[0] == 3:
                        break
            time.sleep(0.05)
        else:
            raise AssertionError("wave chat did not answer three messages in time")
    finally:
        proc.kill()  # SIGKILL: no drain, no clean close
        proc.wait(timeout=30)

    again = subprocess.run([wave, "chat"], input="", capture_output=True, text=True, env=env,
                           timeout=300, check=False)
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
