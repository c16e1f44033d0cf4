"""Every module that declares CLI commands is registered: a command the docs name must answer ``--help``."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from wave_agent.cli import _register, app

CLI_DIR = Path(__file__).resolve().parents[3] / "wave_agent" / "cli"


def test_every_command_module_is_imported_by_the_cli() -> None:
    """A module declaring commands but left out of ``_register`` adds no command: `wave` would say 'No such command'."""
    _register()
    modules = sorted(p.stem for p in CLI_DIR.glob("*.py") if ".command(" in p.read_text(encoding="utf-8"))
    missing = [m for m in modules if f"wave_agent.cli.{m}" not in sys.modules]
    assert not missing, f"command modules not registered in wave_agent/cli/__init__.py::_register: {missing}"


@pytest.mark.parametrize("bench", ["locomo", "memory", "turn", "scale", "quarantine", "offline"])
def test_each_benchmark_the_docs_name_answers_help(bench: str) -> None:
    _register()
    result = CliRunner().invoke(app, ["bench", bench, "--help"])
    assert result.exit_code == 0, result.output
