"""``wave commitments`` through the real console script: add a promise, see it by due time,
move it, close it. Real Neo4j and Qdrant local; Wave's clock fixed with ``WAVE_NOW``."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.cli import cli_env as support_env
from tests.support.cli import ok_json, wave

pytestmark = [pytest.mark.neo4j, pytest.mark.slow]

@pytest.fixture
def cli_env(tmp_path: Path, neo4j_uri: str) -> dict[str, str]:
    return support_env(tmp_path / "data", neo4j_uri, TIMEZONE="Europe/Moscow",
                       WAVE_NOW="2026-12-02T14:30+03:00")


def test_a_promise_is_added_listed_by_due_time_moved_and_closed(cli_env: dict[str, str]) -> None:
    later = ok_json(cli_env, "commitments", "add", "до 15-го оплатить садик")
    sooner = ok_json(cli_env, "commitments", "add", "обещала маме позвонить в пятницу")
    assert isinstance(later, dict) and isinstance(sooner, dict)
    assert sooner["due_at"].startswith("2026-12-04T07:00")  # Friday 10:00 in Moscow
    listed = ok_json(cli_env, "commitments")
    assert isinstance(listed, list)
    assert [c["id"] for c in listed] == [sooner["id"], later["id"]]

    moved = ok_json(cli_env, "commitments", "move", sooner["id"], "в субботу в 12")
    assert isinstance(moved, dict) and moved["due_at"].startswith("2026-12-05T09:00")
    done = ok_json(cli_env, "commitments", "done", later["id"])
    assert isinstance(done, dict) and done["state"] == "done"
    assert [c["id"] for c in ok_json(cli_env, "commitments")] == [sooner["id"]]  # type: ignore[union-attr]

    unclear = wave(cli_env, "commitments", "move", sooner["id"], "когда-нибудь")
    assert unclear.returncode == 1
    assert "Next:" in unclear.stderr and "Traceback" not in unclear.stderr
