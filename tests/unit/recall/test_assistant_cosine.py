"""The cosine weighed in over an assistant's chat history (``RecallConfig.assistant_cosine``,
``learned.with_cosine``): over a history with an AI assistant the record e5 finds nearest the
question can overtake one the trees prefer by a little; notes and a chat between people (no
record said by an assistant) keep the trees' order exactly."""

from __future__ import annotations

import numpy as np

from wave_agent.recall import learned

# the trees prefer record 0 by a little; e5 finds record 2 nearest by far
P = np.array([0.60, 0.30, 0.55, 0.10], dtype=np.float32)
COSINE = np.array([0.40, 0.35, 0.70, 0.30])


def test_over_an_assistant_history_the_turn_nearest_in_meaning_comes_first() -> None:
    said_by_assistant = np.array([1.0, 0.0, 0.0, 1.0])  # half the candidates
    out = learned.with_cosine(P, COSINE, said_by_assistant, 4.0)
    assert int(np.argmax(out)) == 2
    assert int(np.argmin(out)) == 3  # far in meaning and least likely: still last


def test_notes_and_talk_between_people_keep_the_trees_order() -> None:
    nobody_assistant = np.zeros(4)
    out = learned.with_cosine(P, COSINE, nobody_assistant, 4.0)
    assert np.array_equal(out, P)


def test_a_weight_of_zero_switches_it_off() -> None:
    out = learned.with_cosine(P, COSINE, np.ones(4), 0.0)
    assert np.array_equal(out, P)


def test_the_more_of_the_pool_an_assistant_said_the_more_meaning_counts() -> None:
    little = learned.with_cosine(P, COSINE, np.array([1.0, 0.0, 0.0, 0.0]), 1.0)
    much = learned.with_cosine(P, COSINE, np.ones(4), 1.0)
    # record 2's lead over record 0 (the trees' first) grows with the assistant's share
    assert much[2] - much[0] > little[2] - little[0]
