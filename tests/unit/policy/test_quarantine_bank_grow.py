"""``scripts/train_quarantine.py --bank-only``: a newer author's texts join the meaning layer's
exemplar bank without refitting anything, so a text close to that author's order is voted an
order, while the network, the window model and the thresholds stay as they were."""

from __future__ import annotations

from pathlib import Path
from types import ModuleType

import numpy as np
import pytest

from tests.support.meaning_model import saved_model
from tests.support.scripts import load_script
from wave_agent.policy.quarantine import meaning
from wave_agent.policy.quarantine.normalise import normalise


def _trainer() -> ModuleType:
    return load_script("train_quarantine")


def _unit(rows: np.ndarray) -> np.ndarray:
    return rows / np.linalg.norm(rows, axis=1, keepdims=True)


def test_a_new_authors_order_joins_the_bank_and_its_neighbours_read_it(tmp_path: Path) -> None:
    tq = _trainer()
    rng = np.random.default_rng(1)
    notes = _unit(rng.normal(size=(30, meaning.DIM)))
    width = meaning.DIM + 3 + len(meaning.CUES) + 2
    layers = [(rng.normal(size=(width, 1)).astype(np.float32), np.zeros(1, dtype=np.float32))]
    path = tmp_path / "meaning.npz"
    meaning.save(path, layers, 0.6, 0.4, by_language={"en": (0.7, 0.5)}, bank=(notes, np.zeros(30)))
    with np.load(path) as data:
        kept = {k: data[k].copy() for k in data.files if not k.startswith("bank")}

    # a new hand's order, unlike any exemplar: its nearest are notes, so its vote is "note"
    order = rng.normal(size=meaning.DIM)
    seen = normalise("text")
    old = saved_model(path)
    assert old is not None
    assert old.features(order, seen, False, False)[-2] < 0.01

    # the new author's texts: the order and a paraphrase of it, and one of the notes again
    paraphrase = order + 0.2 * rng.normal(size=meaning.DIM)
    before, after = tq.grow_file(path, np.vstack([paraphrase, order, notes[3] * 2.0]), np.array([1, 1, 0]))
    assert (before, after) == (30, 32)  # the note the bank holds already is not added twice
    grown = saved_model(path)
    assert grown is not None and grown.bank is not None
    assert grown.bank[1].tolist() == [0] * 30 + [1, 1]
    assert grown.features(order + 0.1 * rng.normal(size=meaning.DIM), seen, False, False)[-2] > 0.99
    # the network, the thresholds and every array but the bank as they were
    with np.load(path) as data:
        assert {k for k in data.files if not k.startswith("bank")} == set(kept)
        for k, v in kept.items():
            assert np.array_equal(data[k], v), k
    assert np.allclose(grown.bank[0][:30], old.bank[0], atol=1e-6)  # type: ignore[index]

    # run again with the same author: nothing more is added
    assert tq.grow_file(path, np.vstack([paraphrase, order]), np.array([1, 1])) == (32, 32)


def test_authors_are_named_by_range_in_the_order_they_were_written() -> None:
    tq = _trainer()
    assert tq.named_authors("x..ab") == ["x", "y", "z", "aa", "ab"]
    assert tq.named_authors("aw,x..y,aw") == ["aw", "x", "y"]
    with pytest.raises(SystemExit):
        tq.named_authors("x..zz")

