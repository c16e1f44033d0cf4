"""One writer: no module but the writer calls the graph's fact-writing methods or writes
``Fact`` nodes in its own Cypher (DESIGN section 4, "a test makes this mechanical").

The writer is ``wave_agent/write/writer.py`` (one class); ``graph/`` defines the methods. Scanned: every production package and ``scripts/``.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SCANNED = ("wave_agent", "archive", "episodes", "snapshots", "scripts")
ALLOWED = {
    "wave_agent/write/writer.py",
    # measures the graph store's own write path, on a throwaway user it deletes afterwards
    "scripts/bench_graph.py",
    # fills a throwaway user's graph to time the memory page's reads, and deletes it after
    "scripts/bench_web.py",
    # `wave bench scale`: bulk-loads a throwaway person's graph (100k facts: the writer would
    # embed each text) to time its reads and the turn at that size, and deletes it after
    "wave_agent/bench/graph_scale.py",
}

# Names only the graph store has: any call to them is a fact write.
FACT_WRITES = {"create_fact", "create_facts", "update_fact", "delete_fact", "purge_user",
               "add_mention"}
# ``supersede`` is also the Writer's own method: a call counts when made on a graph store or
# one of its transactions (the receiver's source mentions graph/store, or is tx/ops).
GRAPH_RECEIVER = re.compile(r"graph|store|\btx\b|\bops\b|transaction", re.IGNORECASE)
FACT_CYPHER = re.compile(
    r"(?:CREATE|MERGE)\s*\(\s*\w*\s*:\s*Fact\b|SET\s+\w+\s*[+]?=\s*\$|DELETE\s+f\b", re.IGNORECASE
)


def violations_in(source: str, rel: str) -> list[str]:
    found: list[str] = []
    tree = ast.parse(source)
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            name = node.func.attr
            receiver = ast.unparse(node.func.value)
            if name in FACT_WRITES or (name == "supersede" and GRAPH_RECEIVER.search(receiver)):
                found.append(f"{rel}:{node.lineno}: {receiver}.{name}(...)")
        if (isinstance(node, ast.Constant) and isinstance(node.value, str)
                and ":Fact" in node.value and FACT_CYPHER.search(node.value)):
            found.append(f"{rel}:{node.lineno}: Cypher writing Fact nodes")
    return found


def scan() -> list[str]:
    found: list[str] = []
    for top in SCANNED:
        for path in sorted((ROOT / top).rglob("*.py")):
            rel = path.relative_to(ROOT).as_posix()
            if rel in ALLOWED:
                continue
            found += violations_in(path.read_text(encoding="utf-8"), rel)
    return found


def test_only_the_writer_writes_facts() -> None:
    found = scan()
    assert not found, (
        "fact writes outside wave_agent/write/writer.py (send them through Writer, "
        "services.writer()):\n" + "\n".join(found)
    )


def test_the_scan_sees_a_direct_write() -> None:
    sample = (
        "async def sneak(services, writer):\n"
        "    graph = await services.graph()\n"
        "    await graph.update_fact('u', 'f-1', status='archived')\n"
        "    await (await services.graph()).supersede('u', 'f-1', 'f-2')\n"
        "    await writer.supersede('u', 'f-1', 'new text')\n"
        "    await graph._write('CREATE (f:Fact) SET f = $props')\n"
    )
    found = violations_in(sample, "sample.py")
    assert len(found) == 3, found
    assert not any("writer.supersede" in line for line in found)


def test_the_writer_itself_is_scanned_when_not_allowed() -> None:
    source = (ROOT / "wave_agent/write/writer.py").read_text(encoding="utf-8")
    assert violations_in(source, "wave_agent/write/writer.py"), "the scan must see the writer's own calls"
