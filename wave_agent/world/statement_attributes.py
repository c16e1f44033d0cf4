"""Which of the person's own attributes a statement sets, learned from the months' labels: one
logistic regression per attribute over the statement's e5 vector (multilingual-e5-small, the
writer's embedding), trained by ``scripts/train_statement_attributes.py`` on the labelled
statements of the honest months (one author each), stored as ``statement_attributes.npz`` (no
pickle).

Used where the hand rules read no value of an attribute the head is sure the statement sets:
the value is then taken from the candidates the world reader's reading already has (``TAKES``:
a place it tagged for the city, "первая ночь в Казани", "долетели! мы в Калининграде"), never
invented. A value the rules read stands as it is. See docs/architecture.md ("Attributes").
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from pathlib import Path

import numpy as np

from graph.models import EntityType

READS = "multilingual-e5-small"  # the one embedding model the head was trained on
DIM = 384
PATH = Path(__file__).with_name("statement_attributes.npz")

# the attributes the head is trained for (a price by its kind)
HEAD = ("city", "employer", "role", "partner", "pet", "diet", "habit", "hobby", "phone", "age",
        "price", "vehicle", "device", "condition", "allergy", "child", "sibling", "birthday")

# the attributes a sure head fills from the reading's mentions, with the mention type taken
# and the probability at or above which it does (chosen leaving one month out)
TAKES: Mapping[str, tuple[EntityType, float]] = {
    "city": (EntityType.PLACE, 0.7),
    "partner": (EntityType.PERSON, 0.7),
}


def save(path: Path, weights: np.ndarray, bias: np.ndarray) -> None:
    np.savez(path, weights=weights.astype(np.float32), bias=bias.astype(np.float32),
             attributes=np.asarray(HEAD))


@functools.cache
def _model(path: Path = PATH) -> tuple[np.ndarray, np.ndarray, tuple[str, ...]] | None:
    if not path.exists():
        return None
    with np.load(path, allow_pickle=False) as data:
        return (np.asarray(data["weights"]), np.asarray(data["bias"]),
                tuple(str(a) for a in data["attributes"]))


def probabilities(model_name: str, vector: np.ndarray | None) -> dict[str, float]:
    """How sure the head is that the statement sets each of the person's attributes; empty for
    a vector of another model (the head reads only the vectors it was trained on)."""
    model = _model()
    if model is None or vector is None or model_name != READS or np.shape(vector) != (DIM,):
        return {}
    weights, bias, names = model
    p = 1 / (1 + np.exp(-(weights @ np.asarray(vector, dtype=np.float32) + bias)))
    return {name: float(v) for name, v in zip(names, p, strict=True)}
