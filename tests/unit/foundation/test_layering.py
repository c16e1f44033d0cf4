"""The dependency rule: layer packages never import the agent package."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
LAYERS = ("graph", "archive", "episodes", "snapshots")


@pytest.mark.parametrize("layer", LAYERS)
def test_layer_does_not_import_the_agent(layer: str) -> None:
    offenders = []
    for path in sorted((ROOT / layer).rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for node in ast.walk(tree):
            names: list[str] = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            offenders += [f"{path.relative_to(ROOT)}: {n}" for n in names if n.split(".")[0] == "wave_agent"]
    assert not offenders, "layers must not import wave_agent:\n" + "\n".join(offenders)
