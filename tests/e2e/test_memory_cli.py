"""The memory commands through the real ``wave`` console script (subprocesses), against the
real Neo4j and Qdrant local. Each call loads the embedding model (~10 s), so few calls: the
price scenario, the refusals (cheap: refused before any store opens), and a write while
another process holds the local Qdrant directory (as `wave run` does).
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from tests.support.cli import cli_env as support_env
from tests.support.cli import ok_json, wave

pytestmark = [pytest.mark.neo4j, pytest.mark.slow]

@pytest.fixture
def cli_env(tmp_path: Path, neo4j_uri: str) -> dict[str, str]:
    return support_env(tmp_path / "data", neo4j_uri)


def test_price_scenario_end_to_end(cli_env: dict[str, str]) -> None:
    first = ok_json(cli_env, "remember", "Пилот стоит 150 тысяч")
    assert isinstance(first, dict) and first["status"] == "created"
    old_id = first["id"]

    proposed = ok_json(cli_env, "remember", "Пилот теперь стоит 200 тысяч")
    assert isinstance(proposed, dict) and proposed["status"] == "proposed"
    assert proposed["similar_to"] == old_id and proposed["similarity"] > 0.5
    assert proposed["proposal"]["kind"] == "supersede"
    assert proposed["proposal"]["target"] == old_id

    done = ok_json(cli_env, "approve", proposed["proposal"]["id"])
    assert isinstance(done, dict) and done["status"] == "superseded"
    new_id = done["id"]

    facts = ok_json(cli_env, "facts")
    assert isinstance(facts, list)
    by_id = {f["id"]: f for f in facts}
    assert set(by_id) == {old_id, new_id}
    assert [f["text"] for f in facts if f["status"] == "active"] == ["Пилот теперь стоит 200 тысяч"]
    assert by_id[old_id]["status"] == "superseded" and by_id[old_id]["superseded_by"] == new_id
    assert by_id[new_id]["supersedes"] == old_id
    assert set(by_id[new_id]) >= {"id", "text", "type", "tier", "status", "supersedes",
                                  "superseded_by", "mention_count", "created_at"}

    # "what was it before?": the replaced price answers a history question
    history = ok_json(cli_env, "recall", "сколько стоил пилот", "--history")
    assert isinstance(history, list)
    statuses = {h["id"]: h["status"] for h in history}
    assert statuses.get(old_id) == "superseded" and statuses.get(new_id) == "active"


def test_refusals_exit_non_zero_with_the_next_step(cli_env: dict[str, str]) -> None:
    too_long = wave(cli_env, "remember", "я" * 40_001)
    assert too_long.returncode != 0 and too_long.stdout == ""
    assert "40,001 characters" in too_long.stderr
    assert "split it into notes under 40,000 characters" in too_long.stderr

    no_target = wave(cli_env, "supersede", "", "Пилот стоит 200 тысяч")
    assert no_target.returncode != 0
    assert "say which record this replaces" in no_target.stderr
    assert "wave supersede <id>" in no_target.stderr

    itself = wave(cli_env, "supersede", "f-abcdefgh", "f-abcdefgh")
    assert itself.returncode != 0 and "by itself" in itself.stderr


def test_remember_while_the_archive_is_held_by_another_process(
    cli_env: dict[str, str], tmp_path: Path
) -> None:
    from archive.store import ArchiveStore

    holder = ArchiveStore.local(Path(cli_env["DATA_DIR"]) / "qdrant",
                                model_name="all-MiniLM-L6-v2", dim=384)
    asyncio.run(holder.open())  # holds the local directory, as `wave run` does
    try:
        held = wave(cli_env, "remember", "Я живу в Казани", "--json")
    finally:
        asyncio.run(holder.close())
    assert held.returncode == 0, held.stderr
    answer = json.loads(held.stdout)
    assert answer["status"] == "created" and answer["archive"] == "pending"
    assert "archive update pending" in held.stderr and "wave reindex" in held.stderr


def test_remember_at_a_given_moment_and_a_wrong_one_refused(cli_env: dict[str, str]) -> None:
    """``--at`` (issue 30, item 8): a dated history replayed by hand is stamped at its time."""
    done = ok_json(cli_env, "remember", "Я живу в Самаре", "--at", "2026-11-03T09:15+03:00")
    assert isinstance(done, dict) and done["status"] == "created"
    facts = ok_json(cli_env, "facts")
    assert isinstance(facts, list)
    stamped = {f["id"]: f["created_at"] for f in facts}
    assert stamped[done["id"]] == "2026-11-03T06:15:00+00:00"
    bad = wave(cli_env, "remember", "Я живу в Казани", "--at", "3 ноября")
    assert bad.returncode != 0 and "--at" in bad.stderr and "2026-11-03T09:15" in bad.stderr
