"""What a judge other than the linear one would do for a new author's month: the logistic
regression the package ships against a small MLP on the same e5 vector, each with and without
the vector of the message said before it in the month beside its own (``--previous`` of
``train_smalltalk.py``). Everything held out, as ``train_smalltalk.py --cross-fitted`` does it,
with the training settings given the same way (``SMALLTALK_C``, ``SMALLTALK_SINGLE_LINE``,
``SMALLTALK_MIN_MONTH``, ``SMALLTALK_MIN_LINES``):

- every part (a month, a line set: one author each) is scored by a model trained without it;
  to keep an MLP affordable on the shared machine the parts go in ``SMALLTALK_FOLDS`` groups
  (default 6, round robin over the sorted part names), a part scored by the model trained
  without its whole group (so on fewer lines than ``--cross-fitted``'s one fit per part);
- each month's thresholds (drop, keep) are chosen by ``train_smalltalk.pick`` on the other
  parts' held-out scores only, never the month's;
- printed per judge: over the honest months (``tuning_2`` .. , every month but ``tuning``,
  written with Wave's month work): small talk stored and statements kept, together and by
  language, the months under 95%; the other sets' statements at the thresholds chosen on
  every part (what would ship), and the ROC AUC over the months' lines.

    HF_HUB_OFFLINE=1 SMALLTALK_CACHE=/tmp/st.npz SMALLTALK_C=32 SMALLTALK_SINGLE_LINE=3 \\
      SMALLTALK_MIN_MONTH=0 SMALLTALK_MIN_LINES=0.90 PYTHONPATH=. \\
      .venv/bin/python scripts/smalltalk_judges.py [--judges lr,mlp,lr+prev,mlp+prev]
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import roc_auc_score
from sklearn.neural_network import MLPClassifier

sys.path.insert(0, str(Path(__file__).resolve().parent))
import train_smalltalk as T

FOLDS = int(os.environ.get("SMALLTALK_FOLDS", "6"))
HIDDEN = int(os.environ.get("SMALLTALK_HIDDEN", "32"))
ALPHA = float(os.environ.get("SMALLTALK_ALPHA", "1e-2"))


def make(kind: str) -> Callable[[], LogisticRegression | MLPClassifier]:
    if kind.startswith("mlp"):
        return lambda: MLPClassifier((HIDDEN,), alpha=ALPHA, max_iter=60, random_state=0)
    return lambda: LogisticRegression(C=T.C_GRID[0], max_iter=3000)


def held_out(x: np.ndarray, y: np.ndarray, groups: np.ndarray, extra: np.ndarray,
             kind: str) -> np.ndarray:
    """Each line's probability from a model trained without its part's fold."""
    parts = sorted(set(groups))
    fold_of = {p: i % FOLDS for i, p in enumerate(parts)}
    fold = np.asarray([fold_of[g] for g in groups])
    oof = np.zeros(len(y))
    for k in range(FOLDS):
        test = fold == k
        model = make(kind)()
        model.fit(np.vstack([x[~test], extra]), np.concatenate([y[~test], np.zeros(len(extra))]),
                  sample_weight=T.weights(groups[~test], len(extra)))
        oof[test] = model.predict_proba(x[test])[:, 1]
    return oof


def report(kind: str, oof: np.ndarray, y: np.ndarray, groups: np.ndarray, ext: np.ndarray,
           stated: np.ndarray, promise: np.ndarray, langs: np.ndarray) -> None:
    months = sorted(g for g in set(groups) if g.startswith("month_") and g != "month_tuning")
    kept = np.zeros(len(y), dtype=bool)
    shares = []
    for month in months:
        at = groups == month
        _, threshold, keep = T.pick(oof, y, groups, ext, stated, promise, ~at)
        kept[at] = T.stored(oof, ext, stated, promise, threshold, keep)[at]
        shares.append(float(np.mean(kept[at & (y == 0)])))
    honest = np.isin(groups, months)
    talk, said = honest & (y == 1), honest & (y == 0)
    by_lang = "; ".join(
        f"{lang} small talk {int((kept & talk & (langs == lang)).sum())}/"
        f"{int((talk & (langs == lang)).sum())}, statements "
        f"{int((kept & said & (langs == lang)).sum())}/{int((said & (langs == lang)).sum())}"
        for lang in ("ru", "pl", "en"))
    _, t_all, k_all = T.pick(oof, y, groups, ext, stated, promise, np.ones(len(y), bool))
    every = T.stored(oof, ext, stated, promise, t_all, k_all)
    in_month = np.char.startswith(groups.astype(str), "month_")
    print(f"{kind}: {len(months)} honest months held out: small talk stored "
          f"{int(kept[talk].sum())}/{int(talk.sum())} ({kept[talk].mean():.1%}), statements kept "
          f"{int(kept[said].sum())}/{int(said.sum())} ({kept[said].mean():.1%}), months under "
          f"95%: {sum(s < 0.95 for s in shares)}; {by_lang}; the other sets at {t_all:.2f} / "
          f"{k_all:.2f}: {T.tally(every, y, ~in_month)}; "
          + ", ".join(f"{g} {T.tally(every, y, groups == g)}"
                      for g in sorted(set(groups[~in_month])))
          + f"; ROC AUC on the months {roc_auc_score(y[in_month], oof[in_month]):.3f}",
          flush=True)


def main() -> None:
    groups, texts, y = T.labelled()
    x, extra, ext, stated, promise = T.features(texts)
    langs = T.month_langs(groups)
    judges = "lr,mlp,lr+prev,mlp+prev"
    if "--judges" in sys.argv:
        judges = sys.argv[sys.argv.index("--judges") + 1]
    for kind in judges.split(","):
        xs, ex = x, extra
        if kind.endswith("+prev"):
            xs, ex = T.with_previous(x, groups), np.hstack([extra, np.zeros_like(extra)])
        began = time.monotonic()
        oof = held_out(xs, y, groups, ex, kind)
        report(kind, oof, y, groups, ext, stated, promise, langs)
        print(f"  ({time.monotonic() - began:.0f} s)", flush=True)


if __name__ == "__main__":
    main()
