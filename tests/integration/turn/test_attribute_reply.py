"""The chat turn answers "where do I live now?" from the graph's current value (issue 30):
after a move told on another day, the offline reply holds the new city and not the old one,
and "where did I live before?" holds the old one. The real Neo4j, Qdrant local, e5, natasha;
offline (no model), each message at its own time."""

from __future__ import annotations

from datetime import datetime

import pytest

from tests.support.replay import replay
from wave_agent.services import Services

HISTORY = (
    ("2026-11-01T09:00+03:00", "Я живу в Самаре, работаю бухгалтером."),
    ("2026-11-02T19:30+03:00", "Вчера ходила с подругой в кино, фильм так себе."),
    ("2026-11-03T08:15+03:00", "Сестра зовёт в гости на выходные."),
    ("2026-11-12T10:00+03:00", "Переехала в Казань, всё ещё разбираю коробки."),
)
ASKED_AT = "2026-11-20T12:00+03:00"


async def test_the_offline_reply_holds_the_current_city_and_the_old_one_for_the_past(
    offline: Services, user_id: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    await replay(offline, user_id, HISTORY, monkeypatch)
    turns = await offline.turns()
    monkeypatch.setenv("WAVE_NOW", ASKED_AT)
    now = datetime.fromisoformat(ASKED_AT)

    reply = (await turns.handle(user_id, "где я сейчас живу?", now=now)).reply
    assert "Казан" in reply and "Самар" not in reply, reply

    before = (await turns.handle(user_id, "а где я жила раньше?", now=now)).reply
    assert "Самар" in before, before
