"""Whether a question's candidates are better left in e5's order than in the learned one
(``RecallConfig.e5_order``; ``order.npz``, ``scripts/train_order_switch.py``).

The learned trees were trained on short personal notes and LoCoMo's short dialogue turns,
where a record's neighbours and the other voices say what its own cosine cannot; over long,
self-contained chat turns (LongMemEval's histories) the same lifts move the right turn below
where its own cosine put it (docs/benchmarks.md, "Round twenty-five (2026-12-06,
h/recall22)"). The switch is a logistic regression over what the whole candidate pool is like
(``learned.POOL``: the candidates' median length in words, log; how many there are, log): the
probability that the e5 order serves the question better, fitted on the sets' tuning
questions, each set weighing the same. No threshold is set by hand: the regression's own
boundary (one half) decides. No ``order.npz`` ships: fitted so far, it either fired on every set
(LoCoMo's kept-aside pair lost half its rank 1) or, with a LoCoMo tuning conversation in the
fit, on no LongMemEval question; "auto" without the file leaves the learned order alone.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import numpy as np

MODEL = Path(__file__).parent / "order.npz"


@lru_cache(maxsize=1)
def weights() -> tuple[tuple[str, ...], np.ndarray, np.ndarray, np.ndarray, float] | None:
    """``(names, mean, scale, w, b)`` of the regression, or None when the file is absent."""
    if not MODEL.exists():
        return None
    with np.load(MODEL, allow_pickle=False) as d:
        return (tuple(str(n) for n in d["names"]), np.asarray(d["mean"], dtype=np.float64),
                np.asarray(d["scale"], dtype=np.float64), np.asarray(d["w"], dtype=np.float64),
                float(d["b"]))


def save(names: tuple[str, ...], mean: np.ndarray, scale: np.ndarray, w: np.ndarray, b: float,
         path: Path = MODEL, **meta: object) -> None:
    arrays: dict[str, np.ndarray] = {k: np.asarray(v) for k, v in meta.items()}
    arrays.update(names=np.asarray(names), mean=np.asarray(mean), scale=np.asarray(scale),
                  w=np.asarray(w), b=np.asarray(b))
    np.savez_compressed(path, **arrays)  # type: ignore[arg-type]


def pool_of(x: np.ndarray) -> dict[str, float]:
    """``learned.POOL`` of one search's feature rows (``learned.FEATURES``), as ``derive``
    computes them."""
    from wave_agent.recall.learned import FEATURES

    return {"pool_words": float(np.median(x[:, FEATURES.index("log_words")])),
            "pool_size": float(np.log1p(len(x)))}


def probability(pool: dict[str, float]) -> float | None:
    """The probability that e5's order serves these candidates better (``pool``: the
    ``learned.POOL`` values of the question's candidates); None without the file."""
    fitted = weights()
    if fitted is None:
        return None
    names, mean, scale, w, b = fitted
    z = (np.asarray([pool[n] for n in names], dtype=np.float64) - mean) / scale
    return float(1.0 / (1.0 + np.exp(-(z @ w + b))))


def prefers_e5(pool: dict[str, float]) -> bool:
    p = probability(pool)
    return p is not None and p >= 0.5


def e5_first(final: np.ndarray, cosine: np.ndarray) -> np.ndarray:
    """The same values handed out in the order of ``cosine`` (highest first): what MMR and
    the steps after it read keeps its scale, only the order changes."""
    out = np.empty(len(final), dtype=np.float64)
    out[np.argsort(-np.asarray(cosine, dtype=np.float64), kind="stable")] = \
        np.sort(np.asarray(final, dtype=np.float64))[::-1]
    return out
