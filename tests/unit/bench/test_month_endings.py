"""A "no" answer to a question about now (``wave_agent/bench/month.py``, ``ending_of``): "я
курю?" answered "нет, бросила" is held by the record of the message that ended the habit, as a
person reading it judges, not only by a record that says "нет" (round thirty, h/now30)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from wave_agent.bench.month import ending_of, load


def _month(tmp_path: Path, *sets: tuple[str, str, str, str]) -> Path:
    messages = [{"id": f"m{n}", "at": at, "lang": "ru", "text": text, "kind": "statement",
                 "sets": [{"entity": "user", "attribute": "habit", "value": "курение",
                           "op": op}]}
                for n, (at, text, op, _) in enumerate(sets, 1)]
    path = tmp_path / "month.json"
    path.write_text(json.dumps({"name": "t", "tz": "UTC", "messages": messages, "checkpoints": [
        {"at": "2026-11-20T20:00", "questions": [
            {"id": "q1", "text": "я сейчас курю?", "kind": "current", "entity": "user",
             "attribute": "habit", "expect": expect, "stale": ["курение"]}
            for expect in {s[3] for s in sets}]}]}, ensure_ascii=False), encoding="utf-8")
    return path


@pytest.mark.parametrize("expect", ["нет, бросила", "не курю", "нет", "no", "nie"])
def test_a_no_answer_comes_from_the_message_that_ended_the_value(tmp_path: Path,
                                                                 expect: str) -> None:
    month = load(_month(tmp_path, ("2026-11-01T10:00", "Курю, полпачки в день", "add", expect),
                        ("2026-11-10T10:00", "Всё, бросила курить!", "negate", expect)))
    cp = month.checkpoints[0]
    found = ending_of(month, cp.questions[0], cp.at)
    assert found is not None and found.text == "Всё, бросила курить!"


def test_a_value_said_after_the_ending_is_no_ending(tmp_path: Path) -> None:
    month = load(_month(tmp_path, ("2026-11-01T10:00", "Курю", "add", "нет"),
                        ("2026-11-10T10:00", "Бросила курить", "negate", "нет"),
                        ("2026-11-15T10:00", "Опять закурила", "add", "нет")))
    cp = month.checkpoints[0]
    assert ending_of(month, cp.questions[0], cp.at) is None


def test_an_answer_that_is_a_value_needs_its_words(tmp_path: Path) -> None:
    month = load(_month(tmp_path, ("2026-11-01T10:00", "Курю", "add", "курение"),
                        ("2026-11-10T10:00", "Бросила курить", "negate", "курение")))
    cp = month.checkpoints[0]
    assert ending_of(month, cp.questions[0], cp.at) is None  # "курение" is no "no" answer
