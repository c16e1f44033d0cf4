"""Two test modules outside packages may not share a file name: pytest imports each by its
basename, and the whole suite stops at collection (stop 47's CI: tests/unit/world and
tests/integration/turn both held ``test_said_in_passing.py``; a unit-only run never sees it)."""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path

TESTS = Path(__file__).resolve().parents[2]


def test_test_modules_outside_packages_have_unique_names() -> None:
    by_name: dict[str, list[str]] = defaultdict(list)
    for path in TESTS.rglob("test_*.py"):
        if not (path.parent / "__init__.py").exists():
            by_name[path.name].append(str(path.relative_to(TESTS)))
    clashes = {name: paths for name, paths in by_name.items() if len(paths) > 1}
    assert not clashes, f"rename one of each (or make its folder a package): {clashes}"
