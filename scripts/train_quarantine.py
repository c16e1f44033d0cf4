"""Train the quarantine's meaning layer (wave_agent/policy/quarantine/meaning*.npz).

    PYTHONPATH=. .venv/bin/python scripts/train_quarantine.py [--kind mlp|lr]

Features: the e5 passage embedding of each text (as the writer computes it) and the structural
cues of layers 1-3 (``meaning.features``). Three models, the same recipe each:

- ``meaning_a.npz``: the first set's tuning part (bench/data/quarantine/tuning.json);
- ``meaning_b.npz``: the second set's tuning part (bench/data/quarantine/second, split by id hash);
- ``meaning.npz``: both tuning parts (what the writer uses).

Each also gets the turns of the first two LoCoMo conversations as ordinary text (the other
five are left for ``wave bench quarantine`` to measure). The threshold is the lowest at which
the out-of-fold scores (5-fold) flag at most FP_NOTES of the tuning notes and FP_CHAT of the
LoCoMo turns; a second, lower threshold for texts the phrase list or the rules already flag is
the lowest that keeps both limits. Kept-aside parts are never read here.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import StratifiedKFold
from sklearn.neural_network import MLPClassifier

from wave_agent.bench.locomo_data import load_conversations
from wave_agent.bench.quarantine import DEV_SET, first_parts, second_parts
from wave_agent.bench.quarantine_vectors import VectorCache
from wave_agent.policy.quarantine import meaning, phrases, rules
from wave_agent.policy.quarantine.normalise import normalise

FP_NOTES = 0.03
FP_CHAT = 0.002
LOCOMO = Path("/work/shared/data/locomo")
TRAIN_CONVERSATIONS = 2


def featurise(texts: list[str], cache: VectorCache) -> np.ndarray:
    vectors = cache.vectors(texts)
    rows = []
    for text, vector in zip(texts, vectors, strict=True):
        seen = normalise(text)
        hit, _ = rules.analyse(seen.text)
        rows.append(meaning.features(vector, seen, phrases.detect(seen.text) is not None, hit is not None))
    return np.stack(rows)


def make(kind: str) -> MLPClassifier | LogisticRegression:
    if kind == "mlp":
        return MLPClassifier((64,), alpha=1e-3, max_iter=600, random_state=0)
    return LogisticRegression(C=64, max_iter=4000, class_weight="balanced")


def layers_of(fitted: MLPClassifier | LogisticRegression) -> list[tuple[np.ndarray, np.ndarray]]:
    if isinstance(fitted, MLPClassifier):
        return list(zip(fitted.coefs_, fitted.intercepts_, strict=True))
    return [(fitted.coef_.T, fitted.intercept_)]


def train(x: np.ndarray, y: np.ndarray, chat: np.ndarray,
          kind: str) -> tuple[list[tuple[np.ndarray, np.ndarray]], float, float]:
    """The fitted layers, the threshold, and the lower threshold for a text the phrase list or
    the rules already flag (both the lowest that keep out-of-fold false positives in bounds)."""
    xs = np.vstack([x, chat])
    ys = np.concatenate([y, np.zeros(len(chat), dtype=int)])
    oof = np.zeros(len(ys))
    for fit_rows, held_rows in StratifiedKFold(5, shuffle=True, random_state=0).split(xs, ys):
        oof[held_rows] = make(kind).fit(xs[fit_rows], ys[fit_rows]).predict_proba(xs[held_rows])[:, 1]
    cued = (xs[:, meaning.DIM] + xs[:, meaning.DIM + 1]) > 0  # a phrase from the list, the rules' verdict
    is_note = np.concatenate([y == 0, np.ones(len(chat), dtype=bool)])[: len(y)]

    def within(t: float, t_cued: float) -> bool:
        flagged = np.where(cued, oof >= t_cued, oof >= t)
        return bool(np.mean(flagged[: len(y)][is_note]) <= FP_NOTES and np.mean(flagged[len(y):]) <= FP_CHAT)

    grid = [round(float(t), 2) for t in np.arange(0.2, 0.99, 0.01)]
    threshold = next((t for t in grid if within(t, t)), 0.99)
    cued_threshold = next((t for t in grid if t <= threshold and within(threshold, t)), threshold)
    return layers_of(make(kind).fit(xs, ys)), threshold, cued_threshold


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--kind", choices=("mlp", "lr"), default="mlp")
    kind = parser.parse_args().kind
    cache = VectorCache()
    first, _ = first_parts(DEV_SET)
    second, _ = second_parts(DEV_SET)
    turns = [t.text for c in load_conversations(LOCOMO)[:TRAIN_CONVERSATIONS] for t in c.turns]
    chat = featurise(turns, cache)
    parts = {"a": first, "b": second, "both": first + second}
    for name, items in parts.items():
        x = featurise([i["text"] for i in items], cache)
        y = np.asarray([i["label"] == "instruction" for i in items], dtype=int)
        layers, threshold, cued = train(x, y, chat, kind)
        meaning.save(meaning.MODELS[name], layers, threshold, cued)
        sys.stdout.write(f"{name}: {len(items)} texts + {len(turns)} LoCoMo turns -> "
                         f"{meaning.MODELS[name].name}, threshold {threshold}, flagged by the rules {cued}\n")


if __name__ == "__main__":
    main()
