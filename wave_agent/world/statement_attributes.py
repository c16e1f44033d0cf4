"""Which of the person's own attributes a statement sets, learned from the months' labels: one
logistic regression per attribute over the statement's e5 vector (multilingual-e5-small, the
writer's embedding), trained by ``scripts/train_statement_attributes.py`` on the labelled
statements of the honest months (one author each), stored as ``statement_attributes.npz`` (no
pickle).

Used as a gate on what the hand rules read (``kept``): a new employer or role of the person
that the head is sure the statement does not set is left out. The rules read a role in "я
свидетельница", "всё, я пешеход", "я тётя!!", "я коренная нижегородка", an employer in "Тёму
перевели в гимназию №7" or "закончила мехмат ННГУ"; each would replace the value the person
holds. Leaving one author out over twenty-three authors, no role or employer the labels hold
fell under ``VETO``. See docs/architecture.md ("Attributes").
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from pathlib import Path

import numpy as np

from wave_agent.world.attributes import Value
from wave_agent.world.reading import USER

READS = "multilingual-e5-small"  # the one embedding model the head was trained on
DIM = 384
PATH = Path(__file__).with_name("statement_attributes.npz")

# the attributes the head is trained for (a price by its kind)
HEAD = ("city", "employer", "role", "partner", "pet", "diet", "habit", "hobby", "phone", "age",
        "price", "vehicle", "device", "condition", "allergy", "child", "sibling", "birthday")

# the person's single values the gate may leave out, and the probability under which it does.
# Leaving one month out over 23 authors, 0.3 left out 13 roles and 5 employers no label holds
# and none a label holds (none of those fell under 0.5). Not the city nor the partner: their
# labelled values fell to 0.42-0.43, and a plain move ("Переехала в Самару, уже неделю тут
# живу") scores 0.33.
GATED = frozenset({"employer", "role"})
VETO = 0.3

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


def kept(values: Sequence[Value], sure: Mapping[str, float]) -> tuple[Value, ...]:
    """``values`` less each new employer or role of the person's (``set`` of a ``GATED``
    attribute) the head is sure the statement does not set; an ending, a denial, someone
    else's value and every other attribute stand. No probabilities (another embedding model,
    no file): all stand."""
    return tuple(v for v in values if not (
        v.entity == USER and v.op == "set" and v.attribute in GATED
        and sure.get(v.attribute, 1.0) < VETO))
