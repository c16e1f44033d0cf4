"""The e5-order step (``RecallConfig.e5_order``, ``recall.order``): when it acts, the record
the question's e5 cosine puts first is the one recall hands the best score to, and the scores
MMR and the later steps read keep their scale; without a fitted switch, "auto" leaves the
learned order alone."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from wave_agent.recall import learned, order
from wave_agent.recall.config import RecallConfig


def test_the_turn_e5_finds_nearest_gets_the_best_score_and_the_scale_stays() -> None:
    learned_values = np.array([0.9, 0.5, 0.3, 0.1])  # the trees put record 0 first
    cosine = np.array([0.41, 0.38, 0.62, 0.40])      # e5 finds record 2 nearest
    out = order.e5_first(learned_values, cosine)
    assert int(np.argmax(out)) == 2
    assert list(np.argsort(-out)) == [2, 0, 3, 1]
    assert sorted(out) == sorted(learned_values)  # the same values, handed out again


def test_the_pool_is_read_as_the_trees_read_it() -> None:
    x = np.zeros((3, len(learned.FEATURES)), dtype=np.float32)
    x[:, learned.FEATURES.index("log_words")] = [2.0, 4.0, 5.0]
    pool = order.pool_of(x)
    derived = learned.derive(x)[0]
    assert pool["pool_words"] == pytest.approx(derived[learned.ALL.index("pool_words")])
    assert pool["pool_size"] == pytest.approx(derived[learned.ALL.index("pool_size")])


def test_without_a_fitted_switch_auto_keeps_the_learned_order(monkeypatch: pytest.MonkeyPatch,
                                                              tmp_path: Path) -> None:
    monkeypatch.setattr(order, "MODEL", tmp_path / "absent.npz")
    order.weights.cache_clear()
    try:
        assert order.probability({"pool_words": 5.0, "pool_size": 5.0}) is None
        assert not order.prefers_e5({"pool_words": 5.0, "pool_size": 5.0})
    finally:
        order.weights.cache_clear()
    assert RecallConfig().e5_order == "off"


def test_a_fitted_switch_decides_by_its_own_boundary(monkeypatch: pytest.MonkeyPatch,
                                                     tmp_path: Path) -> None:
    path = tmp_path / "order.npz"
    order.save(("pool_words", "pool_size"), np.array([3.0, 5.0]), np.array([1.0, 1.0]),
               np.array([2.0, 0.0]), 0.0, path=path)
    monkeypatch.setattr(order, "MODEL", path)
    order.weights.cache_clear()
    try:
        assert order.prefers_e5({"pool_words": 4.5, "pool_size": 5.0})  # long turns
        assert not order.prefers_e5({"pool_words": 2.5, "pool_size": 5.0})  # short notes
    finally:
        order.weights.cache_clear()
