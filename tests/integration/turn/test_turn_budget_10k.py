"""The budget holds with 10,000 facts for the user and every layer asking too much."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from episodes.models import EpisodeEntry
from wave_agent.bench.turn import _load
from wave_agent.conversation.composer import (
    DEEPER_WINDOW,
    EXCERPTS,
    FRAME,
    LAST_EXCHANGE,
    NOTES,
    PERSONA,
    SUMMARY,
    Exchange,
)
from wave_agent.services import Services
from wave_agent.settings import Settings

pytestmark = pytest.mark.slow


@pytest.fixture
def settings(settings: Settings) -> Settings:
    """Every layer must answer for the budget to be tested. At load 20 the excerpt read over
    10,000 facts took longer than the default 2 s store timeout (a load run): that
    tests the timeout, not the budget, so here a slow store is waited for (up to 60 s)."""
    return settings.model_copy(update={"store_timeout_s": 60.0})


async def test_budget_holds_with_ten_thousand_facts_and_greedy_layers(
    offline: Services, user_id: str
) -> None:
    await _load(offline, user_id, 10_000)
    now = datetime.now(UTC)
    # Core blocks full, three days of long episode logs, a long session window.
    blocks = await offline.blocks()
    await blocks.set(user_id, "human", ("- The user likes long walks by the sea. " * 80)[:2990],
                     reason="test")
    episodes = await offline.episodes()
    for day in range(3):
        at = now - timedelta(days=day, minutes=5)
        await episodes.append(user_id, [EpisodeEntry(f"Episode {day}-{i}: " + "e" * 150, at=at)
                                        for i in range(60)], key=f"k-{day}")
    turns = await offline.turns()
    await turns.prepare(user_id, "hello there, how are you?")
    session = turns.sessions.log.current(user_id)
    assert session is not None
    for i in range(60):
        turns.sessions.log.add(session.id, user_id, Exchange(
            f"x-{i}-{user_id}", f"message {i} about Berlin and green tea " + "m" * 900,
            f"reply {i} " + "r" * 900, now))

    composition = await turns.prepare(user_id, "what did Anna recommend to me in Berlin?")
    layers = {layer.name: layer for layer in composition.layers}
    budget = offline.settings.prompt_budget_chars
    assert composition.budget_chars == budget == 18_000
    # Every layer asks for a lot; together far more than the ceiling.
    assert layers[SUMMARY].asked_chars > 5_000
    assert layers[NOTES].asked_chars > budget * 0.9
    assert layers[DEEPER_WINDOW].asked_chars > budget
    assert layers[EXCERPTS].asked_items >= 4
    assert sum(layers[n].asked_chars for n in (SUMMARY, NOTES, EXCERPTS, DEEPER_WINDOW)) > 3 * budget
    # The right gives way first: the summary is whole, the notes are cut, the window is gone.
    assert layers[SUMMARY].got_chars == layers[SUMMARY].asked_chars
    assert 0 < layers[NOTES].got_chars < layers[NOTES].asked_chars
    assert layers[DEEPER_WINDOW].got_chars == 0
    # The ceiling holds, and the accounting is the prompt's real size.
    assert composition.spent_chars <= budget
    outside = layers[PERSONA].got_chars + layers[FRAME].got_chars
    assert composition.prefix_chars - outside == composition.spent_chars
    assert layers[LAST_EXCHANGE].got_chars == layers[LAST_EXCHANGE].asked_chars > 1_800
    assert layers[PERSONA].got_chars > 2_900  # outside the budget, never cut
    assert len(composition.excerpt_ids) <= 4
    assert not any(m.content and "excerpt" in m.content.lower() for m in composition.prefix)
