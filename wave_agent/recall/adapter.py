"""A learned map of the question's e5 vector toward the records that answer it (``adapter.npz``).

e5 embeds a question and a statement of the answer in slightly different places: "какой у меня
размер обуви?" and "купила кроссовки, 38-й размер" share little but meaning. The stored passage
vectors stay as they are (nothing is embedded again); only the query vector is moved:
``q' = normalise(q + q @ W.T)``, ``W`` a 384 x 384 matrix trained with a contrastive loss (each
question against every fact of its own set, the facts that answer it as positives) on the
memory sets' questions and LoCoMo's tuning conversations, held near zero by weight decay and
stopped early by held-out authors (``scripts/train_query_adapter.py``; figures in
docs/benchmarks.md, "Round seventeen").

Recall's semantic voice searches with the adapted vector, and the ranker's cosine features and
the meaning factor read it (``Candidates.query_vector``). The moved vector's cosines with the
stored ones sit lower and wider than plain e5's (about 0.1-0.3 against 0.75-0.9), and the trees
and the calibration were fitted on plain e5's: ``cosine_map`` gives the affine map, fitted with
the weights (the mean and spread of each training question's 30 nearest facts), that puts them
back on plain e5's scale before anything reads their values. The attribute heads (``recall.asked``)
read the plain vector: they were trained on it. ``RECALL_QUERY_ADAPTER``: ``all`` (the default),
``search`` (the semantic voice's search only; the features read the plain vector), ``off``.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import numpy as np

MODEL = Path(__file__).parent / "adapter.npz"
DIM = 384
READS = "multilingual-e5-small"  # the one embedding model the map was trained on


@lru_cache(maxsize=1)
def weights() -> np.ndarray | None:
    """``W`` (DIM x DIM, float32), or None when the file is absent."""
    if not MODEL.exists():
        return None
    with np.load(MODEL, allow_pickle=False) as d:
        return np.asarray(d["w"], dtype=np.float32)


@lru_cache(maxsize=1)
def cosine_map() -> tuple[float, float]:
    """``(scale, shift)``: an adapted cosine ``x`` reads as ``scale * x + shift`` on plain e5's
    scale; ``(1, 0)`` without the file."""
    if not MODEL.exists():
        return 1.0, 0.0
    with np.load(MODEL, allow_pickle=False) as d:
        if "cos_scale" not in d:
            return 1.0, 0.0
        return float(d["cos_scale"]), float(d["cos_shift"])


def save(w: np.ndarray, path: Path = MODEL, **meta: object) -> None:
    arrays: dict[str, np.ndarray] = {k: np.asarray(v) for k, v in meta.items()}
    arrays["w"] = np.asarray(w, dtype=np.float32)
    np.savez_compressed(path, **arrays)  # type: ignore[arg-type]


def reads(model_name: str) -> bool:
    """Whether the map moves this model's query vectors (its model, and the file shipped)."""
    return model_name == READS and weights() is not None


def adapt(model_name: str, vector: np.ndarray) -> np.ndarray:
    """The question's vector moved by the map; unchanged when the map cannot read it (another
    embedding model, another dimension, no file)."""
    w = weights()
    q = np.asarray(vector, dtype=np.float32)
    if w is None or model_name != READS or q.shape != (DIM,):
        return q
    moved = q + w @ q
    norm = float(np.linalg.norm(moved))
    return (moved / norm).astype(np.float32) if norm > 0 else q
