"""Worth remembering or small talk, judged from meaning: the e5 embedding of a whole chat
message and a logistic regression trained on labelled lines (issue 30, item 7).

Weather, a passing mood, "пойду спать", greetings, thanks and questions to the bot are not
memory. The offline extractor's phrase lists catch the set phrases; a mood or a comment on the
day in a person's own words ("Ломает без сигарет, жесть", "Столовая тут так себе") reads as a
statement to them. And the other way: a statement said in passing, with no pronoun and in slang
("доча поступила в вышку на бюджет", "got promoted to team lead today", "купили стиралку, 42к
отдали") has no first person for the extractor's rules to see, so it finds nothing in it.

This judge reads the message's passage vector (multilingual-e5-small) and gives the
probability that the message holds nothing worth remembering. It reads the message as sent:
not the provenance line the bot puts before a forwarded or quoting message, nor the quote in
«» (the turn carries the message as sent beside its text: ``Provenance.sent``, the outbox
payload's ``own_words``). It decides both ways, at two thresholds:
- at or above ``threshold`` a message the extractor kept a fact of is small talk: nothing stored;
- under ``keep`` a message the extractor found nothing in (but that reads as a statement, not a
  question or a greeting) is worth remembering: its stated part is kept as said.

The model (``smalltalk.npz``: weights, bias and both thresholds, float arrays, no pickle) is
trained by ``scripts/train_smalltalk.py`` on every ``bench/data/smalltalk/tuning*.json`` (lines,
and one author's conversations), the tune split of ``bench/data/offline_lines.txt``, the
messages of every labelled month (``bench/data/month/tuning*.json``, five authors) and the
statements of ``bench/data/attributes/tuning.json``; messages said in a conversation weigh
more than single lines. The thresholds are chosen out of fold, each author's part scored by a
model trained without it, keeping the months' statements >= 95% (together and each) and the
other sets' >= 90% together, with the least of the months' small talk. ``wave bench smalltalk``
measures it line by line, ``wave bench month`` in a month; ``train_smalltalk.py
--leave-one-month-out`` is the predictor for a month by a new author.
"""

from __future__ import annotations

import os
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
    threshold: float  # at or above: small talk, even if the extractor found a fact
    keep: float = 0.0  # under: worth remembering, even if the extractor found none

    def probability(self, vector: np.ndarray) -> float:
        z = float(np.asarray(vector, dtype=np.float32).ravel() @ self.weights + self.bias)
        return float(1.0 / (1.0 + np.exp(-z)))


@lru_cache(maxsize=1)
def model() -> Model | None:
    """The trained judge, or None when the file is absent. ``WAVE_SMALLTALK_MODEL`` names
    another file (a bench replays a month with the judge trained without it:
    ``scripts/train_smalltalk.py --leave-one-month-out``)."""
    path = Path(os.environ.get("WAVE_SMALLTALK_MODEL") or MODEL)
    if not path.exists():
        return None
    with np.load(path, allow_pickle=False) as data:
        keep = float(data["keep"]) if "keep" in data.files else 0.0
        return Model(data["w"].astype(np.float32), float(data["b"]), float(data["threshold"]), keep)


def save(weights: np.ndarray, bias: float, threshold: float, keep: float = 0.0,
         path: Path = MODEL) -> None:
    np.savez_compressed(path, w=weights.astype(np.float32), b=np.asarray(bias),
                        threshold=np.asarray(threshold), keep=np.asarray(keep))


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


def worth_remembering(model_name: str, vector: np.ndarray | None) -> bool:
    """Whether the judge reads the message as clearly worth remembering, under its ``keep``
    threshold (False when it cannot judge)."""
    p = probability(model_name, vector)
    return p is not None and p < (model() or Model(np.zeros(0), 0.0, 1.0)).keep
