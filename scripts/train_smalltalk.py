"""Train the small-talk judge (``wave_agent/policy/smalltalk.py``) and write ``smalltalk.npz``.

Data: ``bench/data/smalltalk/tuning.json`` (statement / small_talk / question) and the tune
split of ``bench/data/offline_lines.txt`` (K lines are statements, S lines small talk). The
held split of the offline lines and every kept-aside set are never read. Features: the e5
passage vector of the whole message. A logistic regression (C chosen by 5-fold CV); the
threshold is the lowest whose out-of-fold share of statements called small talk is <= 0.5%.

    PYTHONPATH=. .venv/bin/python scripts/train_smalltalk.py
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import StratifiedKFold

from archive.embedder import Embedder
from wave_agent.bench.offline import load as load_offline
from wave_agent.policy import smalltalk

ROOT = Path(__file__).resolve().parents[1]
MAX_STATEMENTS_LOST = 0.005  # a lost statement costs more than a stored "ну и погодка"


def lines() -> list[tuple[str, int]]:
    out = [(i["text"], int(i["kind"] != "statement")) for i in json.loads(
        (ROOT / "bench/data/smalltalk/tuning.json").read_text(encoding="utf-8"))]
    out += [(line.text, int(not line.keep)) for line in load_offline().lines
            if line.split == "tune"]
    return out


def main() -> None:
    data = lines()
    texts, y = [t for t, _ in data], np.asarray([label for _, label in data])
    x = Embedder(smalltalk.READS).embed_sync(texts)
    folds = StratifiedKFold(5, shuffle=True, random_state=7)
    best = None
    for c in (0.5, 1.0, 2.0, 4.0, 8.0):
        oof = np.zeros(len(y))
        for train, test in folds.split(x, y):
            fit = LogisticRegression(C=c, max_iter=2000).fit(x[train], y[train])
            oof[test] = fit.predict_proba(x[test])[:, 1]
        for threshold in np.arange(0.30, 0.96, 0.01):
            lost = float(np.mean(oof[y == 0] >= threshold))
            caught = float(np.mean(oof[y == 1] >= threshold))
            if lost <= MAX_STATEMENTS_LOST and (best is None or caught > best[2]):
                best = (c, float(threshold), caught, lost)
                break
    assert best is not None
    c, threshold, caught, lost = best
    fit = LogisticRegression(C=c, max_iter=2000).fit(x, y)
    smalltalk.save(fit.coef_[0], float(fit.intercept_[0]), threshold)
    print(f"{len(y)} lines ({int(y.sum())} small talk): C={c}, threshold {threshold:.2f}; "
          f"out of fold: small talk caught {caught:.1%}, statements lost {lost:.1%}")


if __name__ == "__main__":
    main()
