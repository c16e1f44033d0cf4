"""Whether the records a question reaches are notes of the kind the query map was trained on
(``kind.npz``; ``RECALL_QUERY_ADAPTER=auto``, the default).

The query map (``recall.adapter``) learned to move a question toward the short personal notes
of the memory sets; over chat transcripts (LoCoMo's dialogues, LongMemEval's user and
assistant turns) the same move costs recall (docs/benchmarks.md, "Round twenty-one" and
"Round twenty-two (2026-12-06, h/recall20)"). The switch is a logistic regression over a
stored record's e5 passage vector: the probability that it is such a note, trained on the
memory sets' facts against LoCoMo's and LongMemEval's tuning turns, the language directions
projected out (``scripts/train_record_kind.py``). A question
moves by the map when the mean probability over the ``NEAREST`` records that plain e5 finds
first is at least one half: the regression's own boundary, no threshold fitted to a figure.
Nothing is embedded again: the vectors are the stored ones.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import numpy as np

MODEL = Path(__file__).parent / "kind.npz"
NEAREST = 10  # the plain query's nearest records that decide


@lru_cache(maxsize=1)
def weights() -> tuple[np.ndarray, float] | None:
    """``(w, b)`` of the regression, or None when the file is absent."""
    if not MODEL.exists():
        return None
    with np.load(MODEL, allow_pickle=False) as d:
        return np.asarray(d["w"], dtype=np.float32), float(d["b"])


def save(w: np.ndarray, b: float, path: Path = MODEL, **meta: object) -> None:
    arrays: dict[str, np.ndarray] = {k: np.asarray(v) for k, v in meta.items()}
    arrays["w"] = np.asarray(w, dtype=np.float32)
    arrays["b"] = np.asarray(b, dtype=np.float32)
    np.savez_compressed(path, **arrays)  # type: ignore[arg-type]


def probability(vectors: np.ndarray, w: np.ndarray, b: float) -> np.ndarray:
    """Each row's probability of being a note (rows: stored e5 passage vectors)."""
    z = np.asarray(vectors, dtype=np.float32) @ w + b
    return np.asarray(1.0 / (1.0 + np.exp(-z)))


def decide(probabilities: np.ndarray) -> bool:
    """The map moves the question when its nearest records are notes on average."""
    return bool(len(probabilities)) and float(np.mean(probabilities)) >= 0.5


def notes(vectors: list[np.ndarray]) -> bool:
    """Whether these stored vectors (a question's plain nearest records) are notes; True
    without the file (the map then acts as it did before the switch) or without vectors."""
    fitted = weights()
    if fitted is None or not vectors or any(v.shape != fitted[0].shape for v in vectors):
        return True
    return decide(probability(np.stack(vectors), *fitted))
