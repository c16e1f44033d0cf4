"""Small talk, judged from meaning: the e5 embedding of a whole chat message and a logistic
regression trained on labelled lines (issue 30, item 7).

Weather, a passing mood, "пойду спать", greetings, thanks and questions to the bot are not
memory. The offline extractor's phrase lists catch the set phrases; a mood or a comment on the
day in a person's own words ("Ломает без сигарет, жесть", "Столовая тут так себе") reads as a
statement to them. This judge reads the message's passage vector (the one the post-processor
computes for the quarantine check, multilingual-e5-small) and gives the probability that the
message holds nothing worth remembering. A message it calls small talk stores nothing.

The model (``smalltalk.npz``: weights, bias and threshold, float arrays, no pickle) is trained by
``scripts/train_smalltalk.py`` on ``bench/data/smalltalk/tuning.json`` and the tune split of
``bench/data/offline_lines.txt``; the threshold is the lowest whose out-of-fold loss of
statements stays at or under 0.5% (a lost statement costs more than stored small talk). ``wave bench smalltalk`` measures it.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np

MODEL = Path(__file__).parent / "smalltalk.npz"
DIM = 384
READS = "multilingual-e5-small"  # the one embedding model the judge was trained on


@dataclass(frozen=True, slots=True)
class Model:
    weights: np.ndarray
    bias: float
    threshold: float

    def probability(self, vector: np.ndarray) -> float:
        z = float(np.asarray(vector, dtype=np.float32).ravel() @ self.weights + self.bias)
        return float(1.0 / (1.0 + np.exp(-z)))


@lru_cache(maxsize=1)
def model() -> Model | None:
    """The trained judge, or None when the file is absent."""
    if not MODEL.exists():
        return None
    with np.load(MODEL, allow_pickle=False) as data:
        return Model(data["w"].astype(np.float32), float(data["b"]), float(data["threshold"]))


def save(weights: np.ndarray, bias: float, threshold: float, path: Path = MODEL) -> None:
    np.savez_compressed(path, w=weights.astype(np.float32), b=np.asarray(bias),
                        threshold=np.asarray(threshold))


def probability(model_name: str, vector: np.ndarray | None) -> float | None:
    """How likely the message is small talk; None when there is no judge for this vector
    (another embedding model, no model file): then the phrase lists decide alone."""
    judge = model()
    if judge is None or vector is None or model_name != READS or np.shape(vector) != (DIM,):
        return None
    return judge.probability(vector)


def is_small_talk(model_name: str, vector: np.ndarray | None) -> bool:
    """The judge's verdict at its trained threshold (False when it cannot judge)."""
    p = probability(model_name, vector)
    return p is not None and p >= (model() or Model(np.zeros(0), 0.0, 1.0)).threshold
