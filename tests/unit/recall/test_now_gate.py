"""The now/stable gate on the attribute step (``asked.p_now``, ``now_gate.npz``; round
thirty-one, h/gate31): questions written for this test, in none of the sets it was fitted on,
about a value that changes are read as about now, questions about a fact that never changed as
stable; another embedding model is not read; the engine's switch lets the override run for a
past value, with the gate off, or where the gate reads the question as about now."""

from __future__ import annotations

import numpy as np
import pytest

from archive.embedder import Embedder
from wave_agent.recall import RecallConfig, asked
from wave_agent.recall.asked import Asked
from wave_agent.recall.engine import Recall

NOW = ["а в каком городе я сейчас живу?", "какой у меня теперь номер телефона?",
       "сколько я сейчас плачу за съём?", "gdzie teraz pracuję?"]
STABLE = ["какой номер у квитанции из химчистки?", "как звали учительницу сына в первом классе?",
          "какого цвета был торт на свадьбе сестры?", "jak miał na imię pies babci?"]


@pytest.fixture(scope="module")
def vectors(embedder: Embedder) -> dict[str, np.ndarray]:
    if embedder.model_name != asked.READS or asked.now_gate() is None:
        pytest.skip("the gate reads multilingual-e5-small vectors only")
    texts = NOW + STABLE
    return {t: np.asarray(v) for t, v in zip(texts, embedder.embed_query_sync(texts), strict=True)}


def test_questions_about_now_and_about_what_never_changed_are_told_apart(
        vectors: dict[str, np.ndarray]) -> None:
    p = {t: asked.p_now(asked.READS, v) for t, v in vectors.items()}
    wrong = [t for t in NOW if (p[t] or 0.0) < 0.5] + [t for t in STABLE if (p[t] or 1.0) >= 0.5]
    assert len(wrong) <= 1, (wrong, p)  # one of eight may be misread


def test_another_embedding_model_is_not_read() -> None:
    assert asked.p_now("all-MiniLM-L6-v2", np.ones(384, dtype=np.float32)) is None
    assert asked.p_now(asked.READS, None) is None


@pytest.mark.parametrize(("least", "past", "now", "runs"), [
    (None, False, 0.01, True),   # the gate off: the override runs whatever the question
    (0.5, False, 0.9, True),     # about now
    (0.5, False, 0.1, False),    # a fact that never changed: recall's own order stands
    (0.5, True, 0.1, True),      # a past value: always
    (0.5, False, None, True),    # the gate cannot read the vector: as before it
])
def test_the_switch_decides_where_the_override_runs(
        least: float | None, past: bool, now: float | None, runs: bool) -> None:
    engine = object.__new__(Recall)
    engine.config = RecallConfig(attribute_now_gate=least)
    assert engine._gate_keeps(Asked("city", 0.9, past, 0.9 if past else 0.1), now) is runs
