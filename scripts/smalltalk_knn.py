"""Round thirty-one (h/small31, issue 30): the small-talk judge's logistic regression beside a
vote of the nearest labelled lines (cosine of the e5 vectors, each neighbour weighing as in
training), alone and blended, held out as ``scripts/smalltalk_values.py`` holds it out (same
folds, same choice of thresholds on the design parts only, the months of ``SMALLTALK_HELD``
in no fit and no choice; only counts printed for them).

    FEATURES=/tmp/st-features.npz SMALLTALK_C=32 SMALLTALK_SINGLE_LINE=3 SMALLTALK_MIN_MONTH=0 \\
      SMALLTALK_MIN_LINES=0.90 PYTHONPATH=. .venv/bin/python scripts/smalltalk_knn.py \\
      [--k 15] [--sweep] [--save DIR]

``--sweep`` prints the design months and the other sets at lower bars on the other sets'
statements (held months not printed); ``--save DIR`` writes the blend trained without the held
months (``smalltalk-without-held.npz``) and on every part (``smalltalk.npz``).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import numpy as np
from sklearn.metrics import roc_auc_score

sys.path.insert(0, str(Path(__file__).resolve().parent))
import smalltalk_values as V
import train_smalltalk as T

from wave_agent.policy import smalltalk


def knn(x: np.ndarray, y: np.ndarray, w: np.ndarray, train: np.ndarray, test: np.ndarray,
        k: int) -> np.ndarray:
    """The weighted share of small talk among each test line's k nearest training lines."""
    xt = x[train]
    out = np.zeros(int(test.sum()))
    rows = np.flatnonzero(test)
    for s in range(0, len(rows), 512):
        sim = x[rows[s:s + 512]] @ xt.T
        top = np.argpartition(-sim, k, axis=1)[:, :k]
        ww = w[train][top] * np.exp(20 * np.take_along_axis(sim, top, 1))
        out[s:s + 512] = (ww * y[train][top]).sum(1) / ww.sum(1)
    return out


def main() -> None:
    k = int(sys.argv[sys.argv.index("--k") + 1]) if "--k" in sys.argv else 15
    d = np.load(os.environ["FEATURES"], allow_pickle=False)
    groups, y, x, extra = d["groups"], d["y"], d["x"], d["extra"]
    ext, stated, promise, langs = d["ext"], d["stated"], d["promise"], d["langs"]
    held = np.isin(groups, list(V.HELD))
    months = np.char.startswith(groups.astype(str), "month_") & (groups != "month_tuning")
    p_lr = V.scores(x, y, groups, extra, held)
    xa = np.vstack([x, extra])
    ya = np.concatenate([y, np.zeros(len(extra))])
    wa = T.weights(groups, len(extra))
    ga = np.concatenate([groups, np.asarray(["attributes"] * len(extra))])
    parts = sorted(set(groups[~held]))
    fold = {g: i % V.FOLDS for i, g in enumerate(parts)}
    f = np.asarray([fold.get(g, -1) for g in ga])
    ha = np.concatenate([held, np.zeros(len(extra), bool)])
    p_nn = np.zeros(len(ya))
    for j in range(V.FOLDS):
        test = f == j
        p_nn[test] = knn(xa, ya, wa, ~ha & ~test, test, k)
    p_nn[ha] = knn(xa, ya, wa, ~ha, ha, k)
    p_nn = p_nn[:len(y)]
    design = months & ~held
    for name, p in (("logistic", p_lr), (f"nearest {k}", p_nn), ("blend 1:1", (p_lr + p_nn) / 2)):
        (ok, _, _), d0, _, keep = V.pick(p, y, groups, ext, stated, promise, ~held, None)
        kept = V.stored(p, ext, stated, promise, np.full(len(p), d0), keep)
        print(f"{name}: AUC design months {roc_auc_score(y[design], p[design]):.3f}, held months "
              f"{roc_auc_score(y[held], p[held]):.3f}; drop {d0}, keep {keep}, bar met {ok}")
        V.report("design months (out of fold, tuning)", kept, y, groups, langs, design)
        V.report("other sets (out of fold)", kept, y, groups, langs, ~months)
        V.report("held months", kept, y, groups, langs, held)
    (ok, _, _), a, b, keep = pick2(p_lr, p_nn, y, groups, ext, stated, promise, ~held)
    dropped = (p_lr >= a) & (p_nn >= b)
    kept = (ext & (~dropped | promise)) | (~ext & stated & ((p_lr + p_nn) / 2 < keep))
    print(f"both (regression >= {a} and neighbours >= {b}), keep {keep}, bar met {ok}")
    V.report("design months (out of fold, tuning)", kept, y, groups, langs, design)
    V.report("other sets (out of fold)", kept, y, groups, langs, ~months)
    V.report("held months", kept, y, groups, langs, held)
    if "--sweep" in sys.argv:  # the bar on the other sets' statements, lower and lower
        for bar in (0.90, 0.88, 0.85, 0.80, 0.0):
            T.MIN_LINES = bar
            for name, p in (("logistic", p_lr), ("blend", (p_lr + p_nn) / 2)):
                (ok, _, _), d0, _, keep = V.pick(p, y, groups, ext, stated, promise, ~held, None)
                kept = V.stored(p, ext, stated, promise, np.full(len(p), d0), keep)
                print(f"other sets' bar {bar}, {name}: drop {d0}, keep {keep}, bar met {ok}")
                V.report("design months", kept, y, groups, langs, design)
                V.report("other sets", kept, y, groups, langs, ~months)
        T.MIN_LINES = float(os.environ.get("SMALLTALK_MIN_LINES", "0.90"))
    if "--save" in sys.argv:
        # the blend, at the thresholds chosen on the design parts' out-of-fold scores: the
        # regression and the bank of every part but the held months (``--save DIR``:
        # ``smalltalk-without-held.npz``, what replays a held month), and of every part
        # (``smalltalk.npz``, what ships)
        (_, _, _), d0, _, keep = V.pick((p_lr + p_nn) / 2, y, groups, ext, stated, promise,
                                        ~held, None)
        out = Path(sys.argv[sys.argv.index("--save") + 1])
        for name, rows in (("smalltalk-without-held.npz", ~held), ("smalltalk.npz", np.ones(len(y), bool))):
            fit = V.fit(x[rows], y[rows], groups[rows], extra)
            bank = (np.vstack([x[rows], extra]), np.concatenate([y[rows], np.zeros(len(extra))]),
                    T.weights(groups[rows], len(extra)))
            smalltalk.save(fit.coef_[0], float(fit.intercept_[0]), d0, keep, path=out / name,
                           bank=bank)
            print(f"wrote {out / name}: drop {d0}, keep {keep}, {len(bank[1])} lines in the bank")


def pick2(p_lr, p_nn, y, groups, ext, stated, promise, use):
    """Drop when the regression is at or above ``a`` and the neighbours' vote at or above
    ``b``; keep as said under ``keep`` of their mean; chosen as ``smalltalk_values.pick``."""
    grid = np.round(np.arange(0.30, 0.96, 0.05), 2)
    gid, month, n, said_n, talk_n = T.set_counts(groups, use, y)
    mean = (p_lr + p_nn) / 2
    best = None
    for a in grid:
        for b in grid:
            dropped = (p_lr >= a) & (p_nn >= b)
            for keep in grid:
                kept = ((ext & (~dropped | promise)) | (~ext & stated & (mean < keep))) & use
                said_k = np.bincount(gid[kept & (y == 0)], minlength=n)
                talk_k = np.bincount(gid[kept & (y == 1)], minlength=n)
                said = said_k[month].sum() / max(said_n[month].sum(), 1)
                lines_ = said_k[~month].sum() / max(said_n[~month].sum(), 1)
                ok = said >= T.MIN_STATEMENTS_KEPT and lines_ >= T.MIN_LINES and (
                    (said_k[month] / np.maximum(said_n[month], 1)).min() >= T.MIN_MONTH)
                chatter = float(np.mean(talk_k[month] / np.maximum(talk_n[month], 1)))
                score = (ok, -chatter, float(said))
                if best is None or score > best[0]:
                    best = (score, float(a), float(b), float(keep))
    return best


if __name__ == "__main__":
    main()
