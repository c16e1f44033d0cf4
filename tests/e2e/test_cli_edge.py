"""What a person sees when the command line itself is wrong, through the real ``wave`` script.

Usage errors (typer raises its own bundled click's exceptions), empty or unreadable user ids
and text that is not UTF-8 each get one line on stderr naming the next step, never a
traceback, and are refused before any store is opened (no data directory appears). The
last test shows the other side of user ids: spellings of one name reach one memory, and ids
that differ get export files that differ.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import unicodedata
import uuid
from pathlib import Path

import pytest

from wave_agent.settings import Settings

WAVE = str(Path(sys.executable).with_name("wave"))
NOT_UTF8 = b"\xff\xfe"


@pytest.fixture
def cli_env(tmp_path: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k.upper() not in {n.upper() for n in Settings.model_fields}}
    env.update(DATA_DIR=str(tmp_path / "data"), HF_HUB_OFFLINE="1", TRANSFORMERS_OFFLINE="1",
               LOG_LEVEL="WARNING", NEO4J_URI="bolt://127.0.0.1:9", LANG="C.UTF-8",
               LC_ALL="C.UTF-8")
    return env


def wave(env: dict[str, str], *args: str | bytes) -> subprocess.CompletedProcess[str]:
    return subprocess.run([WAVE, *args], env=env, capture_output=True, text=True, timeout=900,
                          cwd=Path(env["DATA_DIR"]).parent)


@pytest.mark.parametrize(("args", "shown"), [
    (["recall", "кофе", "--k", "0"],
     "wave recall: Invalid value for '--k' / '-k': Input should be greater than or equal to 1. "
     "Next: see `wave recall --help`"),
    (["recall", "кофе", "--k", "-1"],
     "wave recall: Invalid value for '--k' / '-k': Input should be greater than or equal to 1. "
     "Next: see `wave recall --help`"),
    (["recall", "кофе", "--k", "abc"],
     "wave recall: Invalid value for '--k' / '-k': Input should be a valid integer, unable to "
     "parse string as an integer. Next: see `wave recall --help`"),
    (["remember"], "wave remember: Missing argument 'text'. Next: see `wave remember --help`"),
    (["frobnicate"], "wave: No such command 'frobnicate'. Next: see `wave --help`"),
])
def test_usage_errors_are_one_line_naming_the_help(
    cli_env: dict[str, str], args: list[str], shown: str
) -> None:
    done = wave(cli_env, *args)
    assert (done.returncode, done.stdout, done.stderr) == (2, "", shown + "\n")
    assert not Path(cli_env["DATA_DIR"]).exists()


def test_wave_alone_shows_the_help_and_nothing_else(cli_env: dict[str, str]) -> None:
    done = wave(cli_env)
    assert "Usage: wave" in done.stdout and "remember" in done.stdout
    assert done.stderr == "" and done.returncode == 2


@pytest.mark.parametrize(("args", "shown"), [
    (["facts", "--user", ""],
     "wave: --user is empty. Next: give --user a name or a number, e.g. --user alena"),
    (["facts", "--user", "  "],
     "wave: --user is empty. Next: give --user a name or a number, e.g. --user alena"),
    (["export", "--user", NOT_UTF8],
     "wave: --user is not valid UTF-8 text. Next: type the id again in a UTF-8 terminal "
     "(check `locale`), or use plain letters and digits"),
    (["remember", b"\xd0\x9f\xd1\x80\xd0\xb8 " + NOT_UTF8],
     "wave: Cannot remember this text: it is not valid UTF-8. Next: retype it in a UTF-8 "
     "terminal (check `locale`) or convert the file with `iconv -t UTF-8`"),
    (["recall", NOT_UTF8],
     "wave: The search text is not valid UTF-8 text. Next: retype it in a UTF-8 terminal "
     "(check `locale`), or convert a file with `iconv -t UTF-8`"),
])
def test_bad_user_ids_and_text_are_refused_at_once(
    cli_env: dict[str, str], args: list[str | bytes], shown: str
) -> None:
    done = wave(cli_env, *args)
    assert (done.returncode, done.stdout, done.stderr) == (1, "", shown + "\n")
    assert not Path(cli_env["DATA_DIR"]).exists()  # refused before any store was opened


def test_webhook_mode_without_a_secret_does_not_start(cli_env: dict[str, str]) -> None:
    cli_env.update(TELEGRAM_BOT_TOKEN="123456:TEST-token", TELEGRAM_MODE="webhook",
                   TELEGRAM_WEBHOOK_URL="https://wave.example/hook")
    done = wave(cli_env, "run")
    assert (done.returncode, done.stdout, done.stderr) == (2, "", (
        "wave: TELEGRAM_WEBHOOK_SECRET: not set: webhook mode needs it, or anyone reaching the "
        "listener could pose as you. Next: put at least 16 random letters, digits, _ or - there "
        "(make some with `python3 -c 'import secrets; print(secrets.token_urlsafe(32))'`), or "
        "use TELEGRAM_MODE=polling\n"))
    assert not Path(cli_env["DATA_DIR"]).exists()  # refused before Neo4j or any store started


@pytest.mark.neo4j
@pytest.mark.slow
def test_one_name_in_two_spellings_is_one_person_and_ids_never_share_a_file(
    cli_env: dict[str, str], neo4j_uri: str, tmp_path: Path
) -> None:
    cli_env["NEO4J_URI"] = neo4j_uri
    tag = uuid.uuid4().hex[:8]
    nfd = unicodedata.normalize("NFD", f"Алёна-{tag}")
    nfc = unicodedata.normalize("NFC", nfd)
    seed = tmp_path / "seed.json"
    seed.write_text(json.dumps(["Я живу в Казани"], ensure_ascii=False), encoding="utf-8")
    imported = wave(cli_env, "import", str(seed), "--user", nfd, "--json")
    assert imported.returncode == 0, imported.stderr

    listed = wave(cli_env, "facts", "--user", nfc, "--json")
    assert listed.returncode == 0, listed.stderr
    assert [f["text"] for f in json.loads(listed.stdout)] == ["Я живу в Казани"]

    out = tmp_path / "out"
    files = {}
    for user in (f"a/b-{tag}", f"a_b-{tag}"):
        done = wave(cli_env, "export", "--user", user, "--out", str(out), "--json")
        assert done.returncode == 0, done.stderr
        files[user] = Path(json.loads(done.stdout)["json"])
    assert files[f"a/b-{tag}"] != files[f"a_b-{tag}"]
    assert files[f"a_b-{tag}"].name == f"a_b-{tag}-memory.json"  # plain ids keep their names
    for user, path in files.items():
        assert path.parent == out and json.loads(path.read_text())["user_id"] == user
