"""A stale record above the current one says what carried it up: replaced by the current record
(recall's order) or still in force beside it (the write side's two truths)."""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta
from typing import Any

from graph.models import Fact, FactType, Status, Tier, Veracity
from wave_agent.bench.month import _stale_carrier

NOW = datetime(2026, 7, 1, tzinfo=UTC)


@dataclass
class _Hit:
    fact: Fact


def _fact(fid: str, text: str, days: int, **kw: Any) -> Fact:
    at = NOW - timedelta(days=days)
    return replace(Fact(id=fid, user_id="u", text=text, type=FactType.IDENTITY,
                        veracity=Veracity.STATED, tier=Tier.FACT, status=Status.ACTIVE,
                        confidence=0.9, created_at=at, last_confirmed_at=at), **kw)


def test_a_replaced_record_above_its_replacement_is_told_from_two_truths() -> None:
    old = _fact("a", "Живу в Самаре", 30, status=Status.SUPERSEDED, superseded_by="b")
    new = _fact("b", "Переехала в Казань", 5, supersedes="a")
    got = _stale_carrier([_Hit(old), _Hit(new)], 0, 1)
    assert got["replaced_by_current"] and got["stale_status"] == "superseded"
    assert not got["stale_newer"] and (got["stale_rank"], got["current_rank"]) == (0, 1)

    both = _fact("a", "Живу в Самаре", 30)
    got = _stale_carrier([_Hit(both), _Hit(_fact("b", "Переехала в Казань", 5))], 0, 1)
    assert not got["replaced_by_current"] and got["stale_status"] == "active"
