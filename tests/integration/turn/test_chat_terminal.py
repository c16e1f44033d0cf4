"""``wave chat`` in a pipe: stdout carries only the conversation, logs go to a file under
DATA_DIR, and a line that is not UTF-8 is one line on stderr, not a crash."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow


def _env(data: Path, neo4j_uri: str, user_id: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("LLM_", "NEO4J_", "DATA_DIR"))}
    env.update(DATA_DIR=str(data), NEO4J_URI=neo4j_uri, DEFAULT_USER=user_id,
               HF_HUB_OFFLINE="1", TRANSFORMERS_OFFLINE="1", LOG_LEVEL="INFO")
    return env


def test_invalid_utf8_line_is_skipped_and_the_rest_is_answered_and_drained(
    tmp_path: Path, neo4j_uri: str, user_id: str
) -> None:
    """Regression: `printf 'hi\\n\\xff\\xfe\\nbye\\n' | wave chat` crashed with a
    traceback, dropped the lines after it and skipped the final drain."""
    data = tmp_path / "data"
    stdin = "Я Марина, живу в Самаре.\n".encode() + b"\xff\xfe\n" + "У меня кот Барсик.\n".encode()
    done = subprocess.run(
        [str(Path(sys.executable).parent / "wave"), "chat"], input=stdin, capture_output=True,
        env=_env(data, neo4j_uri, user_id), timeout=300, check=False,
        cwd=Path(__file__).resolve().parents[3],
    )
    out, err = done.stdout.decode(), done.stderr.decode()
    assert done.returncode == 0, err[-3000:]
    assert "Traceback" not in err
    assert "wave: line 2 could not be read (it is not UTF-8 text); skipped it" in err
    assert out.count("[офлайн") == 2, out  # both good lines answered
    assert "Запомню: Пользователя зовут Марина; Пользователь живёт в Самаре." in out
    assert "Запомню: У пользователя кот Барсик." in out
    # A clean terminal: the INFO records of the stores went to the log file, not the screen.
    assert " INFO " not in err and " INFO " not in out, err
    log_file = data / "logs" / "wave-chat.log"
    assert " INFO wave." in log_file.read_text(encoding="utf-8")
    with sqlite3.connect(data / "outbox.sqlite3") as db:  # the final drain ran
        assert db.execute("SELECT count(*) FROM jobs WHERE status = 'pending'").fetchone()[0] == 0
        assert db.execute("SELECT count(*) FROM jobs").fetchone()[0] == 2


def test_verbose_shows_the_log_records_on_stderr(
    tmp_path: Path, neo4j_uri: str, user_id: str
) -> None:
    done = subprocess.run(
        [str(Path(sys.executable).parent / "wave"), "chat", "--verbose"], input=b"/quit\n",
        capture_output=True, env=_env(tmp_path / "data", neo4j_uri, user_id), timeout=300,
        check=False, cwd=Path(__file__).resolve().parents[3],
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert b" INFO wave." in done.stderr
    assert done.stdout == b""
