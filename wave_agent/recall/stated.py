"""Which records state the person's single-valued attribute a question about now asks for, read
from meaning (issue 30, round twenty-three: the newest statement first).

A value that changed is often left active twice (the writer did not see that "Пишу уже с нового
телефона — взяла Samsung Galaxy S24" replaces "My phone is an iPhone 11"): the attribute reader
tagged the old record only, or neither, and recall put the old one first ("What phone do I have
now?" answered iPhone 11; month 20 put a stale value above the current one 7 times of 10). A
cosine between the two records cannot tell such a pair from two unrelated records (0.85-0.89
against 0.79-0.87 on month 20), and the now-word step (``recall.newer``) waits for "сейчас".

So one logistic regression per single-valued attribute of the person (city, employer, role,
partner, phone, age, diet, vehicle, device) reads a record's stored e5 vector: does it state
the person's value of that attribute? It is trained by ``scripts/train_stated.py`` on every
message of the tuning months, labelled by their writers with the values each sets (the person's
own, ``entity`` "user"); held out by author, p >= 0.8 finds 72-100% of such statements with few
false positives (``scripts/month_meaning_head.py``). As a writer's step it was not shipped (a
wrong replacement drops a true value); here a wrong reading only reorders records that recall
already chose. Prices are left out: several prices are held at once, each single-valued.

``newest_first`` reorders recall's chosen records: the places held by records that state the
asked attribute (read by this head, or tagged by the writer) are given to those records newest
first; every other record keeps its place.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from functools import lru_cache
from pathlib import Path

import numpy as np

MODEL = Path(__file__).parent / "stated.npz"
DIM = 384
ATTRIBUTES = ("city", "employer", "role", "partner", "phone", "age", "diet", "vehicle", "device")


@dataclass(frozen=True, slots=True)
class Model:
    attributes: tuple[str, ...]
    weights: np.ndarray  # (attributes, DIM)
    bias: np.ndarray     # (attributes,)
    threshold: float

    def states(self, attribute: str, vector: np.ndarray) -> bool:
        """Whether the record whose stored e5 vector is ``vector`` states the person's
        ``attribute`` (False for an attribute the model has no head for)."""
        if attribute not in self.attributes or np.shape(vector) != (DIM,):
            return False
        j = self.attributes.index(attribute)
        z = float(np.asarray(vector, dtype=np.float32) @ self.weights[j] + self.bias[j])
        return bool(1.0 / (1.0 + np.exp(-z)) >= self.threshold)


@lru_cache(maxsize=1)
def model() -> Model | None:
    """The trained heads, or None when the file is absent."""
    if not MODEL.exists():
        return None
    with np.load(MODEL, allow_pickle=False) as d:
        return Model(tuple(str(a) for a in d["attributes"]), d["w"].astype(np.float32),
                     d["b"].astype(np.float32), float(d["threshold"]))


def save(m: Model, path: Path = MODEL) -> None:
    np.savez_compressed(path, attributes=np.asarray(m.attributes),
                        w=m.weights.astype(np.float32), b=m.bias.astype(np.float32),
                        threshold=np.asarray(m.threshold))


def newest_first(chosen: Sequence[str], states: Callable[[str], bool],
                 created: Callable[[str], datetime]) -> list[str]:
    """``chosen`` with the records that ``states`` (they state the asked value) put in the
    places such records hold, newest first (``created``); the others keep their places."""
    places = [i for i, fid in enumerate(chosen) if states(fid)]
    if len(places) < 2:
        return list(chosen)
    out = list(chosen)
    for i, fid in zip(places, sorted((chosen[i] for i in places), key=created, reverse=True),
                      strict=True):
        out[i] = fid
    return out


__all__ = ["ATTRIBUTES", "Model", "model", "newest_first", "save"]
