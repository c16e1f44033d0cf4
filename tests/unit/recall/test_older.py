"""``recall.older``: a question about the past gets the replaced record right above the one that
replaced it, the value just replaced first, each record once."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from graph.models import Fact, FactType, Status, Tier, Veracity
from wave_agent.recall import older

NOW = datetime(2026, 7, 1, tzinfo=UTC)


def _fact(fid: str, text: str, days: int, *, status: Status = Status.ACTIVE,
          supersedes: str | None = None) -> Fact:
    at = NOW - timedelta(days=days)
    return Fact(id=fid, user_id="u", text=text, type=FactType.IDENTITY, veracity=Veracity.STATED,
                tier=Tier.FACT, status=status, confidence=0.9, created_at=at,
                last_confirmed_at=at, supersedes=supersedes)


def _rents() -> dict[str, Fact]:
    """Rent 32, then 41, then 55 thousand, each replacing the one before; a gym record aside."""
    return {f.id: f for f in (
        _fact("r32", "Аренда в Нижнем 32 тысячи", 90, status=Status.SUPERSEDED),
        _fact("r41", "За квартиру теперь 41 тысяча", 60, status=Status.SUPERSEDED,
              supersedes="r32"),
        _fact("r55", "Хозяйке отдала 55 тысяч за квартиру", 10, supersedes="r41"),
        _fact("gym", "Зал в Нижнем стоил 3200", 80),
    )}


def test_the_value_just_replaced_comes_right_above_the_one_in_force() -> None:
    facts = _rents()
    assert older.replaced_first(["gym", "r55"], facts, 5) == ["gym", "r41", "r32", "r55"]


def test_asked_for_one_record_the_person_gets_the_old_value() -> None:
    assert older.replaced_first(["r55", "gym"], _rents(), 1) == ["r41"]


def test_a_record_already_above_keeps_its_place_and_none_repeats() -> None:
    facts = _rents()
    assert older.replaced_first(["r32", "gym", "r55", "r41"], facts, 5) == \
        ["r32", "gym", "r41", "r55"]


def test_a_predecessor_that_is_not_replaced_or_not_loaded_is_not_added() -> None:
    facts = _rents()
    facts["r41"] = _fact("r41", "За квартиру теперь 41 тысяча", 60, supersedes="r32")
    assert older.replaced_first(["r55"], facts, 5) == ["r55"], "r41 is in force: no history"
    del facts["r41"]
    assert older.wanted(["r55", "gym"], facts) == ["r41"], "loaded from the graph first"
    assert older.replaced_first(["r55"], facts, 5) == ["r55"]


def test_a_chain_is_followed_no_further_than_its_depth() -> None:
    facts = {"v0": _fact("v0", "v0", 50, status=Status.SUPERSEDED)}
    for i in range(1, 6):
        facts[f"v{i}"] = _fact(f"v{i}", f"v{i}", 50 - i, supersedes=f"v{i - 1}",
                               status=Status.SUPERSEDED if i < 5 else Status.ACTIVE)
    out = older.replaced_first(["v5"], facts, 10)
    assert out == [f"v{4 - i}" for i in range(older.DEPTH)] + ["v5"]
    assert older.wanted(["v5"], {k: v for k, v in facts.items() if k != "v1"}) == [], \
        "v1 is beyond the depth from v5: not asked for"
