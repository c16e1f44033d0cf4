"""The month bench counts a new value said as an unmarked contradiction apart from the changes
(``wave_agent/bench/month.py`` ``judged_as``): Wave keeps both records and asks the person
which is true, so such a value is judged by the conflict raised, never as a change left
unapplied (issue 30 counts "contradictions never marked as changes" apart from the changes)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from wave_agent.bench.month import Message, Setting, judged_as

AT = datetime(2026, 11, 20, 12, 0, tzinfo=UTC)


def _said(text: str, value: str, *, contradicts: str | None = None,
          op: str = "set", attribute: str = "city") -> tuple[Message, Setting]:
    setting = Setting("user", attribute, value, op)
    return Message("m090", AT, "ru", text, "statement", (setting,), contradicts), setting


def test_a_move_said_openly_is_a_change() -> None:
    m, s = _said("переехала в Казань, теперь я казанская", "Казань")
    assert judged_as(m, s, True, ["Самара"]) == "change"


def test_a_city_said_against_the_earlier_one_without_news_is_a_contradiction() -> None:
    m, s = _said("я же всю жизнь в Казани живу", "Казань", contradicts="m004")
    assert judged_as(m, s, True, ["Самара"]) == "contradiction"


def test_a_first_value_or_the_same_again_is_neither() -> None:
    m, s = _said("живу в Самаре", "Самара")
    assert judged_as(m, s, False, []) is None
    assert judged_as(m, s, True, ["Самара"]) is None
    m, s = _said("живу в Самаре, как и говорила", "Самара", contradicts="m004")
    assert judged_as(m, s, True, ["Самара"]) is None


def test_the_old_count_is_kept_for_comparison(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("WAVE_BENCH_CHANGES", "with_contradictions")
    m, s = _said("я же всю жизнь в Казани живу", "Казань", contradicts="m004")
    assert judged_as(m, s, True, ["Самара"]) == "change"
