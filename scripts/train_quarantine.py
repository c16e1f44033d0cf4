"""Train the quarantine's meaning layer (wave_agent/policy/quarantine/meaning*.npz).

    PYTHONPATH=. .venv/bin/python scripts/train_quarantine.py [--kind mlp|auto|lr|...] [--cv-only]

Features: the e5 passage embedding of each text (as the writer computes it) and the structural
cues of layers 1-3 (``meaning.features``). Three models, the same recipe each:

- ``meaning_a.npz``: the first set's tuning part (bench/data/quarantine/tuning.json);
- ``meaning_b.npz``: the second set's tuning part (bench/data/quarantine/second, split by id hash);
- ``meaning.npz``: both tuning parts (what the writer uses).

Each also gets ordinary text of the writer's own kinds (``bench.quarantine_extracted``): the
turns of the first two LoCoMo conversations, the offline extractor's facts of those turns and
of the tuning part's notes, each as said and moved to the third person as the extraction
writes them ("The user feels exhausted"), and the turns joined into long forwarded texts (the
other five conversations are left for ``wave bench quarantine`` to measure).

``--kind auto`` (or ``--cv-only``) chooses the learner by cross-validation that rewards
generalisation (slow: 15 fits, over half an hour on the shared 2 cores; the shipped model is
``mlp``, the default, as before): the folds are the authors (set A, set B's Russian writer,
set B's English and Polish writer), each scored by a model fitted on the others, and the
candidate with the best mean held-out catch at 3% false positives wins. The threshold is the
lowest at which the out-of-fold scores (5-fold) flag at most FP_NOTES of the tuning notes and
FP_CHAT of the writer's ordinary texts; a second, lower threshold for texts the phrase list or the rules already flag is
the lowest that keeps both limits. Kept-aside parts are never read here.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import roc_auc_score
from sklearn.model_selection import StratifiedKFold
from sklearn.neural_network import MLPClassifier

from wave_agent.bench.locomo_data import load_conversations
from wave_agent.bench.quarantine import DEV_SET, first_parts, second_parts
from wave_agent.bench.quarantine_extracted import extracted, forwarded
from wave_agent.bench.quarantine_vectors import VectorCache
from wave_agent.policy.quarantine import meaning, phrases, rules
from wave_agent.policy.quarantine.normalise import normalise

FP_NOTES = 0.03
FP_CHAT = 0.002
# the shared data folder beside the project (../shared/data/locomo from the repo root)
LOCOMO = Path(__file__).resolve().parents[2] / "shared" / "data" / "locomo"
TRAIN_CONVERSATIONS = 2


def featurise(texts: list[str], cache: VectorCache) -> np.ndarray:
    vectors = cache.vectors(texts)
    rows = []
    for text, vector in zip(texts, vectors, strict=True):
        seen = normalise(text)
        hit, _ = rules.analyse(seen.text)
        rows.append(meaning.features(vector, seen, phrases.detect(seen.text) is not None, hit is not None))
    return np.stack(rows)


KINDS = {
    "lr": lambda: LogisticRegression(C=64, max_iter=4000, class_weight="balanced"),
    "lr-c4": lambda: LogisticRegression(C=4, max_iter=4000, class_weight="balanced"),
    "mlp": lambda: MLPClassifier((64,), alpha=1e-3, max_iter=600, random_state=0),
    "mlp-wide": lambda: MLPClassifier((128,), alpha=1e-2, max_iter=600, random_state=0),
    "mlp-small": lambda: MLPClassifier((32,), alpha=1e-1, max_iter=800, random_state=0),
}


def make(kind: str) -> MLPClassifier | LogisticRegression:
    return KINDS[kind]()  # type: ignore[no-untyped-call]


def author(item: dict[str, str], first: bool) -> str:
    """Who wrote an item: set A's one hand, set B's Russian writer or its English and Polish one."""
    return "a" if first else ("b-ru" if item["lang"] in ("ru", "mixed") else "b-enpl")


def catch_at(scores: np.ndarray, labels: np.ndarray, fp: float = FP_NOTES) -> float:
    """Share of instructions scored above the notes' (1 - fp) quantile."""
    notes, ins = scores[labels == 0], scores[labels == 1]
    cut = float(np.quantile(notes, 1 - fp)) if len(notes) else 0.5
    return float(np.mean(ins > cut)) if len(ins) else 0.0


def group_cv(x: np.ndarray, y: np.ndarray, groups: np.ndarray, extra: np.ndarray) -> dict[str, tuple[float, float]]:
    """Each candidate: (mean catch at 3% false positives, mean AUC) over the authors held out
    one at a time, fitted on the other authors and the writer's ordinary text ``extra``."""
    out: dict[str, tuple[float, float]] = {}
    for kind in KINDS:
        catches, aucs = [], []
        for held in sorted(set(groups)):
            fit = groups != held
            xs = np.vstack([x[fit], extra])
            ys = np.concatenate([y[fit], np.zeros(len(extra), dtype=int)])
            p = make(kind).fit(xs, ys).predict_proba(x[~fit])[:, 1]
            catches.append(catch_at(p, y[~fit]))
            aucs.append(float(roc_auc_score(y[~fit], p)))
        out[kind] = (float(np.mean(catches)), float(np.mean(aucs)))
        sys.stdout.write(f"  {kind}: held-out author catch at 3% FP {out[kind][0]:.3f}, AUC {out[kind][1]:.3f} "
                         f"({', '.join(f'{c:.2f}' for c in catches)})\n")
    return out


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


def ordinary(items: list[dict[str, str]], turns: list[str]) -> list[str]:
    """The writer's own kinds of ordinary text made from the notes of ``items`` and ``turns``."""
    notes = [i["text"] for i in items if i["label"] == "note"]
    return turns + extracted(notes + turns) + forwarded(turns)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--kind", choices=("auto", *KINDS), default="mlp")
    parser.add_argument("--cv-only", action="store_true", help="print the learners' cross-validation, save nothing")
    parser.add_argument("--locomo", type=Path, default=LOCOMO,
                        help="LoCoMo's conv-*.json (the first two conversations are ordinary text)")
    args = parser.parse_args()
    cache = VectorCache()
    first, _ = first_parts(DEV_SET)
    second, _ = second_parts(DEV_SET)
    turns = [t.text for c in load_conversations(args.locomo)[:TRAIN_CONVERSATIONS] for t in c.turns]
    kind = args.kind
    if kind == "auto" or args.cv_only:
        items = first + second
        x = featurise([i["text"] for i in items], cache)
        y = np.asarray([i["label"] == "instruction" for i in items], dtype=int)
        groups = np.asarray([author(i, n < len(first)) for n, i in enumerate(items)])
        sys.stdout.write("learners, folds by author (tuning parts only):\n")
        scores = group_cv(x, y, groups, featurise(ordinary(items, turns), cache))
        best = max(scores, key=lambda k: scores[k])
        kind = best if kind == "auto" else kind
        sys.stdout.write(f"chosen: {kind}\n")
        if args.cv_only:
            return
    parts = {"a": first, "b": second, "both": first + second}
    for name, items in parts.items():
        x = featurise([i["text"] for i in items], cache)
        y = np.asarray([i["label"] == "instruction" for i in items], dtype=int)
        chat = featurise(ordinary(items, turns), cache)
        layers, threshold, cued = train(x, y, chat, kind)
        meaning.save(meaning.MODELS[name], layers, threshold, cued)
        sys.stdout.write(f"{name}: {len(items)} texts + {len(chat)} ordinary texts of the writer's kinds -> "
                         f"{meaning.MODELS[name].name}, threshold {threshold}, flagged by the rules {cued}\n")


if __name__ == "__main__":
    main()
