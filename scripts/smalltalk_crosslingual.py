"""Round thirty-eight (h/small38, issue 30): small talk stored in English and Polish. How few
labelled English and Polish lines each design part holds, and whether what Russian's many lines
know carries over to them: the per-language (drop, keep) pair chosen pooled with Russian, the
nearest Russian lines' vote for an English or Polish message, and the e5 vector with its
language's mean taken out (so a Polish moment's neighbours are moments in any language).

Held out (never in a fit or a choice; only counts printed): the months of ``SMALLTALK_HELD``
(default ``tuning_37`` .. ``tuning_41``). Every design part is scored out of fold (six folds of
parts: a month, a chat set, a line set is one author), the held months by the judge of every
design part; each pair is chosen by ``train_smalltalk``'s rule over the design lines it names.

    SMALLTALK_CACHE=/tmp/small38-work/cache.npz SMALLTALK_SINGLE_LINE=3 SMALLTALK_MIN_MONTH=0 \\
      HF_HUB_OFFLINE=1 PYTHONPATH=. .venv/bin/python scripts/smalltalk_crosslingual.py \\
      [--counts] [--variants "base centred"] [--out DIR] [--held] [--save FILE]

``--held`` prints the held months' counts (run once the choice is made on the design parts);
``--save FILE`` writes ``centred``'s judge of every design part with its ``own`` pairs for the
package (the means, the centred bank; the one pair over every language as the file's own) and
recounts the held months through the package's reader of it.

Variants: ``base`` (round thirty-five's recipe: the regression and the nearest 15 lines' vote,
chat set 7 weighing 2, C 32), ``centred`` (the same over each vector less the mean vector of its
language, ``offline_extract.language`` of the line, the means taken over the training lines).
For each variant the pairs: ``own`` (round thirty-five: the rule within each language),
``pooled`` (one pair over every language), ``with-ru`` (English's and Polish's pair chosen by the
rule over their lines and the Russian ones together, Russian's its own); and for ``base`` the
vote of the Russian lines alone for an English or Polish message (``ru-vote``).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import numpy as np
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import roc_auc_score

sys.path.insert(0, str(Path(__file__).resolve().parent))
import smalltalk_heads as H
import smalltalk_knn as K
import smalltalk_refit as R
import train_smalltalk as T

from wave_agent.llm.offline_extract import language
from wave_agent.policy import smalltalk

HELD = {f"month_tuning_{n}" for n in os.environ.get("SMALLTALK_HELD", "37,38,39,40,41").split(",")}
R.HELD = HELD
C = 32.0
FACTOR = {"tuning_7": 2.0}
LANGS = ("ru", "pl", "en")
OUT = Path(sys.argv[sys.argv.index("--out") + 1]) if "--out" in sys.argv else Path("/tmp/small38-work")


def kind_of(groups: np.ndarray) -> np.ndarray:
    """month, chat (a set written as conversations) or line (a single-line set, the offline lines)."""
    chat = {g for g in set(groups) if T.in_conversation(g)}
    return np.asarray(["month" if str(g).startswith("month_") else "chat" if g in chat else "line"
                       for g in groups])


def counts(y, groups, langs, design) -> None:
    kinds = kind_of(groups)
    print("design lines by kind, language, label (small talk / statements):")
    for kind in ("month", "chat", "line"):
        parts = sorted(set(groups[design & (kinds == kind)]))
        row = []
        for lg in LANGS:
            at = design & (kinds == kind) & (langs == lg)
            row.append(f"{lg} {int((at & (y == 1)).sum())} / {int((at & (y == 0)).sum())}")
        print(f"  {kind} ({len(parts)} parts): " + ", ".join(row))


def centre(x: np.ndarray, lang: np.ndarray, train: np.ndarray) -> tuple[np.ndarray, dict]:
    """Each vector less its language's mean over ``train``, made unit length again."""
    means = {lg: x[train & (lang == lg)].mean(0) for lg in LANGS}
    out = x.copy()
    for lg, m in means.items():
        out[lang == lg] -= m
    return out / np.linalg.norm(out, axis=1, keepdims=True), means


class Judge:
    """The regression and the nearest lines' vote (``bank_lang``: the vote of an English or
    Polish line may be limited to the Russian lines)."""

    def __init__(self, x, y, groups, extra):
        self.bank = (np.vstack([x, extra]), np.concatenate([y, np.zeros(len(extra))]),
                     R.line_weights(groups, len(extra), FACTOR))
        self.model = LogisticRegression(C=C, max_iter=3000).fit(*self.bank[:2],
                                                                sample_weight=self.bank[2])

    def predict(self, x, only=None):
        p = self.model.predict_proba(x)[:, 1]
        xa, ya, wa = self.bank
        use = np.ones(len(xa), bool) if only is None else only
        both = np.vstack([xa, x])
        train = np.r_[use, np.zeros(len(x), bool)]
        test = np.r_[np.zeros(len(xa), bool), np.ones(len(x), bool)]
        return 0.5 * p + 0.5 * K.knn(both, np.r_[ya, np.zeros(len(x))], np.r_[wa, np.ones(len(x))],
                                     train, test, smalltalk.NEIGHBOURS), p


def scores(variant, x, extra, y, groups, det, det_extra, design, held, f):
    """Out of fold on the design parts, the judge of every design part on the held months:
    the probability, the regression alone, and the vote of Russian lines only beside it."""
    p, lr, p_ru = np.zeros(len(y)), np.zeros(len(y)), np.zeros(len(y))
    for k in [*range(R.FOLDS), "held"]:
        if k == "held":
            test, train = held, design
        else:
            test, train = f == k, design & (f != k)
        xx, ee = x, extra
        if variant == "centred":
            both, _ = centre(np.vstack([x, extra]), np.r_[det, det_extra],
                             np.r_[train, np.ones(len(extra), bool)])
            xx, ee = both[:len(x)], both[len(x):]
        judge = Judge(xx[train], y[train], groups[train], ee)
        p[test], lr[test] = judge.predict(xx[test])
        ru_bank = np.r_[det[train] == "ru", det_extra == "ru"]
        p_ru[test], _ = judge.predict(xx[test], ru_bank)
        print(f"   {variant}: fold {k} done", flush=True)
    return p, lr, p_ru


def apply(p, ext, stated, promise, det, pairs):
    kept = np.zeros(len(p), bool)
    for lg, (d, kp) in pairs.items():
        at = det == lg
        kept[at] = H.stored(p, ext, stated, promise, d, kp)[at]
    return kept


def choose(p, y, groups, ext, stated, promise, det, design, how):
    """The (drop, keep) pair of each language by the rule over the design lines ``how`` names."""
    pairs = {}
    if how == "pooled":
        (_, _, _), d, kp = H.pick(p, y, groups, ext, stated, promise, design, 0.90)
        return {lg: (d, kp) for lg in LANGS}
    for lg in LANGS:
        use = design & ((det == lg) | ((det == "ru") if how == "with-ru" else False))
        (_, _, _), d, kp = H.pick(p, y, groups, ext, stated, promise, use, 0.90)
        pairs[lg] = (d, kp)
    return pairs


def save(path, x, extra, y, groups, det, det_extra, design, p, ext, stated, promise):
    """``centred``'s judge of every design part, as the held months were scored, for the package."""
    both, means = centre(np.vstack([x, extra]), np.r_[det, det_extra],
                         np.r_[design, np.ones(len(extra), bool)])
    judge = Judge(both[:len(x)][design], y[design], groups[design], both[len(x):])
    pairs = choose(p, y, groups, ext, stated, promise, det, design, "own")
    (_, _, _), d, kp = H.pick(p, y, groups, ext, stated, promise, design, 0.90)
    smalltalk.save(judge.model.coef_[0], float(judge.model.intercept_[0]), d, kp, path=path,
                   bank=judge.bank, by_language=pairs, centres=means)
    print(f"   wrote {path}: pairs {pairs}, its own {d} / {kp}", flush=True)


def auc(y, p, at):
    return f"{roc_auc_score(y[at], p[at]):.3f}" if len(set(y[at])) == 2 else "-"


def main() -> None:
    groups, texts, y = T.labelled()
    x, extra, ext, stated, promise = T.features(texts)
    langs = H.langs_of(groups)
    det = np.asarray([language(t) for t in texts])
    det_extra = np.asarray([language(t) for t in T.statements_of_attributes()])
    held = np.isin(groups, list(HELD))
    assert held.sum() > 0
    design = ~held
    months = np.char.startswith(groups.astype(str), "month_")
    f = R.folds(groups, design)
    print(f"held months {sorted(HELD)}: {int(held.sum())} lines; design {int(design.sum())} lines "
          f"in {len(set(groups[design]))} parts; the door's language agrees with the label on "
          f"{(det[design] == langs[design]).mean():.1%} of design lines", flush=True)
    if "--counts" in sys.argv:
        counts(y, groups, langs, design)
    shipped = smalltalk.model()
    assert shipped is not None
    now = np.asarray([shipped.probability(v[:smalltalk.DIM]) for v in x])
    before = apply(now, ext, stated, promise, det,
                   {lg: shipped.thresholds(lg) for lg in LANGS})
    print(f"the package's judge, AUC held months {auc(y, now, held)}; "
          + ", ".join(f"{lg} {auc(y, now, held & (langs == lg))}" for lg in LANGS))
    H.report("HELD months, the package's judge", before, y, langs, held)
    R.by_month(before, y, groups, langs)
    variants = (sys.argv[sys.argv.index("--variants") + 1].split(" ")
                if "--variants" in sys.argv else ["base", "centred"])
    for variant in variants:
        path = OUT / f"p-{variant}.npz"
        if path.exists() and "--refit" not in sys.argv:
            with np.load(path) as d:
                p, lr, p_ru = d["p"], d["lr"], d["p_ru"]
        else:
            p, lr, p_ru = scores(variant, x, extra, y, groups, det, det_extra, design, held, f)
            np.savez(path, p=p, lr=lr, p_ru=p_ru)
        # the vote of the Russian lines for English and Polish messages, the rest as it was
        mixed = np.where(det == "ru", p, p_ru)
        vote_all, vote_ru = 2 * p - lr, 2 * p_ru - lr
        print(f"== {variant}: AUC, design months out of fold (ru / pl / en): "
              + ", ".join(auc(y, p, design & months & (langs == lg)) for lg in LANGS)
              + "; the vote alone " + ", ".join(auc(y, vote_all, design & months & (langs == lg))
                                                for lg in LANGS)
              + "; the Russian lines' vote alone " + ", ".join(
                  auc(y, vote_ru, design & months & (langs == lg)) for lg in LANGS)
              + "; the regression alone " + ", ".join(
                  auc(y, lr, design & months & (langs == lg)) for lg in LANGS), flush=True)
        trials = [(f"{variant}, {how}", p, how) for how in ("own", "pooled", "with-ru")]
        trials += [(f"{variant}, ru-vote, {how}", mixed, how) for how in ("own", "with-ru")]
        for name, q, how in trials:
            pairs = choose(q, y, groups, ext, stated, promise, det, design, how)
            kept = apply(q, ext, stated, promise, det, pairs)
            print(f"-- {name}: pairs " + ", ".join(f"{lg} {d:.2f}/{kp:.2f}"
                                                    for lg, (d, kp) in pairs.items()))
            H.report("design months (out of fold, tuning)", kept, y, langs, design & months)
            H.report("design other sets (out of fold, tuning)", kept, y, langs, design & ~months)
            if "--held" in sys.argv:
                H.report("HELD months", kept, y, langs, held)
                R.by_month(kept, y, groups, langs)
            np.save(OUT / f"kept-{name.replace(', ', '_')}.npy", kept)
        if "--save" in sys.argv and variant == "centred":
            path = Path(sys.argv[sys.argv.index("--save") + 1])
            save(path, x, extra, y, groups, det, det_extra, design, p, ext, stated, promise)
            os.environ["WAVE_SMALLTALK_MODEL"] = str(path)
            smalltalk.model.cache_clear()
            judge = smalltalk.model()
            assert judge is not None
            q = np.asarray([judge.probability(v[:smalltalk.DIM], lg) for v, lg in zip(x, det, strict=True)])
            kept = apply(q, ext, stated, promise, det, {lg: judge.thresholds(lg) for lg in LANGS})
            print(f"   the saved file through the package's reader: the largest difference from "
                  f"the script's scores {np.abs(q - p)[held].max():.4f} (held), "
                  f"{np.abs(q - p)[design].max():.4f} (design, in sample there)")
            H.report("HELD months, the saved file read by the package", kept, y, langs, held)
            R.by_month(kept, y, groups, langs)
            guess = np.asarray([judge.probability(v[:smalltalk.DIM]) for v in x[held]])
            print(f"   without the language (the nearest mean): the largest difference on the held "
                  f"months {np.abs(guess - q[held]).max():.4f}")


if __name__ == "__main__":
    main()
