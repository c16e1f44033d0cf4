"""Every model and data file the package reads at run time ships in its wheel: a file added
under ``wave_agent`` without a ``[tool.setuptools.package-data]`` pattern works from a checkout
and is missing from an installed Wave (the recall's now/stable gate was, from 2026-12-06)."""

from __future__ import annotations

import fnmatch
import subprocess
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
SHIPPED = (".npz", ".json", ".html", ".css", ".md")


def test_every_tracked_data_file_under_wave_agent_matches_a_package_data_pattern() -> None:
    patterns = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))[
        "tool"]["setuptools"]["package-data"]["wave_agent"]
    tracked = subprocess.run(["git", "ls-files", "wave_agent"], cwd=ROOT, check=True,
                             capture_output=True, text=True).stdout.split()
    data = [p.removeprefix("wave_agent/") for p in tracked if p.endswith(SHIPPED)]
    assert data, "no data files found under wave_agent"
    missing = [p for p in data if not any(fnmatch.fnmatch(p, pat) for pat in patterns)]
    assert missing == [], f"add these to pyproject.toml's package-data: {missing}"
