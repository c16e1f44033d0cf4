"""Which package may import which: the layout as a table, checked on every import.

Every ``import`` counts, wherever it stands: at the top of a module, inside a function, under
``TYPE_CHECKING``. A package lower in the table never imports one above it, so no import cycle
between packages can form. ``BACK_EDGES`` lists what still breaks the table while the layout is
being moved; it may only shrink, and a listed edge that no longer exists fails the test too.
"""

from __future__ import annotations

import ast
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
TOP = ("common", "graph", "archive", "episodes", "snapshots", "wave_agent")

STORES = {"common", "graph", "archive", "episodes", "snapshots"}
BASE = STORES | {"wave_agent.errors", "wave_agent.settings"}
INFRA = BASE | {"wave_agent.infra"}
POLICY = INFRA | {"wave_agent.policy"}
MODEL = POLICY | {"wave_agent.llm", "wave_agent.blocks", "wave_agent.world"}
WRITE = MODEL | {"wave_agent.write"}
COMMITMENTS = WRITE | {"wave_agent.commitments"}
READ = COMMITMENTS | {"wave_agent.recall"}
CONVERSATION = READ | {"wave_agent.conversation"}
POSTPROCESS = CONVERSATION | {"wave_agent.postprocess"}
OPS = POSTPROCESS | {"wave_agent.ops"}
APP = OPS | {"wave_agent.app"}
ROOT_OF_COMPOSITION = APP | {"wave_agent.services"}
SURFACE = ROOT_OF_COMPOSITION

# What each package may import (itself always). Lower rows never name higher ones.
ALLOWED: dict[str, set[str]] = {
    "common": set(),
    "graph": {"common"},
    "archive": {"common"},
    "episodes": {"common"},
    "snapshots": {"common", "episodes"},
    "wave_agent": set(),
    "wave_agent.errors": STORES,
    "wave_agent.settings": STORES | {"wave_agent.errors"},
    "wave_agent.infra": BASE,
    "wave_agent.policy": INFRA,
    "wave_agent.llm": POLICY,
    "wave_agent.blocks": POLICY,
    "wave_agent.world": POLICY | {"wave_agent.llm"},
    "wave_agent.write": MODEL,
    # promises with due times over the graph, and the reminder sweep
    "wave_agent.commitments": WRITE,
    "wave_agent.recall": COMMITMENTS,
    "wave_agent.conversation": READ,
    # after the reply: the post-processor logs the exchange and writes what it found
    "wave_agent.postprocess": CONVERSATION,
    "wave_agent.ops": POSTPROCESS,
    "wave_agent.app": OPS,
    "wave_agent.services": APP,
    "wave_agent.bot": SURFACE,
    "wave_agent.web": SURFACE,
    "wave_agent.mcp": SURFACE,
    # The `wave` command is the program's entry point: `wave run`, `wave web`, `wave mcp` and
    # `wave bench` start the other surfaces and the benchmarks. Nothing imports the CLI.
    "wave_agent.cli": SURFACE | {"wave_agent.bot", "wave_agent.web", "wave_agent.mcp", "wave_agent.bench"},
    "wave_agent.bench": APP | {"wave_agent.services"},
}

# Known edges that break the table, to be removed; never add to this list.
BACK_EDGES: set[tuple[str, str]] = set()


def unit(module: str) -> str | None:
    parts = module.split(".")
    if parts[0] not in TOP:
        return None
    if parts[0] == "wave_agent" and len(parts) > 1:
        return "wave_agent." + parts[1]
    return parts[0]


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imported(path: Path) -> list[str]:
    """Every module ``path`` imports, relative imports resolved."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    package = module_name(path).split(".")
    if path.name != "__init__.py":
        package = package[:-1]
    found: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[: len(package) - (node.level - 1)]
                found.append(".".join(base + ([node.module] if node.module else [])))
            elif node.module:
                # `from wave_agent import settings` imports the module wave_agent.settings
                found += [node.module] + [f"{node.module}.{alias.name}" for alias in node.names
                                          if node.module == "wave_agent"]
    return found


def edges() -> dict[tuple[str, str], list[str]]:
    seen: dict[tuple[str, str], list[str]] = defaultdict(list)
    for top in TOP:
        for path in sorted((ROOT / top).rglob("*.py")):
            source = unit(module_name(path))
            assert source is not None
            for name in imported(path):
                target = unit(name)
                if target is None or target == source or (name == "wave_agent" and target == "wave_agent"):
                    continue
                seen[(source, target)].append(str(path.relative_to(ROOT)))
    return seen


def test_every_package_is_in_the_table() -> None:
    packages = {unit(module_name(p)) for top in TOP for p in (ROOT / top).rglob("*.py")}
    missing = sorted(p for p in packages if p not in ALLOWED)
    assert not missing, f"packages with no row in ALLOWED (add one, with what they may import): {missing}"


def test_imports_follow_the_table() -> None:
    found = edges()
    wrong = sorted(
        f"{source} -> {target}  ({', '.join(sorted(set(files))[:3])})"
        for (source, target), files in found.items()
        if target not in ALLOWED[source] and (source, target) not in BACK_EDGES
    )
    assert not wrong, "imports against the layout table:\n" + "\n".join(wrong)


def test_the_back_edge_list_only_shrinks() -> None:
    found = edges()
    gone = sorted(f"{s} -> {t}" for s, t in BACK_EDGES if (s, t) not in found)
    assert not gone, "these back edges are gone; delete them from BACK_EDGES:\n" + "\n".join(gone)


def test_the_table_has_no_cycle() -> None:
    graph = dict(ALLOWED)
    state: dict[str, int] = {}

    def visit(node: str, trail: list[str]) -> None:
        state[node] = 1
        for nxt in sorted(graph.get(node, ())):
            assert state.get(nxt) != 1, "import cycle: " + " -> ".join([*trail, node, nxt])
            if nxt not in state:
                visit(nxt, [*trail, node])
        state[node] = 2

    for node in sorted(graph):
        if node not in state:
            visit(node, [])
