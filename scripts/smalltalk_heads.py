"""Round thirty-three (h/small33, issue 30): the small-talk judge's heads and bars, held out.

Held out (never in a fit, never in a choice; only counts printed): the months of
``SMALLTALK_HELD`` (default ``tuning_30`` .. ``tuning_34``) and the single-line sets of
``SMALLTALK_HELD_SETS`` (default ``tuning_2``, ``bench/data/smalltalk/tuning_2.json``). The
other parts (the design parts) are scored out of fold (``SMALLTALK_FOLDS`` folds of parts, round
robin); the held parts by a model trained on every design part, at thresholds chosen on the
design parts' out-of-fold scores by ``train_smalltalk``'s rule (the least of the months' small
talk, months' statements >= 95% together, the other sets' statements >= the bar), the bar
swept. Heads: the package's regression retrained (C, single-line weight as ``train_smalltalk``
reads them), the vote of the nearest labelled lines beside it (round thirty-one), and the
regression with the attribute set's statements weighing each of ``SMALLTALK_EXTRA_WEIGHTS``.
``--previous``: instead, the regression over the message's vector beside the vector of the
month's message before it (zeros for a month's first message and for every single line);
``--within MIN`` only when said at most MIN minutes before (-1: the same calendar day);
``--indicator`` only whether there is one; ``--after`` also scores the held single lines each
said after a random other line of their set and language, ``--augment`` trains on the design
lines so paired too. ``--save FILE`` writes the head of every design
part at the first bar's thresholds (with ``--previous`` its weights read two vectors, or the
vector and the column: main's ``policy/smalltalk.py`` reads neither; round thirty-three's door
change that did was reverted). Every held month's counts are printed.

    SMALLTALK_CACHE=/tmp/st.npz SMALLTALK_C=32 SMALLTALK_SINGLE_LINE=3 SMALLTALK_MIN_MONTH=0 \\
      SMALLTALK_EXTRA_WEIGHTS=3,10 HF_HUB_OFFLINE=1 PYTHONPATH=. .venv/bin/python \\
      scripts/smalltalk_heads.py [--bars 0.9,0.85] [--previous [--within -1] [--indicator]]
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import numpy as np
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import roc_auc_score

sys.path.insert(0, str(Path(__file__).resolve().parent))
import smalltalk_knn as K
import train_smalltalk as T

from wave_agent.policy import smalltalk

ROOT = Path(__file__).resolve().parents[1]
FOLDS = int(os.environ.get("SMALLTALK_FOLDS", "6"))
HELD = {f"month_tuning_{n}" for n in os.environ.get("SMALLTALK_HELD", "30,31,32,33,34").split(",")}
HELD_SETS = set(os.environ.get("SMALLTALK_HELD_SETS", "tuning_2").split(","))
GRID = np.round(np.arange(0.30, 0.96, 0.01), 2)


def langs_of(groups: np.ndarray) -> np.ndarray:
    """Each line's language, in ``T.lines()``'s order ("" where the source names none)."""
    out: list[str] = []
    for path in sorted((ROOT / "bench/data/smalltalk").glob("tuning*.json")):
        from wave_agent.bench.smalltalk import load

        out += [str(i.get("lang", "")) for i in load(path)]
    from wave_agent.bench.offline import load as load_offline

    out += [str(getattr(line, "lang", "")) for line in load_offline().lines if line.split == "tune"]
    for path in sorted((ROOT / "bench/data/month").glob("tuning*.json")):
        month = json.loads(path.read_text(encoding="utf-8"))
        out += [str(m.get("lang", "")) for m in month["messages"]
                if m["kind"] in ("statement", "small_talk", "question")]
    assert len(out) == len(groups)
    return np.asarray(out)


def times_of(groups: np.ndarray) -> np.ndarray:
    """Each month message's time in minutes (NaN for the other sets' lines), ``T.lines()``'s
    order."""
    from datetime import datetime

    out: list[float] = []
    for path in sorted((ROOT / "bench/data/month").glob("tuning*.json")):
        month = json.loads(path.read_text(encoding="utf-8"))
        out += [datetime.fromisoformat(m["at"]).timestamp() / 60 for m in month["messages"]
                if m["kind"] in ("statement", "small_talk", "question")]
    t = np.full(len(groups), np.nan)
    t[np.char.startswith(groups.astype(str), "month_")] = out
    return t


def previous_within(x: np.ndarray, groups: np.ndarray, minutes: float) -> np.ndarray:
    """``T.with_previous``, the message before counted only when said at most ``minutes``
    before (the door's session: a message after a longer pause opens a new one)."""
    t = times_of(groups)
    both = T.with_previous(x, groups)
    if minutes < 0:  # -1: the same calendar day (the day's episode log)
        day = np.floor(t / 1440)
        same = np.r_[False, day[1:] == day[:-1]]
    else:
        same = np.r_[False, np.diff(t) <= minutes]
    both[~same, x.shape[1]:] = 0
    return both


def after_another(x, y, groups, langs, ext, stated, promise, train: bool):
    """The lines of the single-line sets again, each beside a random other line of its set and
    language (its previous part set to that line's vector, or to 1 for ``--indicator``)."""
    rng = np.random.default_rng(0)
    months = np.char.startswith(groups.astype(str), "month_")
    sets = sorted(set(groups[~months]) if train else set(groups[~months]) & HELD_SETS)
    rows, before = [], []
    for g in sets:
        if not train and g not in HELD_SETS:
            continue
        for lg in set(langs[groups == g]):
            at = np.flatnonzero((groups == g) & (langs == lg))
            if len(at) < 2:
                continue
            for i in at:
                j = rng.choice(at[at != i])
                rows.append(i)
                before.append(j)
    rows_, before_ = np.asarray(rows), np.asarray(before)
    dim = 384
    copy = x[rows_].copy()
    copy[:, dim:] = 1 if x.shape[1] == dim + 1 else x[before_, :dim]
    tag = np.asarray([f"{g}+after" for g in groups[rows_]])
    return (np.vstack([x, copy]), np.concatenate([y, y[rows_]]), np.concatenate([groups, tag]),
            np.concatenate([langs, langs[rows_]]), np.concatenate([ext, ext[rows_]]),
            np.concatenate([stated, stated[rows_]]), np.concatenate([promise, promise[rows_]]))


def fit(x, y, groups, extra, extra_weight=1.0, c=None):
    w = T.weights(groups, len(extra))
    w[len(y):] = extra_weight
    return LogisticRegression(C=c or T.C_GRID[0], max_iter=3000).fit(
        np.vstack([x, extra]), np.concatenate([y, np.zeros(len(extra))]), sample_weight=w)


def folds(groups: np.ndarray, held: np.ndarray) -> np.ndarray:
    parts = sorted(set(groups[~held]))
    fold = {g: i % FOLDS for i, g in enumerate(parts)}
    return np.asarray([fold.get(g, -1) for g in groups])


def regression(x, y, groups, extra, held, extra_weight=1.0):
    p = np.zeros(len(y))
    f = folds(groups, held)
    for k in range(FOLDS):
        test = f == k
        train = ~held & ~test
        p[test] = fit(x[train], y[train], groups[train], extra, extra_weight).predict_proba(x[test])[:, 1]
    p[held] = fit(x[~held], y[~held], groups[~held], extra, extra_weight).predict_proba(x[held])[:, 1]
    return p


def vote(x, y, groups, extra, held, k=15):
    xa = np.vstack([x, extra])
    ya = np.concatenate([y, np.zeros(len(extra))])
    wa = T.weights(groups, len(extra))
    fa = np.concatenate([folds(groups, held), np.full(len(extra), -2)])
    ha = np.concatenate([held, np.zeros(len(extra), bool)])
    p = np.zeros(len(ya))
    for j in range(FOLDS):
        test = fa == j
        p[test] = K.knn(xa, ya, wa, ~ha & ~test, test, k)
    p[ha] = K.knn(xa, ya, wa, ~ha, ha, k)
    return p[:len(y)]


def stored(p, ext, stated, promise, drop, keep):
    return np.asarray((ext & ((p < drop) | promise)) | (~ext & stated & (p < keep)), dtype=bool)


def score(kept, y, counts, bar):
    """One verdict's score over the lines ``kept`` was taken from (``counts``:
    ``T.set_counts``): whether the months and the single-line sets keep their statements, then
    the months' small talk stored (less is better), then their statements kept."""
    gid, month, n, said_n, talk_n = counts
    said_k = np.bincount(gid[kept & (y == 0)], minlength=n)
    talk_k = np.bincount(gid[kept & (y == 1)], minlength=n)
    said = said_k[month].sum() / max(said_n[month].sum(), 1)
    lines_ = said_k[~month].sum() / max(said_n[~month].sum(), 1)
    each = said_k[month] / np.maximum(said_n[month], 1)
    ok = bool(said >= T.MIN_STATEMENTS_KEPT and lines_ >= bar and each.min() >= T.MIN_MONTH)
    return ok, -float(np.mean(talk_k[month] / np.maximum(talk_n[month], 1))), float(said)


def pick(p, y, groups, ext, stated, promise, use, bar):
    counts = T.set_counts(groups, use, y)
    best = None
    for d0 in GRID:
        for keep in GRID[d0 >= GRID][::3]:
            kept = stored(p, ext, stated, promise, d0, keep) & use
            score_ = score(kept, y, counts, bar)
            if best is None or score_ > best[0]:
                best = (score_, float(d0), float(keep))
    assert best is not None
    return best


def report(name, kept, y, langs, where):
    talk, said = where & (y == 1), where & (y == 0)
    by = ", ".join(f"{lg} {int((kept & talk & (langs == lg)).sum())}/{int((talk & (langs == lg)).sum())}"
                   f" {int((kept & said & (langs == lg)).sum())}/{int((said & (langs == lg)).sum())}"
                   for lg in ("ru", "pl", "en"))
    print(f"  {name}: small talk stored {int(kept[talk].sum())}/{int(talk.sum())} "
          f"({kept[talk].mean():.1%}), statements kept {int(kept[said].sum())}/{int(said.sum())} "
          f"({kept[said].mean():.1%}); by language (small talk, statements) {by}", flush=True)


def main() -> None:
    groups, texts, y = T.labelled()
    x, extra, ext, stated, promise = T.features(texts)
    langs = langs_of(groups)
    if "--previous" in sys.argv:  # the message said before it in its month beside it (zeros
        # for a month's first message and for every single line): heads of the regression only
        within = (float(sys.argv[sys.argv.index("--within") + 1]) if "--within" in sys.argv
                  else None)
        x = T.with_previous(x, groups) if within is None else previous_within(x, groups, within)
        extra = np.hstack([extra, np.zeros_like(extra)])
        if "--indicator" in sys.argv:  # only whether there is one, not what it says
            x = np.hstack([x[:, :384], (np.abs(x[:, 384:]).sum(1, keepdims=True) > 0)])
            extra = extra[:, :385]
        if within is not None:
            print(f"the previous message only within {within:g} minutes: "
                  f"{int((np.abs(x[:, 384:]).sum(1) > 0).sum())} lines have one")
    if "--previous" in sys.argv and ("--augment" in sys.argv or "--after" in sys.argv):
        # each single line once more, said after a random line of its own set and language (a
        # part of its own, "<set>+after": in training with --augment, held for the held sets)
        x, y, groups, langs, ext, stated, promise = after_another(
            x, y, groups, langs, ext, stated, promise, "--augment" in sys.argv)
    held_months = np.isin(groups, list(HELD))
    held_sets = np.isin(groups, list(HELD_SETS))
    held_after = np.isin(groups, [f"{g}+after" for g in HELD_SETS])
    held = held_months | held_sets | held_after
    months = np.char.startswith(groups.astype(str), "month_")
    design_months = months & ~held
    design_other = ~months & ~held
    bars = [float(b) for b in (sys.argv[sys.argv.index("--bars") + 1].split(",")
                               if "--bars" in sys.argv else ["0.90", "0.85", "0.80"])]
    shipped = smalltalk.model()
    assert shipped is not None
    now = np.asarray([shipped.probability(v[:smalltalk.DIM]) for v in x])
    base = stored(now, ext, stated, promise, shipped.threshold, shipped.keep)
    print(f"the package's judge ({shipped.threshold} / {shipped.keep}); AUC held months "
          f"{roc_auc_score(y[held_months], now[held_months]):.3f}")
    report("held months", base, y, langs, held_months)
    report("held single lines (a tuning figure for the package: it trained on them)", base, y,
           langs, held_sets)
    p_lr = regression(x, y, groups, extra, held)
    if "--previous" in sys.argv:
        heads = {"regression, the previous message beside it": p_lr}
        p_nn = None
    else:
        p_nn = vote(x, y, groups, extra, held)
        heads = {"regression": p_lr, "regression+vote": (p_lr + p_nn) / 2}
    for w in (float(v) for v in os.environ.get("SMALLTALK_EXTRA_WEIGHTS", "3").split(",") if v):
        q = regression(x, y, groups, extra, held, w)
        heads[f"regression, attribute statements x{w:g}"] = q
        if p_nn is not None:
            heads[f"regression, attribute statements x{w:g} +vote"] = (q + p_nn) / 2
    if "--save-scores" in sys.argv:
        np.savez(sys.argv[sys.argv.index("--save-scores") + 1], groups=groups, y=y,
                 **{k.replace(" ", "_"): v for k, v in heads.items()}, now=now)
    for name, p in heads.items():
        print(f"{name}: AUC design months {roc_auc_score(y[design_months], p[design_months]):.3f}, "
              f"held months {roc_auc_score(y[held_months], p[held_months]):.3f}, held lines "
              f"{roc_auc_score(y[held_sets], p[held_sets]):.3f}")
        for bar in bars:
            (ok, _, _), drop, keep = pick(p, y, groups, ext, stated, promise, ~held, bar)
            kept = stored(p, ext, stated, promise, drop, keep)
            print(f" bar {bar}: drop {drop}, keep {keep}, met {ok}")
            report("design months (out of fold, tuning)", kept, y, langs, design_months)
            report("design other sets (out of fold, tuning)", kept, y, langs, design_other)
            report("HELD months", kept, y, langs, held_months)
            report("HELD single lines", kept, y, langs, held_sets)
            if held_after.any():
                report("HELD single lines, each said after another of its set", kept, y, langs,
                       held_after)
            for g in sorted(set(groups[held_months])):
                at = groups == g
                print(f"   {g}: small talk {int(kept[at & (y == 1)].sum())}/{int((at & (y == 1)).sum())}"
                      f", statements {int(kept[at & (y == 0)].sum())}/{int((at & (y == 0)).sum())}")
            if "--save" in sys.argv and bar == bars[0]:
                # the head of every design part at these thresholds: the file measured above
                out = Path(sys.argv[sys.argv.index("--save") + 1])
                model = fit(x[~held], y[~held], groups[~held], extra)
                smalltalk.save(model.coef_[0], float(model.intercept_[0]), drop, keep, path=out)
                print(f"   wrote {out} ({name}, drop {drop}, keep {keep})")


if __name__ == "__main__":
    main()
