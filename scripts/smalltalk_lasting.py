"""Round thirty-six (h/small36, issue 30): why a moment naming someone of the person's reads as
a statement to the small-talk judge, and the judge refitted with a feature it lacked: whether
the message states a lasting attribute of the person's (the statement-attributes head's
probabilities, ``wave_agent/write/statement_attributes.npz``, fitted on months 2-24 only, over
the same e5 vector), beside the newer tuning months' labelled rows.

Held out (never in a fit or a choice; only counts printed): the months of ``SMALLTALK_HELD``
(default ``tuning_35`` .. ``tuning_39``). The design parts are scored out of fold (``FOLDS``
folds of parts, ``smalltalk_refit.folds``); the held months by the judge of every design part,
at each language's drop / keep pair chosen on the design parts by ``train_smalltalk``'s rule
(round thirty-five's ``--per-language``).

``--why``: on a sample of the design months' lines, out of fold, the share of small talk stored and of statements
kept by what the reader names (``READER``, an ``.npy`` of reader counts in ``lines()``'s order:
persons, pets, places, mentions, links from the person, values, the person's values, a Russian
past-tense verb, a Russian first-person present or future verb; the index of the line first:
``scripts/smalltalk_reader_counts.py``) and by the attribute head.
Variants (``--variants``): ``base`` (round thirty-five's recipe: the vote beside the
regression, chat set 7 weighing 2), ``attr`` (the same, the regression also reading the
head's probabilities, each times ``ATTR_SCALE``); ``,months*2`` and the like weigh a set's
lines more, as ``smalltalk_refit.py`` reads them. ``--save FILE VARIANT`` writes
that variant's judge for the package (not ``attr``: the package does not read the head).

    SMALLTALK_CACHE=/tmp/st.npz SMALLTALK_SINGLE_LINE=3 SMALLTALK_MIN_MONTH=0 HF_HUB_OFFLINE=1 \\
      PYTHONPATH=. .venv/bin/python scripts/smalltalk_lasting.py [--why] [--variants "base attr"] \\
      [--save FILE VARIANT] [--scores]

``--named`` (with ``READER`` of ``smalltalk_reader_counts.py``'s ``ROWS``: every line the
extractor kept a fact of scored 0.35 to 0.76, the only ones a lower drop can change): a drop
threshold of its own, per language, for a message naming a person or pet.
``--scores``: each variant's scores from the earlier run (``/tmp/small36-work/p-VARIANT.npy``)
instead of a refit (for ``--why``).
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

HELD = {f"month_tuning_{n}" for n in os.environ.get("SMALLTALK_HELD", "35,36,37,38,39").split(",")}
R.HELD = HELD
C = float(os.environ.get("SMALLTALK_C", "32").split(",")[0])
ATTR_SCALE = float(os.environ.get("ATTR_SCALE", "4"))
FACTOR = {"tuning_7": 2.0}
ATTRIBUTES = Path(__file__).resolve().parents[1] / "wave_agent/write/statement_attributes.npz"  # round thirty-five's: chat set 7 weighing twice


def attribute_head(x: np.ndarray) -> np.ndarray:
    """The statement-attributes head's probability of each attribute, per vector."""
    with np.load(ATTRIBUTES, allow_pickle=False) as data:
        w, b = np.asarray(data["weights"], np.float64), np.asarray(data["bias"], np.float64)
    return 1 / (1 + np.exp(-(x[:, :smalltalk.DIM] @ w.T + b)))


class Judge:
    """The vote beside a regression; the regression over the vector and ``cols`` extra columns."""

    def __init__(self, x, cols, y, groups, extra, extra_cols, factor=FACTOR):
        self.bank = (np.vstack([x, extra]), np.concatenate([y, np.zeros(len(extra))]),
                     R.line_weights(groups, len(extra), factor))
        xa = np.hstack([self.bank[0], np.vstack([cols, extra_cols])])
        self.model = LogisticRegression(C=C, max_iter=3000).fit(xa, self.bank[1],
                                                                 sample_weight=self.bank[2])

    def predict(self, x, cols):
        p = self.model.predict_proba(np.hstack([x, cols]))[:, 1]
        xa, ya, wa = self.bank
        both = np.vstack([xa, x])
        train = np.r_[np.ones(len(xa), bool), np.zeros(len(x), bool)]
        return 0.5 * p + 0.5 * K.knn(both, np.r_[ya, np.zeros(len(x))],
                                     np.r_[wa, np.ones(len(x))], train, ~train, smalltalk.NEIGHBOURS)


def columns(variant: str, attrs: np.ndarray) -> np.ndarray:
    cols = [np.zeros((len(attrs), 0))]
    if "attr" in variant:
        cols.append(ATTR_SCALE * attrs)
    return np.hstack(cols)


def share(kept, where):
    return f"{int(kept[where].sum())}/{int(where.sum())} ({kept[where].mean():.1%})" if where.any() else "-"


def why(p, kept, y, groups, langs, design_months, reader, attrs) -> None:
    """Design months, out of fold: small talk stored and statements kept by what is named."""
    talk, said = design_months & (y == 1), design_months & (y == 0)
    named = (reader[:, 0] + reader[:, 1]) > 0
    top = attrs.max(1)
    rows = {
        "a person or pet named": named,
        "none named": ~named,
        "a person named": reader[:, 0] > 0,
        "a pet named": reader[:, 1] > 0,
        "a value of the person's read": reader[:, 6] > 0,
        "no value read": reader[:, 5] == 0,
        "ru, a past-tense verb": (langs == "ru") & (reader[:, 7] > 0),
        "ru, no past-tense verb": (langs == "ru") & (reader[:, 7] == 0),
        "attribute head max >= 0.5": top >= 0.5,
        "attribute head max < 0.2": top < 0.2,
        "named, head max < 0.2": named & (top < 0.2),
        "named, head max >= 0.5": named & (top >= 0.5),
    }
    print("why (design months, out of fold): class | small talk stored | statements kept | "
          "small talk's mean p | statements' mean p")
    for name, at in rows.items():
        print(f"  {name}: {share(kept, talk & at)} | {share(kept, said & at)} | "
              f"{p[talk & at].mean():.2f} | {p[said & at].mean():.2f}")
    stored_talk = talk & kept
    print(f"  stored small talk: {int(stored_talk.sum())}; named {int((stored_talk & named).sum())}, "
          f"p < 0.5 {int((stored_talk & (p < 0.5)).sum())}, named and p < 0.5 "
          f"{int((stored_talk & named & (p < 0.5)).sum())}")
    for j, name in enumerate(ATTRS):
        hi = attrs[:, j] >= 0.5
        print(f"  head '{name}' >= 0.5: small talk {share(kept, talk & hi)}, statements "
              f"{share(kept, said & hi)}")


ATTRS: tuple[str, ...] = ()


def rule(kept, y, groups, use, bar=0.90):
    """``smalltalk_heads.pick``'s score of one verdict over the lines ``use``."""
    return H.score(kept & use, y, T.set_counts(groups, use, y), bar)


def named_drop(p, kept, pairs, y, groups, langs, detected, ext, stated, promise, design, held,
               named) -> np.ndarray:
    """A lower drop threshold for a message the reader names a person or pet in, per language,
    chosen by the rule on the design parts (the other lines at their language's pair)."""
    out = kept.copy()
    for lang, (d, k) in pairs.items():
        at = detected == lang
        best = None
        for dn in np.round(np.arange(0.35, d + 0.001, 0.01), 2):
            trial = out.copy()
            here = at & named
            trial[here] = H.stored(p, ext, stated, promise, float(dn), k)[here]
            score = rule(trial, y, groups, design & at)
            if best is None or score > best[0]:
                best = (score, float(dn), trial)
        assert best is not None
        print(f"  named, {lang}: drop {best[1]} (the language's {d}), met {best[0][0]}")
        out = best[2]
    months = np.char.startswith(groups.astype(str), "month_")
    H.report("design months, named drop (out of fold, tuning)", out, y, langs, design & months)
    H.report("design other sets, named drop (out of fold, tuning)", out, y, langs, design & ~months)
    H.report("HELD months, named drop", out, y, langs, held)
    R.by_month(out, y, groups, langs)
    return out


def main() -> None:
    global ATTRS
    groups, texts, y = T.labelled()
    x, extra, ext, stated, promise = T.features(texts)
    with np.load(ATTRIBUTES, allow_pickle=False) as data:
        ATTRS = tuple(str(a) for a in data["attributes"])
    attrs, extra_attrs = attribute_head(x), attribute_head(extra)
    reader = sampled = None
    if os.environ.get("READER"):  # a sample of the design months' lines: index, then counts
        rows = np.load(os.environ["READER"])
        reader = np.zeros((len(y), rows.shape[1] - 1), np.int32)
        reader[rows[:, 0]] = rows[:, 1:]
        sampled = np.zeros(len(y), bool)
        sampled[rows[:, 0]] = True
    langs = H.langs_of(groups)
    detected = np.asarray([language(t) for t in texts])
    held = np.isin(groups, list(HELD))
    months = np.char.startswith(groups.astype(str), "month_")
    design = ~held
    f = R.folds(groups, design)
    variants, save = R.variants_and_save(["base", "attr"])
    shipped = smalltalk.model()
    assert shipped is not None
    now = np.asarray([shipped.probability(v[:smalltalk.DIM]) for v in x])
    base = np.zeros(len(y), bool)
    for lang in ("ru", "pl", "en"):
        at = detected == lang
        base[at] = H.stored(now, ext, stated, promise, *shipped.thresholds(lang))[at]
    print(f"held months {sorted(HELD)}; C {C}; the package's judge, AUC held months "
          f"{roc_auc_score(y[held], now[held]):.3f}")
    H.report("HELD months, the package's judge", base, y, langs, held)
    R.by_month(base, y, groups, langs)
    for variant in variants:
        cols, extra_cols = columns(variant, attrs), columns(variant, extra_attrs)
        factor = {**FACTOR, **R.parse(variant.replace("attr", "base"))[1]}
        scores = Path(f"/tmp/small36-work/p-{variant}.npy")
        if "--scores" in sys.argv and scores.exists():  # the variant's scores of an earlier run
            p = np.load(scores)
        else:
            p = np.zeros(len(y))
            for k in range(R.FOLDS):
                test, train = f == k, design & (f != k)
                p[test] = Judge(x[train], cols[train], y[train], groups[train], extra,
                                extra_cols, factor).predict(x[test], cols[test])
            judge = Judge(x[design], cols[design], y[design], groups[design], extra, extra_cols,
                          factor)
            p[held] = judge.predict(x[held], cols[held])
        kept = np.zeros(len(y), bool)
        pairs = {}
        for lang in ("ru", "pl", "en"):
            at = detected == lang
            (ok, _, _), d, kp = H.pick(p, y, groups, ext, stated, promise, design & at, 0.90)
            pairs[lang] = (d, kp)
            kept[at] = H.stored(p, ext, stated, promise, d, kp)[at]
            print(f"  {variant} {lang}: drop {d}, keep {kp}, met {ok}")
        print(f"== {variant}: AUC design months {roc_auc_score(y[design & months], p[design & months]):.3f}"
              f", held months {roc_auc_score(y[held], p[held]):.3f}")
        H.report("design months (out of fold, tuning)", kept, y, langs, design & months)
        H.report("design other sets (out of fold, tuning)", kept, y, langs, design & ~months)
        H.report("tuning_7 (out of fold, tuning)", kept, y, langs, groups == "tuning_7")
        if "--named" in sys.argv and reader is not None:
            named_drop(p, kept, pairs, y, groups, langs, detected, ext, stated, promise, design,
                       held, (reader[:, 0] + reader[:, 1]) > 0)
        if "--why" in sys.argv and reader is not None and sampled is not None:
            why(p, kept, y, groups, langs, design & months & sampled, reader, attrs)
        H.report("HELD months", kept, y, langs, held)
        R.by_month(kept, y, groups, langs)
        scores.parent.mkdir(exist_ok=True)
        np.save(scores, p)
        if save:  # the package reads the regression over the vector and the bank only
            assert "attr" not in variant, "the package does not read the attribute head"
            model = judge.model
            (_, _, _), d_all, k_all = H.pick(p, y, groups, ext, stated, promise, design, 0.90)
            smalltalk.save(model.coef_[0], float(model.intercept_[0]), d_all, k_all,
                           path=Path(save[0]), bank=judge.bank, by_language=pairs)
            print(f"   wrote {save[0]} ({variant})")


if __name__ == "__main__":
    main()
