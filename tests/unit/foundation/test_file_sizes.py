"""Files in ``wave_agent/`` stay small enough to read in one sitting (about 500 lines); a longer
one says at its top why it is one file ("... of this size: <why>")."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
LIMIT = 520


def test_a_long_module_says_why_at_its_top() -> None:
    unexplained = []
    for path in sorted((ROOT / "wave_agent").rglob("*.py")):
        source = path.read_text(encoding="utf-8")
        lines = source.count("\n")
        if lines <= LIMIT:
            continue
        doc = ast.get_docstring(ast.parse(source)) or ""
        if "of this size" not in doc:
            unexplained.append(f"{path.relative_to(ROOT)} ({lines} lines)")
    assert not unexplained, (
        "split these by what they own, or say at the top why each is one file "
        "('Why one file of this size: ...'):\n" + "\n".join(unexplained))
