"""The Russian write-path scenario through the real ``wave`` console script, in Russian: a price
said again with "Цена изменилась: ... теперь", and three rents in one ``wave import``.
Real Neo4j and Qdrant local; each call loads the embedding model, so few calls.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.support.cli import cli_env as support_env
from tests.support.cli import ok_json

pytestmark = [pytest.mark.neo4j, pytest.mark.slow]

OLD = "Пилотный проект стоит 150 тысяч рублей"
NEW = "Цена изменилась: пилотный проект теперь стоит 200 тысяч рублей"


@pytest.fixture
def cli_env(tmp_path: Path, neo4j_uri: str) -> dict[str, str]:
    return support_env(tmp_path / "data", neo4j_uri)


def test_russian_price_change_is_proposed_linked_and_recalled_current_first(
        cli_env: dict[str, str]) -> None:
    first = ok_json(cli_env, "remember", OLD)
    assert isinstance(first, dict) and first["status"] == "created"
    proposed = ok_json(cli_env, "remember", NEW)
    assert isinstance(proposed, dict) and proposed["status"] == "proposed", proposed
    assert proposed["proposal"]["target"] == first["id"]

    done = ok_json(cli_env, "approve", proposed["proposal"]["id"])
    assert isinstance(done, dict) and done["status"] == "superseded"
    facts = ok_json(cli_env, "facts")
    assert isinstance(facts, list)
    by_id = {f["id"]: f for f in facts}
    assert by_id[first["id"]]["superseded_by"] == done["id"]
    assert by_id[done["id"]]["supersedes"] == first["id"]

    hits = ok_json(cli_env, "recall", "сколько стоит пилотный проект")
    assert isinstance(hits, list) and hits and hits[0]["id"] == done["id"]
    assert first["id"] not in {h["id"] for h in hits}
    history = ok_json(cli_env, "recall", "сколько стоит пилотный проект", "--history")
    assert isinstance(history, list)
    assert {h["id"]: h["status"] for h in history}.get(first["id"]) == "superseded"


def test_an_import_of_three_rents_keeps_one_active_and_proposes_the_others(
        cli_env: dict[str, str]) -> None:
    path = Path(cli_env["DATA_DIR"]).parent / "rents.json"
    path.write_text(json.dumps({"facts": [
        {"text": "Аренда квартиры 45 000 рублей в месяц", "created_at": "2026-01-01T09:00:00"},
        {"text": "Аренда квартиры 50 000 рублей в месяц", "created_at": "2026-04-01T09:00:00"},
        {"text": "Аренда квартиры 55 тыс. рублей в месяц", "created_at": "2026-07-01T09:00:00"},
    ]}, ensure_ascii=False), encoding="utf-8")
    counts = ok_json(cli_env, "import", str(path))
    assert isinstance(counts, dict)
    assert counts.get("created") == 1 and counts.get("proposed") == 2
    facts = ok_json(cli_env, "facts", "--status", "active")
    assert isinstance(facts, list)
    assert [f["text"] for f in facts] == ["Аренда квартиры 45 000 рублей в месяц"]
