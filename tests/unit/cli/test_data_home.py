"""Memory lives in the person's data directory, whatever the working directory.

An MCP client starts ``wave mcp`` from its own directory: with DATA_DIR relative to the working
directory that process opened an empty memory and a second Neo4j. These tests start ``wave``
from a stranger directory and check which memory it means.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from wave_agent.cli.data_cmd import old_data_notice
from wave_agent.settings import load_settings


def _wave(args: list[str], cwd: Path, home: Path, **env: str) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if k.upper() != "DATA_DIR"}
    clean.update(XDG_DATA_HOME=str(home), **env)
    return subprocess.run([sys.executable, "-c", "from wave_agent.cli import main; main()", *args],
                          cwd=cwd, env=clean, capture_output=True, text=True, timeout=120)


def test_data_dir_defaults_to_the_xdg_data_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    monkeypatch.chdir(tmp_path)
    assert load_settings().data_dir == tmp_path / "xdg" / "wave"


def test_a_relative_data_dir_is_made_absolute_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("DATA_DIR", "mine")
    assert load_settings().data_dir == tmp_path / "mine"


def test_the_settings_file_in_the_data_directory_is_read_from_anywhere(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    home = tmp_path / "xdg"
    (home / "wave").mkdir(parents=True)
    (home / "wave" / ".env").write_text("DEFAULT_USER=ania\nTIMEZONE=Europe/Warsaw\n")
    elsewhere = tmp_path / "ide-project"
    elsewhere.mkdir()
    (elsewhere / ".env").write_text("TIMEZONE=Europe/Moscow\n")  # the working directory wins
    monkeypatch.setenv("XDG_DATA_HOME", str(home))
    monkeypatch.chdir(elsewhere)
    loaded = load_settings()
    assert (loaded.default_user, loaded.timezone) == ("ania", "Europe/Moscow")


def test_an_old_data_directory_in_the_checkout_is_named_with_the_command_that_moves_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    (tmp_path / "data" / "qdrant").mkdir(parents=True)
    notice = old_data_notice(load_settings(), cwd=tmp_path)
    assert notice is not None and f"wave move-data {tmp_path / 'data'}" in notice
    monkeypatch.setenv("DATA_DIR", str(tmp_path / "data"))  # chosen on purpose: nothing to say
    assert old_data_notice(load_settings(), cwd=tmp_path) is None


def test_move_data_moves_the_old_memory_and_later_commands_stop_mentioning_it(tmp_path: Path) -> None:
    checkout, home = tmp_path / "checkout", tmp_path / "xdg"
    (checkout / "data" / "episodes" / "local").mkdir(parents=True)
    (checkout / "data" / "episodes" / "local" / "2026-12-01.md").write_text("# Понедельник\n")
    first = _wave(["services", "status"], checkout, home)
    assert "wave move-data" in first.stderr, first.stderr
    moved = _wave(["move-data"], checkout, home)
    assert moved.returncode == 0, moved.stderr
    assert (home / "wave" / "episodes" / "local" / "2026-12-01.md").read_text() == "# Понедельник\n"
    assert not (checkout / "data").exists()
    again = _wave(["services", "status"], checkout, home)
    assert "move-data" not in again.stderr and str(home / "wave") in again.stdout


def test_move_data_refuses_to_mix_two_memories(tmp_path: Path) -> None:
    checkout, home = tmp_path / "checkout", tmp_path / "xdg"
    (checkout / "data" / "blocks").mkdir(parents=True)
    (home / "wave" / "blocks").mkdir(parents=True)
    refused = _wave(["move-data"], checkout, home)
    assert refused.returncode == 1 and "already holds a memory" in refused.stderr
    assert (checkout / "data" / "blocks").is_dir()
