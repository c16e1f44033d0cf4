"""The learned small-talk judge (``wave_agent/policy/smalltalk.py``) on lines written for this
test, in none of its training data: moods and comments on the day in a person's own words are
small talk; statements about their life, also short or negative ones, are not."""

from __future__ import annotations

import pytest

from archive.embedder import Embedder
from wave_agent.policy import smalltalk

SMALL_TALK = [
    "Голова раскалывается весь день, жуть.",
    "Ну и слякоть на улице, промок до нитки.",
    "Всё, выключаю свет, спокойной ночи.",
    "Jestem dziś strasznie zmęczony.",
    "man, this rain just won't stop",
]
STATEMENTS = [
    "Моя жена работает стоматологом в Твери.",
    "У меня диабет второго типа.",
    "Mój brat mieszka w Poznaniu.",
    "I teach maths at a secondary school in Bristol.",
    "Я не ем глютен, у меня целиакия.",
]


def test_the_judge_drops_no_statement_and_ranks_small_talk_above_statements(
    embedder: Embedder,
) -> None:
    """No statement reaches the threshold, every small-talk line scores above every statement,
    and some cross it. Measured on these fresh lines: two of five cross (0.60, 0.62); the
    others score 0.36-0.48, under the 0.56 that keeps out-of-fold statement loss <= 0.5%, so
    the phrase lists must catch them or they are stored: the known limit (docs/benchmarks.md,
    "A month of chat")."""
    if embedder.model_name != smalltalk.READS:
        pytest.skip("the judge reads multilingual-e5-small vectors only")
    vectors = embedder.embed_sync(SMALL_TALK + STATEMENTS)
    p = [smalltalk.probability(embedder.model_name, v) or 0.0 for v in vectors]
    small, said = p[:len(SMALL_TALK)], p[len(SMALL_TALK):]
    threshold = smalltalk.model().threshold  # type: ignore[union-attr]
    assert max(said) < threshold, list(zip(STATEMENTS, said, strict=True))
    assert min(small) > max(said), (small, said)
    assert sum(x >= threshold for x in small) >= 2, list(zip(SMALL_TALK, small, strict=True))


def test_another_models_vector_is_not_judged() -> None:
    import numpy as np

    assert smalltalk.probability("all-MiniLM-L6-v2", np.zeros(384, dtype=np.float32)) is None
    assert not smalltalk.is_small_talk("all-MiniLM-L6-v2", np.zeros(384, dtype=np.float32))
