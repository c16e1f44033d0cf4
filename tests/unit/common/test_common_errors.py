"""One error root: every layer's error is a ``WaveError`` with a category and a next step."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

from archive.errors import ArchiveError, ArchiveLocked, ArchiveUnavailable
from common.errors import NotFound, Refused, Unavailable, WaveError
from episodes.errors import EpisodeError, EpisodeStoreUnavailable, InvalidWeek
from graph.errors import FactNotFound, GraphError, GraphUnavailable, InvalidInput
from snapshots.errors import InvalidSnapshot, SnapshotError, SnapshotStoreUnavailable
from wave_agent.blocks.store import BlockStoreUnavailable, BlockVersionNotFound
from wave_agent.errors import ConfigError, ServiceUnavailable
from wave_agent.write.result import UnknownRecord, WriteRejected

COMMON = Path(__file__).resolve().parents[3] / "common"


def test_the_message_names_the_next_step() -> None:
    error = WaveError("the archive is busy", next_step="retry in a minute")
    assert str(error) == "the archive is busy. Next: retry in a minute"
    assert (error.message, error.next_step) == ("the archive is busy", "retry in a minute")
    assert str(WaveError("plain")) == "plain"


def test_every_layer_root_is_the_one_root() -> None:
    for root in (GraphError, ArchiveError, EpisodeError, SnapshotError):
        assert issubclass(root, WaveError), root


@pytest.mark.parametrize(("error", "category"), [
    (GraphUnavailable("bolt://127.0.0.1:7687", "connection refused"), Unavailable),
    (ArchiveLocked("/data/qdrant", 4242), Unavailable),
    (ArchiveUnavailable("http://qdrant:6333", "timed out"), Unavailable),
    (EpisodeStoreUnavailable("/data/episodes", "read-only file system"), Unavailable),
    (SnapshotStoreUnavailable("/data/snapshots", "disk full"), Unavailable),
    (BlockStoreUnavailable("letta", "502", "check LETTA_BASE_URL"), Unavailable),
    (ServiceUnavailable("Neo4j", "down", "`wave services up`"), Unavailable),
    (FactNotFound("u1", "f-1"), NotFound),
    (UnknownRecord("u1", "f-2"), NotFound),
    (BlockVersionNotFound("human", 9, [1, 2]), NotFound),
    (InvalidInput("naive datetime", next_step="pass an aware one"), Refused),
    (InvalidWeek("2026-53x"), Refused),
    (InvalidSnapshot("session_id is empty"), Refused),
    (WriteRejected("too long", next_step="shorten it"), Refused),
])
def test_each_error_has_a_category_and_a_next_step(error: WaveError, category: type) -> None:
    assert isinstance(error, WaveError) and isinstance(error, category)
    assert error.next_step and str(error).endswith(f"Next: {error.next_step}")


def test_a_store_down_says_how_to_bring_it_up() -> None:
    error = GraphUnavailable("bolt://127.0.0.1:7687", "connection refused")
    assert "`wave services up`" in (error.next_step or "")
    with pytest.raises(Unavailable):  # what a surface catches, without knowing the layer
        raise error


def test_categories_do_not_overlap() -> None:
    assert not isinstance(UnknownRecord("u", "f"), Unavailable)
    assert not isinstance(GraphUnavailable("bolt://x", "down"), NotFound | Refused)
    assert not isinstance(ConfigError("NEO4J_URI", "empty", "set it"), NotFound | Refused | Unavailable)


def test_common_uses_the_standard_library_only() -> None:
    outside: list[str] = []
    for path in sorted(COMMON.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = ([a.name for a in node.names] if isinstance(node, ast.Import)
                     else [node.module] if isinstance(node, ast.ImportFrom) and node.module
                     and not node.level else [])
            outside += [f"{path.name}: {n}" for n in names
                        if n.split(".")[0] not in sys.stdlib_module_names | {"common", "__future__"}]
    assert not outside, outside
