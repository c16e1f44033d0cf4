"""The health counters over time: one sample an hour, no id or text on disk, gone on
forget-me; and the MCP tokens of an erased person go with them."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

from wave_agent.infra.tokens import TokenStore
from wave_agent.ops import health_history
from wave_agent.ops.health import UserHealth


def _health(user_id: str, contradictions: int = 0) -> UserHealth:
    health = UserHealth(user_id, by_tier={"fact": 3, "observation": 5},
                        by_status={"active": 7, "quarantined": 1}, proposals_pending=2,
                        index_drift={"total": 4})
    health.contradictions = [object()] * contradictions  # type: ignore[list-item]
    return health


def test_one_sample_an_hour_with_the_counters_the_page_draws(tmp_path: Path) -> None:
    at = datetime(2026, 12, 1, 9, 0, tzinfo=UTC)
    assert health_history.record(tmp_path, _health("Алёна"), 0, at)
    assert not health_history.record(tmp_path, _health("Алёна", 1), 0, at + timedelta(minutes=30))
    assert health_history.record(tmp_path, _health("Алёна", 1), 5, at + timedelta(hours=1))
    samples = health_history.read(tmp_path, "Алёна")
    assert [s["contradictions"] for s in samples] == [0, 1]
    assert samples[-1] | {"at": None} == {"at": None, "by_tier": {"fact": 3, "observation": 5},
                                          "contradictions": 1, "drift": 4, "proposals": 2,
                                          "quarantine": 1, "outbox": 5}
    [written] = list((tmp_path / "health").iterdir())
    assert "Алёна" not in written.name and "Алёна" not in written.read_text(encoding="utf-8")
    assert health_history.read(tmp_path, "someone else") == []


def test_erasing_a_person_removes_their_history_and_tokens(tmp_path: Path) -> None:
    health_history.record(tmp_path, _health("gone"), 0, datetime.now(UTC))
    health_history.record(tmp_path, _health("stays"), 0, datetime.now(UTC))
    tokens = TokenStore(tmp_path / "mcp" / "tokens.json")
    theirs, mine = tokens.issue("gone"), tokens.issue("stays")
    assert health_history.erase(tmp_path, "gone") == 1
    assert tokens.revoke("gone") == 1
    assert health_history.read(tmp_path, "gone") == [] and health_history.read(tmp_path, "stays")
    assert tokens.person(theirs) is None and tokens.person(mine) == "stays"
    assert "gone" not in (tmp_path / "mcp" / "tokens.json").read_text()
