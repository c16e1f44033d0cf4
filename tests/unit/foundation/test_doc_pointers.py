"""A pointer from the code to a section of the docs leads somewhere.

Error messages, docstrings and comments send the reader to ``docs/benchmarks.md, "Scale"`` or
``docs/architecture.md ("After a Neo4j restart")``. When the docs are reorganised, such a name
must still match a heading (or a bold lead-in) of that file, or the reader finds nothing.
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
SOURCES = ("wave_agent", "graph", "archive", "episodes", "snapshots", "scripts", "tests", "README.md")
POINTER = re.compile(r'docs/(benchmarks|architecture)\.md\W{0,6}"([^"\n]+?)[",]')


def landmarks(doc: str) -> str:
    """The headings and bold lead-ins of a doc, lower-cased, one a line."""
    text = (ROOT / "docs" / f"{doc}.md").read_text(encoding="utf-8")
    heads = [line.lstrip("#").strip() for line in text.splitlines() if line.startswith("#")]
    bold = re.findall(r"\*\*([^*]+)\*\*", text)
    return "\n".join(heads + bold).lower()


def pointers() -> list[tuple[str, str, str]]:
    found: list[tuple[str, str, str]] = []
    for source in SOURCES:
        path = ROOT / source
        files = [path] if path.is_file() else [p for p in path.rglob("*.py") if "node_modules" not in p.parts]
        for file in files:
            if file == Path(__file__).resolve():
                continue  # its own examples
            # a comment that wraps: "(docs/benchmarks.md, "Recall in Russian with\n    # e5")"
            text = re.sub(r"\n\s*#\s*", " ", file.read_text(encoding="utf-8"))
            for match in POINTER.finditer(text):
                name = " ".join(match.group(2).rstrip("\\").split())
                found.append((str(file.relative_to(ROOT)), match.group(1), name))
    return found


def test_pointers_into_the_docs_name_sections_that_exist() -> None:
    marks = {doc: landmarks(doc) for doc in ("benchmarks", "architecture")}
    broken = sorted({f"{where}: docs/{doc}.md \"{name}\"" for where, doc, name in pointers()
                     if name.lower() not in marks[doc]})
    assert pointers(), "no pointer found: the pattern no longer matches how the code cites the docs"
    assert not broken, "these pointers name no heading of the doc they cite:\n" + "\n".join(broken)
