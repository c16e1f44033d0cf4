"""A dated history replayed through the chat turn at its own times (issue 30, item 8): every
stamp the writer sets comes from the one clock, and the same replay ranks the same way, whatever
the wall-clock milliseconds between its writes."""

from __future__ import annotations

from datetime import datetime

import pytest

from graph.models import Status
from tests.support.replay import replay
from wave_agent.services import Services

HISTORY = (
    ("2026-11-01T09:00+03:00", "Я живу в Самаре, работаю бухгалтером."),
    ("2026-11-02T19:30+03:00", "У меня кот Барсик, ему три года."),
    ("2026-11-05T08:15+03:00", "Плачу за квартиру 25 тысяч в месяц."),
    ("2026-11-09T21:00+03:00", "Теперь плачу за квартиру 30 тысяч в месяц."),
    ("2026-11-12T10:00+03:00", "Я переехала в Казань."),
)
ASKED_AT = "2026-11-20T12:00+03:00"
QUESTIONS = ("где я живу?", "сколько я плачу за квартиру?", "как зовут моего кота?")


async def _ranks(services: Services, user_id: str) -> list[list[str]]:
    engine = await services.recall()
    return [[h.fact.text for h in await engine.search(user_id, q, k=5)] for q in QUESTIONS]


async def test_a_replay_is_stamped_by_the_clock_and_ranks_the_same_twice(
    offline: Services, user_id: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    first, second = f"{user_id}-a", f"{user_id}-b"
    await replay(offline, first, HISTORY, monkeypatch)
    await replay(offline, second, HISTORY, monkeypatch)
    monkeypatch.setenv("WAVE_NOW", ASKED_AT)
    ranks = await _ranks(offline, first)
    assert ranks == await _ranks(offline, second)
    assert any(ranks), "the replay stored nothing to rank"

    said_at = {datetime.fromisoformat(at) for at, _ in HISTORY}
    graph = await offline.graph()
    facts = await graph.list_facts(first, statuses=None)
    assert facts
    for fact in facts:  # created and confirmed at a message's time, never at the wall clock's
        assert fact.created_at in said_at, (fact.text, fact.created_at)
        assert fact.last_confirmed_at in said_at, (fact.text, fact.last_confirmed_at)
    replaced = [f for f in facts if f.status is Status.SUPERSEDED]
    for old in replaced:  # its successor was written on the day of the change
        new = next(f for f in facts if f.id == old.superseded_by)
        assert new.created_at in said_at and new.created_at >= old.created_at
    for proposal in await graph.list_proposals(first, status=None):
        assert proposal.created_at in said_at, proposal
