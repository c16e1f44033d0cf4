"""Round thirty-one (h/small31, issue 30): does the small-talk judge drop more of a new author's
small talk, statements kept, when the drop threshold depends on what the write path reads in the
message (the world reader finds an attribute value of the person's, or none)? Everything on the
lines of ``scripts/smalltalk_features.py`` (``FEATURES``), with ``train_smalltalk``'s settings.

Held out: the months in ``SMALLTALK_HELD`` (default ``tuning_28`` .. ``tuning_32``) are never in
a fit nor in a choice: their lines are scored by a model trained on every other part, at the
thresholds chosen on the other parts' out-of-fold scores. Only counts are printed for them.
The other parts are scored out of fold (``SMALLTALK_FOLDS`` folds of parts, round robin).

    FEATURES=/tmp/st-features.npz SMALLTALK_C=32 SMALLTALK_SINGLE_LINE=3 SMALLTALK_MIN_MONTH=0 \\
      SMALLTALK_MIN_LINES=0.90 HF_HUB_OFFLINE=1 PYTHONPATH=. .venv/bin/python scripts/smalltalk_values.py
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import numpy as np
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import roc_auc_score

sys.path.insert(0, str(Path(__file__).resolve().parent))
import train_smalltalk as T

from wave_agent.policy import smalltalk

FOLDS = int(os.environ.get("SMALLTALK_FOLDS", "6"))
HELD = {f"month_tuning_{n}" for n in os.environ.get("SMALLTALK_HELD", "28,29,30,31,32").split(",")}
GRID = np.round(np.arange(0.30, 0.96, 0.02), 2)


def fit(x: np.ndarray, y: np.ndarray, groups: np.ndarray, extra: np.ndarray) -> LogisticRegression:
    return LogisticRegression(C=T.C_GRID[0], max_iter=3000).fit(
        np.vstack([x, extra]), np.concatenate([y, np.zeros(len(extra))]),
        sample_weight=T.weights(groups, len(extra)))


def scores(x: np.ndarray, y: np.ndarray, groups: np.ndarray, extra: np.ndarray,
           held: np.ndarray) -> np.ndarray:
    """Out of fold over the design parts; the held months by a model of every design part."""
    p = np.zeros(len(y))
    parts = sorted(set(groups[~held]))
    fold = {g: i % FOLDS for i, g in enumerate(parts)}
    f = np.asarray([fold.get(g, -1) for g in groups])
    for k in range(FOLDS):
        test = f == k
        train = ~held & ~test
        p[test] = fit(x[train], y[train], groups[train], extra).predict_proba(x[test])[:, 1]
    p[held] = fit(x[~held], y[~held], groups[~held], extra).predict_proba(x[held])[:, 1]
    return p


def stored(p, ext, stated, promise, drop, keep):
    return np.asarray((ext & ((p < drop) | promise)) | (~ext & stated & (p < keep)), dtype=bool)


def pick(p, y, groups, ext, stated, promise, use, split):
    """The least of the design months' small talk (mean of shares) with their statements >=
    ``MIN_STATEMENTS_KEPT`` together (each >= ``MIN_MONTH``) and the other sets' >= ``MIN_LINES``;
    the drop threshold one, or two (``split``: messages with a value of the person's / without)."""
    gid, month, n, said_n, talk_n = T.set_counts(groups, use, y)
    best = None
    drops1 = GRID if split is not None else [None]
    for d0 in GRID:
        for d1 in drops1:
            drop = np.full(len(p), d0) if split is None else np.where(split, d1, d0)
            for keep in GRID[d0 >= GRID]:
                kept = stored(p, ext, stated, promise, drop, keep) & use
                said_k = np.bincount(gid[kept & (y == 0)], minlength=n)
                talk_k = np.bincount(gid[kept & (y == 1)], minlength=n)
                each = said_k[month] / np.maximum(said_n[month], 1)
                said = said_k[month].sum() / max(said_n[month].sum(), 1)
                lines_ = said_k[~month].sum() / max(said_n[~month].sum(), 1)
                ok = said >= T.MIN_STATEMENTS_KEPT and each.min() >= T.MIN_MONTH and lines_ >= T.MIN_LINES
                chatter = float(np.mean(talk_k[month] / np.maximum(talk_n[month], 1)))
                score = (ok, -chatter, float(said))
                if best is None or score > best[0]:
                    best = (score, d0, d1, keep)
    return best


def report(name, kept, y, groups, langs, where):
    talk, said = where & (y == 1), where & (y == 0)
    by = ", ".join(f"{lg} {int((kept & talk & (langs == lg)).sum())}/{int((talk & (langs == lg)).sum())}"
                   f" {int((kept & said & (langs == lg)).sum())}/{int((said & (langs == lg)).sum())}"
                   for lg in ("ru", "pl", "en"))
    months = sorted(set(groups[where]))
    under = sum(float(np.mean(kept[(groups == g) & (y == 0)])) < 0.95 for g in months)
    print(f"  {name}: small talk stored {int(kept[talk].sum())}/{int(talk.sum())} "
          f"({kept[talk].mean():.1%}), statements kept {int(kept[said].sum())}/{int(said.sum())} "
          f"({kept[said].mean():.1%}), months under 95%: {under}/{len(months)}; by language "
          f"(small talk, statements) {by}", flush=True)


def main() -> None:
    d = np.load(os.environ["FEATURES"], allow_pickle=False)
    groups, y, x, extra = d["groups"], d["y"], d["x"], d["extra"]
    ext, stated, promise, counts, langs = d["ext"], d["stated"], d["promise"], d["counts"], d["langs"]
    held = np.isin(groups, list(HELD))
    months = np.char.startswith(groups.astype(str), "month_") & (groups != "month_tuning")
    design_months = months & ~held
    user_value = counts[:, 3] > 0
    any_value = counts[:, 2] > 0
    templated = counts[:, 1] > 0
    shipped = smalltalk.model()
    assert shipped is not None
    now = np.asarray([shipped.probability(v) for v in x])
    base = stored(now, ext, stated, promise, shipped.threshold, shipped.keep)
    p = scores(x, y, groups, extra, held)
    print(f"ROC AUC, held months: package {roc_auc_score(y[held], now[held]):.3f}, "
          f"retrained without them {roc_auc_score(y[held], p[held]):.3f}")
    print("the package's judge (0.72 / 0.32):")
    report("held months", base, y, groups, langs, held)
    report("design months (honest)", base, y, groups, langs, design_months)
    report("other sets", base, y, groups, langs, ~months)
    for label, split in (("one drop threshold", None), ("split by a value of the person's", user_value),
                         ("split by any value read", any_value),
                         ("split by a templated fact", templated)):
        use = ~held
        (ok, _, _), d0, d1, keep = pick(p, y, groups, ext, stated, promise, use, split)
        drop = np.full(len(p), d0) if split is None else np.where(split, d1, d0)
        kept = stored(p, ext, stated, promise, drop, keep)
        print(f"{label}: drop {d0} / {d1} (no value / value), keep {keep}; bar met {ok}")
        report("held months", kept, y, groups, langs, held)
        report("design months (out of fold, tuning)", kept, y, groups, langs, design_months)
        report("other sets (out of fold)", kept, y, groups, langs, ~months)


if __name__ == "__main__":
    main()
