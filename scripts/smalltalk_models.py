"""Which model reads small talk best from the e5 vector, a new month's author held out: the
logistic regression the judge is, against a small MLP on the same vector. For each labelled
month, a model trained on everything else (``scripts/train_smalltalk.py``'s lines and weights)
scores the month's messages; printed: ROC AUC over the months' lines, and the small talk the
judge alone would pass at the threshold that keeps 96% of the months' statements (pooled, the
operating point of the judge in the package), so models compare at one statement rate.

    SMALLTALK_CACHE=/tmp/st.npz PYTHONPATH=. .venv/bin/python scripts/smalltalk_models.py
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import roc_auc_score
from sklearn.neural_network import MLPClassifier

from wave_agent.policy import smalltalk

sys.path.insert(0, str(Path(__file__).resolve().parent))
import train_smalltalk as T

# the months the judge in the package was trained on (4c9e8a8): the others are new authors to it
PACKAGE_MONTHS = {"month_tuning", "month_tuning_2", "month_tuning_3", "month_tuning_4",
                  "month_tuning_5"}


def passed_at(p: np.ndarray, y: np.ndarray, statements_kept: float = 0.96) -> float:
    """Small talk under the threshold that keeps ``statements_kept`` of the statements."""
    threshold = float(np.quantile(p[y == 0], statements_kept))
    return float(np.mean(p[y == 1] < threshold))


def main() -> None:
    groups, texts, y = T.labelled()
    x, extra, *_ = T.features(texts)
    months = sorted(g for g in set(groups) if g.startswith("month_"))
    in_month = np.isin(groups, months)
    unseen = in_month & ~np.isin(groups, list(PACKAGE_MONTHS))
    judge = smalltalk.model()
    assert judge is not None
    now = np.asarray([judge.probability(v) for v in x])
    print(f"package judge, on the {len(set(groups[unseen]))} months it never saw: ROC AUC "
          f"{roc_auc_score(y[unseen], now[unseen]):.3f}; passes at 96% "
          f"{passed_at(now[unseen], y[unseen]):.1%}", flush=True)
    models = {
        "logistic C=32": lambda: LogisticRegression(C=32.0, max_iter=3000),
        "MLP 64, L2 1e-3": lambda: MLPClassifier((64,), alpha=1e-3, max_iter=300,
                                                 early_stopping=True, random_state=0),
    }
    for name, make in models.items():
        oof = np.zeros(len(y))
        for month in months:
            test = groups == month
            xs = np.vstack([x[~test], extra])
            ys = np.concatenate([y[~test], np.zeros(len(extra))])
            w = T.weights(groups[~test], len(extra))
            model = make()
            if isinstance(model, MLPClassifier):  # no sample weights: repeat the chat lines
                reps = np.round(w).astype(int)
                xs, ys = np.repeat(xs, reps, axis=0), np.repeat(ys, reps)
                model.fit(xs, ys)
            else:
                model.fit(xs, ys, sample_weight=w)
            oof[test] = model.predict_proba(x[test])[:, 1]
        print(f"{name}: ROC AUC {roc_auc_score(y[in_month], oof[in_month]):.3f}; small talk the "
              f"judge alone passes at 96% of statements kept {passed_at(oof[in_month], y[in_month]):.1%}"
              f"; on the months the package never saw: {roc_auc_score(y[unseen], oof[unseen]):.3f},"
              f" {passed_at(oof[unseen], y[unseen]):.1%}", flush=True)


if __name__ == "__main__":
    main()
