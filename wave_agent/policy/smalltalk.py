"""Worth remembering or small talk, judged from meaning: the e5 embedding of a whole chat
message and a logistic regression trained on labelled lines (issue 30, item 7).

Weather, a passing mood, "пойду спать", greetings, thanks and questions to the bot are not
memory. The offline extractor's phrase lists catch the set phrases; a mood or a comment on the
day in a person's own words ("Ломает без сигарет, жесть", "Столовая тут так себе") reads as a
statement to them. And the other way: a statement said in passing, with no pronoun and in slang
("доча поступила в вышку на бюджет", "got promoted to team lead today", "купили стиралку, 42к
отдали") has no first person for the extractor's rules to see, so it finds nothing in it.

This judge reads the message's passage vector (multilingual-e5-small) and gives the
probability that the message holds nothing worth remembering: a logistic regression's, or,
when the model file carries a bank of labelled lines (their vectors, labels and training
weights), the mean of it and the vote of the ``NEIGHBOURS`` lines nearest to the message. The
vote ranks better (round thirty-one: ROC AUC on five months by new authors, held out, 0.977 ->
0.988), but at the bar on the single-line sets' statements its thresholds spend the gain on
statements, so the shipped file has no bank
(docs/benchmarks.md, "Round thirty-one (2026-12-06, h/small31)").
It reads the message as sent: not the provenance line the bot puts before a forwarded or
quoting message, nor the quote in «» (the turn carries the message as sent beside its text: ``Provenance.sent``, the outbox
payload's ``own_words``). It decides both ways, at two thresholds:
- at or above ``threshold`` a message the extractor kept a fact of is small talk: nothing stored;
- under ``keep`` a message the extractor found nothing in (but that reads as a statement, not a
  question or a greeting) is worth remembering: its stated part is kept as said.

The model (``smalltalk.npz``: weights, bias and both thresholds, and a bank when
``scripts/smalltalk_knn.py --save`` writes it; arrays, no pickle) is trained by
``scripts/train_smalltalk.py`` on every ``bench/data/smalltalk/tuning*.json`` (lines, and
authors' conversations), the tune split of ``bench/data/offline_lines.txt``, the messages of every labelled month (``bench/data/month/tuning*.json``) and the
statements of ``bench/data/attributes/tuning.json``; messages said in a conversation weigh
more than single lines. The shipped file is ``scripts/smalltalk_crosslingual.py --save``'s
(round thirty-eight): the same data and rule without the parts it was measured on (months
``tuning_37`` .. ``tuning_41``), over each vector less its language's mean, with a pair of
thresholds for each language chosen by the rule within it; a message is judged at its language's pair (``Model.thresholds``). The thresholds are chosen out of fold, each author's part scored by a
model trained without it, keeping the months' statements >= 95% (together and each) and the
other sets' >= 90% together, with the least of the months' small talk. ``wave bench smalltalk``
measures it line by line, ``wave bench month`` in a month; ``train_smalltalk.py
--leave-one-month-out`` is the predictor for a month by a new author.

Since round thirty-eight the file may carry a mean vector for each language (``centres``): the
judge then reads the message's vector less the mean of its language, made unit length again
(the bank is stored so), so that the many Russian lines' labels reach an English or Polish
message by what it says rather than by the language it says it in
(``scripts/smalltalk_crosslingual.py``; docs/benchmarks.md, "Round thirty-eight (2026-12-07,
h/small38)"). A message whose language the caller does not give takes the nearest mean.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

MODEL = Path(__file__).parent / "smalltalk.npz"
DIM = 384
READS = "multilingual-e5-small"  # the one embedding model the judge was trained on
# the vote of the nearest labelled lines (round thirty-one): how many, and how sharply a closer
# one counts more (each weighs its training weight times exp(SHARPNESS * cosine))
NEIGHBOURS = 15
SHARPNESS = 20.0


@dataclass(frozen=True, slots=True)
class Model:
    weights: np.ndarray
    bias: float
    threshold: float  # at or above: small talk, even if the extractor found a fact
    keep: float = 0.0  # under: worth remembering, even if the extractor found none
    # the labelled lines' vectors, 1 for small talk, and each line's training weight: with
    # them the probability is the mean of the regression's and the nearest lines' vote
    bank: np.ndarray | None = None
    labels: np.ndarray | None = None
    bank_weights: np.ndarray | None = None
    mix: float = 0.5  # the vote's share of the probability (the regression's is the rest)
    neighbours: int = NEIGHBOURS
    # (language, threshold, keep) for a message in Russian, Polish or English (the caller reads
    # the language: ``offline_extract.language`` of the message), each pair chosen by the training
    # rule within its language (round thirty-five); a language not named, or none, takes the
    # model's own
    by_language: tuple[tuple[str, float, float], ...] = ()
    # (language, mean vector) of the training lines of each language: the judge reads a vector
    # less its language's mean (round thirty-eight); none: the vector as it is
    centres: tuple[tuple[str, np.ndarray], ...] = ()

    def thresholds(self, language: str | None = None) -> tuple[float, float]:
        """(threshold, keep) for a message in this language (the model's own without one)."""
        for name, threshold, keep in self.by_language:
            if name == language:
                return threshold, keep
        return self.threshold, self.keep

    def centred(self, vector: np.ndarray, language: str | None = None) -> np.ndarray:
        """The vector less the mean of its ``language`` (the nearest mean when none is given or
        the file has none for it), unit length; the vector itself when the file has no means."""
        v = np.asarray(vector, dtype=np.float32).ravel()
        if not self.centres:
            return v
        means = dict(self.centres)
        mean = means.get(language or "")
        if mean is None:
            mean = max(means.values(), key=lambda m: float(m @ v))
        out: np.ndarray = (v - mean) / max(float(np.linalg.norm(v - mean)), 1e-9)
        return out

    def probability(self, vector: np.ndarray, language: str | None = None) -> float:
        v = self.centred(vector, language)
        z = float(v @ self.weights + self.bias)
        p = float(1.0 / (1.0 + np.exp(-z)))
        if self.bank is None or self.labels is None or self.bank_weights is None:
            return p
        return (1 - self.mix) * p + self.mix * vote(v, self.bank, self.labels, self.bank_weights,
                                                    self.neighbours)


def vote(vector: np.ndarray, bank: np.ndarray, labels: np.ndarray, weights: np.ndarray,
         neighbours: int = NEIGHBOURS) -> float:
    """The weighted share of small talk among the ``neighbours`` labelled lines nearest to
    ``vector`` (cosine: the e5 vectors are unit length)."""
    sim = bank @ vector
    k = min(neighbours, len(sim) - 1)
    top = np.argpartition(-sim, k)[:k]
    w = weights[top] * np.exp(SHARPNESS * sim[top])
    return float((w * labels[top]).sum() / w.sum())


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
        by_language = tuple((str(lang), float(t), float(k)) for lang, (t, k) in zip(
            data["languages"], data["language_thresholds"], strict=True)
        ) if "languages" in data.files else ()
        centres = tuple((str(lang), np.asarray(m, dtype=np.float32)) for lang, m in zip(
            data["centre_languages"], data["centres"], strict=True)
        ) if "centres" in data.files else ()
        if "bank" not in data.files:
            return Model(data["w"].astype(np.float32), float(data["b"]),
                         float(data["threshold"]), keep, by_language=by_language,
                         centres=centres)
        return Model(data["w"].astype(np.float32), float(data["b"]), float(data["threshold"]),
                     keep, data["bank"].astype(np.float32), data["labels"].astype(np.float32),
                     data["bank_weights"].astype(np.float32),
                     float(data["mix"]) if "mix" in data.files else 0.5,
                     int(data["neighbours"]) if "neighbours" in data.files else NEIGHBOURS,
                     by_language, centres)


def save(weights: np.ndarray, bias: float, threshold: float, keep: float = 0.0,
         path: Path = MODEL, bank: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None,
         mix: float = 0.5, neighbours: int = NEIGHBOURS,
         by_language: dict[str, tuple[float, float]] | None = None,
         centres: dict[str, np.ndarray] | None = None) -> None:
    """Write a judge; ``bank``: the labelled lines' vectors, labels and training weights for
    the vote of the nearest (stored in half precision), ``mix`` the vote's share of the
    probability and ``neighbours`` how many vote; ``by_language``: (threshold, keep) by
    language; ``centres``: each language's mean vector, taken from a vector before the judge
    reads it (the weights and the bank are then of vectors so centred)."""
    names = sorted(centres or {})
    means = {"centre_languages": np.asarray(names, dtype="<U2"),
             "centres": np.asarray([centres[n] for n in names], dtype=np.float32)} if centres else {}
    langs = sorted(by_language or {})
    languages = np.asarray(langs, dtype="<U2")
    pairs = np.asarray([by_language[lang] for lang in langs] if by_language else np.zeros((0, 2)),
                       dtype=np.float64)
    arrays: dict[str, Any] = {
        "w": weights.astype(np.float32), "b": np.asarray(bias),
        "threshold": np.asarray(threshold), "keep": np.asarray(keep),
        "languages": languages, "language_thresholds": pairs, **means}
    if bank is not None:
        arrays.update(bank=bank[0].astype(np.float16), labels=bank[1].astype(np.int8),
                      bank_weights=bank[2].astype(np.float16), mix=np.asarray(mix),
                      neighbours=np.asarray(neighbours))
    np.savez_compressed(path, **arrays)


def probability(model_name: str, vector: np.ndarray | None,
                language: str | None = None) -> float | None:
    """How likely the message (in ``language``, when given) is small talk; None when there is
    no judge for this vector (another embedding model, no model file): then the phrase lists
    decide alone."""
    judge = model()
    if judge is None or vector is None or model_name != READS or np.shape(vector) != (DIM,):
        return None
    return judge.probability(vector, language)


def is_small_talk(model_name: str, vector: np.ndarray | None, language: str | None = None) -> bool:
    """The judge's verdict at its trained threshold, the one of the message's ``language``
    ("ru", "pl", "en") when given (False when it cannot judge)."""
    p = probability(model_name, vector, language)
    return p is not None and p >= (model() or Model(np.zeros(0), 0.0, 1.0)).thresholds(language)[0]


def worth_remembering(model_name: str, vector: np.ndarray | None,
                      language: str | None = None) -> bool:
    """Whether the judge reads the message as clearly worth remembering, under its ``keep``
    threshold (of the message's ``language`` when given; False when it cannot judge)."""
    p = probability(model_name, vector, language)
    return p is not None and p < (model() or Model(np.zeros(0), 0.0, 1.0)).thresholds(language)[1]
