"""``recall.newer``: which questions ask about now, and how the ten best are reordered."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import numpy as np

from graph.models import Fact, FactType, Status, Tier, Veracity
from wave_agent.recall import newer
from wave_agent.recall.candidates import Candidates, Question
from wave_agent.recall.presets import CURRENT, DEFAULT, HISTORY
from wave_agent.recall.voices import Degraded

NOW = datetime(2026, 7, 1, tzinfo=UTC)


def _fact(fid: str, text: str, days: int) -> Fact:
    at = NOW - timedelta(days=days)
    return Fact(id=fid, user_id="u", text=text, type=FactType.STATE, veracity=Veracity.STATED,
                tier=Tier.FACT, status=Status.ACTIVE, confidence=0.9, created_at=at,
                last_confirmed_at=at)


def _unit(v: list[float]) -> np.ndarray:
    a = np.asarray(v, dtype=np.float32)
    return a / np.linalg.norm(a)


def _candidates(query: str, preset: object = DEFAULT) -> Candidates:
    c = Candidates(Question("u", query, 5, preset, CURRENT), Degraded(), 0.0)  # type: ignore[arg-type]
    facts = {"old": _fact("old", "ТТГ 4,8", 150), "other": _fact("other", "Тиме репетитор", 100),
             "new": _fact("new", "ТТГ пересдала: 2,9", 60)}
    c.facts.update(facts)
    c.final.update({"old": 0.9, "other": 0.8, "new": 0.7})
    c.vectors.update({"old": _unit([1, 0.2, 0]), "new": _unit([1, 0.25, 0.05]),
                      "other": _unit([0, 0, 1])})
    return c


def test_questions_about_now_in_three_languages() -> None:
    for text in ("Какой последний результат анализа?", "сколько я сейчас плачу за квартиру?",
                 "what is my current rent?", "Ile teraz płacę za mieszkanie?"):
        assert newer.asks_now(text), text
    for text in ("Когда у дочки праздник в садике?", "what did I buy in May?"):
        assert not newer.asks_now(text), text


def test_the_older_goes_below_the_newer_that_says_it_again() -> None:
    c = _candidates("какой сейчас у меня ТТГ?")
    assert newer.newer_first(c, NOW, 0.9) == 1
    order = sorted(c.final, key=lambda f: -c.final[f])
    assert order == ["other", "new", "old"]


def test_a_question_about_the_past_or_not_about_now_is_left_alone() -> None:
    for c in (_candidates("какой ТТГ был раньше?", HISTORY), _candidates("какой у меня ТТГ?")):
        assert newer.newer_first(c, NOW, 0.9) == 0
        assert sorted(c.final, key=lambda f: -c.final[f]) == ["old", "other", "new"]


def test_records_that_say_other_things_stay_where_they_are() -> None:
    c = _candidates("какой сейчас у меня ТТГ?")
    c.vectors["new"] = _unit([0, 1, 0])
    assert newer.newer_first(c, NOW, 0.9) == 0
