"""Train the judge of small talk and of statements worth remembering
(``wave_agent/policy/smalltalk.py``) and write ``smalltalk.npz``.

Data, each source one author's: every ``bench/data/smalltalk/tuning*.json`` (statement /
small_talk / question; lines, or conversations of them), the tune split of
``bench/data/offline_lines.txt`` (K lines are statements, S lines small talk), the messages of
every tuning month ``bench/data/month/tuning*.json`` (their pasted instructions left out) and
the statements of ``bench/data/attributes/tuning.json`` (every item that sets a value; always in
training, it has no small talk to test on). The held split of the offline lines, the kept-aside
months and every ``kept_aside*`` set are never read. Features: the e5 passage vector of the
whole message. A logistic regression; a message said in a conversation (a month's, a set
written as conversations) weighs ``IN_CONVERSATION`` single lines.

Everything is chosen out of fold, grouped by author: each part is scored by a model trained
without it (the next person writes like none of them). Each line also goes through the offline
extractor, as the post-processor runs it, to know what the judge decides on:
``threshold`` (at or above it, drop what the extractor kept), ``keep`` (under it, keep as said a
statement the extractor found nothing in; at most ``threshold``) and C are the ones that store
the least of the months' small talk (the mean of the months' shares), out of fold, with the
months' statements kept >= 95% together and each, and the other sets' statements >= 90%
together; then the most statements. The bar is the month's because the month is where issue
30's targets are measured: before (h/month7, 2026-12-03) every author's statements had to be
kept >= 90% out of fold, single-line sets included, and the drop threshold that held the worst
line author there (0.82-0.88) left 32.7% of a new author's small talk in a month, leave one
month out over five months (statements kept 98.0%); with the bar on the months, 22.8% (97.0%).

    PYTHONPATH=. .venv/bin/python scripts/train_smalltalk.py
    PYTHONPATH=. .venv/bin/python scripts/train_smalltalk.py --leave-one-month-out
    SMALLTALK_CACHE=/tmp/st.npz PYTHONPATH=. .venv/bin/python scripts/train_smalltalk.py --cross-fitted [--save]

``--leave-one-month-out`` writes nothing to the package: for each labelled month it chooses and
trains everything without that month and scores the month's messages (the predictor for a
month by a new author), saving each model under /tmp for ``wave bench month``.
``--cross-fitted`` is its cheaper form for many months: one out-of-fold fit per part and C, and
for each month the thresholds chosen on the other parts' out-of-fold scores (never the month's),
printed beside the judge in the package; ``--save`` writes each month's judge trained without it
to ``/tmp/smalltalk-without-<month>.npz`` (``WAVE_SMALLTALK_MODEL`` replays a month with it).
``SMALLTALK_CACHE`` keeps the vectors and the extractor's verdicts between runs.

Round thirty-one (h/small31) measured the regression beside the vote of the nearest labelled
lines (``scripts/smalltalk_knn.py``, whose ``--save`` writes such a judge from these lines and
settings); not shipped: this script writes the package's judge, the regression alone.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import os
import sys
from pathlib import Path

import numpy as np
from sklearn.linear_model import LogisticRegression

from archive.embedder import Embedder
from wave_agent.bench.offline import load as load_offline
from wave_agent.bench.smalltalk import load as load_set
from wave_agent.llm.offline_extract import extract_heuristic
from wave_agent.policy import smalltalk
from wave_agent.postprocess.extract import fact_budget, small_talk_drops, with_stated_attributes

ROOT = Path(__file__).resolve().parents[1]
MIN_STATEMENTS_KEPT = 0.95  # out of fold, the months' statements together: the issue's ">= 95%"
MIN_MONTH = float(os.environ.get("SMALLTALK_MIN_MONTH", "0.95"))  # and each month's: a new
# author's month must keep them too
# the other sets' statements (single lines, conversations) together; h/smalltalk25 measured a
# higher bar against the single-line set nobody trains on (``kept_aside.json``)
MIN_LINES = float(os.environ.get("SMALLTALK_MIN_LINES", "0.90"))
# and each of those sets alone (0: no bar): a new single-line author is one set, not their sum
MIN_EACH_SET = float(os.environ.get("SMALLTALK_MIN_EACH_SET", "0"))
# At C <= 4 the thresholds found out of fold do not carry to the model trained on every part: its
# probabilities shift (measured: out of fold 132/136 statements of tuning_2 kept at C=1, the
# model trained on all of them keeps 126/136 at the same thresholds).
C_GRID = tuple(float(c) for c in os.environ.get("SMALLTALK_C", "8,16,32").split(","))
# Lines said inside a conversation (the months' messages, the chat sets written as
# conversations) weigh this many single lines: the door reads chat. Measured leave one month
# out with the months weighted (e5, C=8): ROC AUC on the month left out 0.946 -> 0.960
# (tuning_2), 0.941 -> 0.953 (tuning_3).
IN_CONVERSATION = float(os.environ.get("SMALLTALK_IN_CONVERSATION", "3"))
# A single line (a set written line by line, the offline lines) weighs this much; h/smalltalk25
# raised it so the months do not pull the judge off the single-line statements.
SINGLE_LINE = float(os.environ.get("SMALLTALK_SINGLE_LINE", "1"))


def in_conversation(group: str) -> bool:
    """A group of messages said in order in a chat: a month, or a set written as conversations."""
    if group.startswith("month_"):
        return True
    path = ROOT / "bench/data/smalltalk" / f"{group}.json"
    return path.exists() and '"conversations"' in path.read_text(encoding="utf-8")[:200]


def weights(groups: np.ndarray, extra: int) -> np.ndarray:
    """Each training line's weight (the attribute set's statements, ``extra``, weigh 1)."""
    chat = {g for g in set(groups) if in_conversation(g)}
    return np.concatenate([np.where(np.isin(groups, list(chat)), IN_CONVERSATION, SINGLE_LINE),
                           np.ones(extra)])


def lines() -> list[tuple[str, str, int]]:
    """(group, text, 1 for small talk or a question to the bot)."""
    out = []
    for path in sorted((ROOT / "bench/data/smalltalk").glob("tuning*.json")):
        out += [(path.stem, i["text"], int(i["kind"] != "statement")) for i in load_set(path)]
    out += [("offline_lines", line.text, int(not line.keep)) for line in load_offline().lines
            if line.split == "tune"]
    for path in sorted((ROOT / "bench/data/month").glob("tuning*.json")):
        month = json.loads(path.read_text(encoding="utf-8"))
        out += [(f"month_{path.stem}", m["text"], int(m["kind"] != "statement"))
                for m in month["messages"] if m["kind"] in ("statement", "small_talk", "question")]
    return out


def with_previous(x: np.ndarray, groups: np.ndarray) -> np.ndarray:
    """Each line's vector beside the vector of the line said before it in its month (zeros for
    the first and for the other sets' lines): an experiment, the door does not read it."""
    prev = np.zeros_like(x)
    for i in range(1, len(x)):
        if groups[i] == groups[i - 1] and str(groups[i]).startswith("month_"):
            prev[i] = x[i - 1]
    return np.hstack([x, prev])


def month_langs(groups: np.ndarray) -> np.ndarray:
    """The language of each line that is a month's message ("" for the other sets' lines), in
    ``lines()``'s order."""
    langs = []
    for path in sorted((ROOT / "bench/data/month").glob("tuning*.json")):
        month = json.loads(path.read_text(encoding="utf-8"))
        langs += [str(m.get("lang", "")) for m in month["messages"]
                  if m["kind"] in ("statement", "small_talk", "question")]
    out = np.asarray([""] * len(groups), dtype=object)
    at = np.flatnonzero(np.char.startswith(groups.astype(str), "month_"))
    out[at] = langs
    return out


def statements_of_attributes() -> list[str]:
    items = json.loads((ROOT / "bench/data/attributes/tuning.json").read_text(encoding="utf-8"))
    return [i["text"] for i in items["items"] if i.get("sets")]


async def extracted(texts: list[str]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per text: the extractor kept a fact; the budget reads it as a statement; a promise."""
    kept, stated, promise = [], [], []
    for text in texts:
        budget = fact_budget(text, "")
        facts = extract_heuristic(text, max_facts=budget) if budget else []
        if budget:
            facts = await with_stated_attributes(text, facts, max_facts=budget)
        kept.append(bool(facts))
        stated.append(budget > 0)
        promise.append(bool(facts) and not small_talk_drops(facts, True, text))
    return np.asarray(kept), np.asarray(stated), np.asarray(promise)


def stored(p: np.ndarray, ext: np.ndarray, stated: np.ndarray, promise: np.ndarray,
           threshold: float, keep: float) -> np.ndarray:
    return np.asarray((ext & ((p < threshold) | promise)) | (~ext & stated & (p < keep)), dtype=bool)


def choose(x: np.ndarray, y: np.ndarray, groups: np.ndarray, extra: np.ndarray, ext: np.ndarray,
           stated: np.ndarray, promise: np.ndarray) -> tuple[float, float, float, np.ndarray]:
    """C, threshold and keep chosen out of fold by author (each group scored by a model trained
    without it), and what that stores of each line out of fold."""
    grid = np.round(np.arange(0.20, 0.96, 0.01), 2)
    names = sorted(set(groups))
    best = None
    for c in C_GRID:
        oof = np.zeros(len(y))
        for group in names:
            test = groups == group
            fit = LogisticRegression(C=c, max_iter=3000).fit(
                np.vstack([x[~test], extra]), np.concatenate([y[~test], np.zeros(len(extra))]),
                sample_weight=weights(groups[~test], len(extra)))
            oof[test] = fit.predict_proba(x[test])[:, 1]
        months = [g for g in names if g.startswith("month_")]
        in_month = np.isin(groups, months)
        for threshold in grid:
            for keep in grid[grid <= threshold]:
                kept = stored(oof, ext, stated, promise, float(threshold), float(keep))
                said = float(np.mean(kept[in_month & (y == 0)]))  # the months' together
                if (min(float(np.mean(kept[(groups == g) & (y == 0)])) for g in months) < MIN_MONTH
                        or float(np.mean(kept[~in_month & (y == 0)])) < MIN_LINES):
                    said = 0.0
                chatter = float(np.mean([np.mean(kept[(groups == g) & (y == 1)]) for g in months]))
                score = (said >= MIN_STATEMENTS_KEPT, -chatter, said)
                if best is None or score > best[0]:
                    best = (score, c, float(threshold), float(keep), kept)
    assert best is not None
    return best[1], best[2], best[3], best[4]


def choose_fast(x: np.ndarray, y: np.ndarray, groups: np.ndarray, extra: np.ndarray,
                ext: np.ndarray, stated: np.ndarray, promise: np.ndarray
                ) -> tuple[float, float, float, np.ndarray]:
    """``choose`` through ``out_of_fold`` and ``pick`` (the same rule, with the bar on each
    other set, ``SMALLTALK_MIN_EACH_SET``, that ``choose`` does not read)."""
    best = None
    for c in C_GRID:
        oof = out_of_fold(x, y, groups, extra, c)
        score, threshold, keep = pick(oof, y, groups, ext, stated, promise, np.ones(len(y), bool))
        if best is None or score > best[0]:
            best = (score, c, threshold, keep, stored(oof, ext, stated, promise, threshold, keep))
    assert best is not None
    return best[1], best[2], best[3], best[4]


def tally(kept: np.ndarray, y: np.ndarray, where: np.ndarray) -> str:
    return (f"small talk stored {int(kept[where & (y == 1)].sum())}/{int((where & (y == 1)).sum())}, "
            f"statements kept {int(kept[where & (y == 0)].sum())}/{int((where & (y == 0)).sum())}")


def labelled() -> tuple[np.ndarray, list[str], np.ndarray]:
    """``lines()`` as the analysis scripts read it: each line's source, its text, its label."""
    data = lines()
    groups = np.asarray([g for g, _, _ in data])
    return groups, [t for _, t, _ in data], np.asarray([label for _, _, label in data])


def features(texts: list[str]) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The e5 vectors of the lines and of the attribute set's statements, and what the extractor
    makes of each line; kept in ``$SMALLTALK_CACHE`` (an .npz, when set) for the same texts."""
    cache = os.environ.get("SMALLTALK_CACHE")
    key = hashlib.sha256("\n".join(texts + statements_of_attributes()).encode()).hexdigest()
    if cache and Path(cache).exists():
        with np.load(cache, allow_pickle=False) as data:
            if str(data["key"]) == key:
                return data["x"], data["extra"], data["ext"], data["stated"], data["promise"]
    embedder = Embedder(smalltalk.READS)
    x = embedder.embed_sync(texts)
    extra = embedder.embed_sync(statements_of_attributes())
    ext, stated, promise = asyncio.run(extracted(texts))
    if cache:
        np.savez(cache, key=np.asarray(key), x=x, extra=extra, ext=ext, stated=stated,
                 promise=promise)
    return x, extra, ext, stated, promise


def main() -> None:
    data = lines()
    groups = np.asarray([g for g, _, _ in data])
    texts, y = [t for _, t, _ in data], np.asarray([label for _, _, label in data])
    x, extra, ext, stated, promise = features(texts)
    if "--cross-fitted" in sys.argv:
        if "--previous" in sys.argv:  # the message before it in the month, beside it
            x, extra = with_previous(x, groups), np.hstack([extra, np.zeros_like(extra)])
        cross_fitted(x, y, groups, extra, ext, stated, promise)
        return
    if "--leave-one-month-out" in sys.argv:
        leave_one_month_out(x, y, groups, extra, ext, stated, promise)
        return
    fixed = [float(v) for v in os.environ.get("SMALLTALK_THRESHOLDS", "").split(",") if v]
    if fixed:  # the thresholds given (the package's since h/month7), C the first of the grid
        c, threshold, keep = C_GRID[0], fixed[0], fixed[1]
    else:
        c, threshold, keep, kept = choose_fast(x, y, groups, extra, ext, stated, promise)
        print("out of fold, by author: " + "; ".join(
            f"{g} {tally(kept, y, groups == g)}" for g in sorted(set(groups))))
    fit = LogisticRegression(C=c, max_iter=3000).fit(
        np.vstack([x, extra]), np.concatenate([y, np.zeros(len(extra))]),
        sample_weight=weights(groups, len(extra)))
    # SMALLTALK_OUT: another file than the package's (to bench it before it ships)
    smalltalk.save(fit.coef_[0], float(fit.intercept_[0]), threshold, keep,
                   path=Path(os.environ.get("SMALLTALK_OUT") or smalltalk.MODEL))
    print(f"chosen: C={c}, threshold {threshold:.2f}, keep {keep:.2f}; {len(y)} lines "
          f"({int(y.sum())} small talk) and {len(extra)} statements of the attribute set")


def leave_one_month_out(x: np.ndarray, y: np.ndarray, groups: np.ndarray, extra: np.ndarray,
                        ext: np.ndarray, stated: np.ndarray, promise: np.ndarray) -> None:
    """The predictor for a month by a new author: for each labelled month, everything (C, both
    thresholds, the weights) chosen and trained without it, then its messages scored. Each
    model is written to ``/tmp/smalltalk-without-<month>.npz`` so ``wave bench month`` can
    replay the month with it."""
    for month in sorted(g for g in set(groups) if g.startswith("month_")):
        rest = groups != month
        c, threshold, keep, _ = choose(x[rest], y[rest], groups[rest], extra, ext[rest],
                                       stated[rest], promise[rest])
        fit = LogisticRegression(C=c, max_iter=3000).fit(
            np.vstack([x[rest], extra]), np.concatenate([y[rest], np.zeros(len(extra))]),
            sample_weight=weights(groups[rest], len(extra)))
        p = np.zeros(len(y))
        p[~rest] = fit.predict_proba(x[~rest])[:, 1]
        kept = stored(p, ext, stated, promise, threshold, keep)
        smalltalk.save(fit.coef_[0], float(fit.intercept_[0]), threshold, keep,
                       path=Path(f"/tmp/smalltalk-without-{month}.npz"))
        print(f"{month} left out (C={c}, threshold {threshold:.2f}, keep {keep:.2f}): "
              f"{tally(kept, y, ~rest)}", flush=True)


def out_of_fold(x: np.ndarray, y: np.ndarray, groups: np.ndarray, extra: np.ndarray,
                c: float) -> np.ndarray:
    """Each line's probability from a model trained without its author's part."""
    oof = np.zeros(len(y))
    for group in sorted(set(groups)):
        test = groups == group
        fit = LogisticRegression(C=c, max_iter=3000).fit(
            np.vstack([x[~test], extra]), np.concatenate([y[~test], np.zeros(len(extra))]),
            sample_weight=weights(groups[~test], len(extra)))
        oof[test] = fit.predict_proba(x[test])[:, 1]
    return oof


def set_counts(groups: np.ndarray, use: np.ndarray, y: np.ndarray
               ) -> tuple[np.ndarray, np.ndarray, int, np.ndarray, np.ndarray]:
    """The lines ``use``'s set index (-1 elsewhere), which sets are months, how many sets, and
    each set's statements (``y`` 0) and small talk (``y`` 1): what every threshold search counts."""
    names = sorted(set(groups[use]))
    gid = np.asarray([names.index(g) if u else -1 for g, u in zip(groups, use, strict=True)])
    month = np.asarray([n.startswith("month_") for n in names])
    n = len(names)
    said_n = np.bincount(gid[use & (y == 0)], minlength=n)
    talk_n = np.bincount(gid[use & (y == 1)], minlength=n)
    return gid, month, n, said_n, talk_n


def pick(oof: np.ndarray, y: np.ndarray, groups: np.ndarray, ext: np.ndarray, stated: np.ndarray,
         promise: np.ndarray, use: np.ndarray) -> tuple[tuple[bool, float, float], float, float]:
    """``choose``'s thresholds over the lines ``use`` only (vectorised): the least of the
    months' small talk with the months' statements >= 95% together and each, the other sets'
    >= 90%; then the most statements."""
    gid, month, n, said_n, talk_n = set_counts(groups, use, y)
    grid = np.round(np.arange(0.20, 0.96, 0.01), 2)
    best: tuple[tuple[bool, float, float], float, float] | None = None
    for threshold in grid:
        for keep in grid[grid <= threshold]:
            kept = stored(oof, ext, stated, promise, float(threshold), float(keep)) & use
            said_k = np.bincount(gid[kept & (y == 0)], minlength=n)
            talk_k = np.bincount(gid[kept & (y == 1)], minlength=n)
            each = said_k[month] / np.maximum(said_n[month], 1)
            said = said_k[month].sum() / max(said_n[month].sum(), 1)
            lines_ = said_k[~month].sum() / max(said_n[~month].sum(), 1)
            each_set = said_k[~month] / np.maximum(said_n[~month], 1)
            if (each.min() < MIN_MONTH or lines_ < MIN_LINES
                    or (len(each_set) and each_set.min() < MIN_EACH_SET)):
                said = 0.0
            chatter = float(np.mean(talk_k[month] / np.maximum(talk_n[month], 1)))
            score = (bool(said >= MIN_STATEMENTS_KEPT), -chatter, float(said))
            if best is None or score > best[0]:
                best = (score, float(threshold), float(keep))
    assert best is not None
    return best


def cross_fitted(x: np.ndarray, y: np.ndarray, groups: np.ndarray, extra: np.ndarray,
                 ext: np.ndarray, stated: np.ndarray, promise: np.ndarray) -> None:
    """What a new author's month would see, for every labelled month: its lines scored by a
    model trained without it (out of fold by author), at C and thresholds chosen on the other
    months' (and sets') out-of-fold scores, never on the month measured; beside the judge in
    the package, at its own thresholds (a tuning figure on the months it was trained on).
    The other parts' out-of-fold scores come from models that saw the month measured (one fit
    per part, not one per part and month): the thresholds see its labels only through them."""
    shipped = smalltalk.model()
    assert shipped is not None
    now = np.asarray([shipped.probability(v[:smalltalk.DIM]) for v in x])
    months = sorted(g for g in set(groups) if g.startswith("month_"))
    oofs = {c: out_of_fold(x, y, groups, extra, c) for c in C_GRID}
    # SMALLTALK_THRESHOLDS="0.72,0.32": every month at these (drop, keep) instead of chosen
    fixed = [float(v) for v in os.environ.get("SMALLTALK_THRESHOLDS", "").split(",") if v]
    rows = []
    for month in months:
        at = groups == month
        if fixed:  # the package's thresholds, not chosen here: the model alone is compared
            threshold, keep, c = fixed[0], fixed[1], C_GRID[0]
        else:
            best = max(((pick(oofs[c], y, groups, ext, stated, promise, ~at), c) for c in C_GRID),
                       key=lambda b: b[0][0])
            (_, threshold, keep), c = best
        new = stored(oofs[c], ext, stated, promise, threshold, keep)
        old = stored(now, ext, stated, promise, shipped.threshold, shipped.keep)
        rows.append((month, old, new))
        if "--save" in sys.argv:  # the judge trained without the month, for ``wave bench month``
            rest = ~at
            fit = LogisticRegression(C=c, max_iter=3000).fit(
                np.vstack([x[rest], extra]), np.concatenate([y[rest], np.zeros(len(extra))]),
                sample_weight=weights(groups[rest], len(extra)))
            smalltalk.save(fit.coef_[0], float(fit.intercept_[0]), threshold, keep,
                           path=Path(os.environ.get("SMALLTALK_SAVE_DIR", "/tmp"))
                           / f"smalltalk-without-{month}.npz")
        print(f"{month} (C={c}, drop {threshold:.2f}, keep {keep:.2f}): now {tally(old, y, at)}; "
              f"cross-fitted {tally(new, y, at)}", flush=True)
    langs = month_langs(groups)
    in_month = np.isin(groups, months)
    for c in C_GRID:  # the other sets at the thresholds chosen on every part (what would ship)
        (_, t_all, k_all) = pick(oofs[c], y, groups, ext, stated, promise, np.ones(len(y), bool))
        kept_all = stored(oofs[c], ext, stated, promise, t_all, k_all)
        print(f"C={c}, thresholds on every part {t_all:.2f} / {k_all:.2f}: the other sets out of "
              f"fold {tally(kept_all, y, ~in_month)}; " + "; ".join(
                  f"{g} {tally(kept_all, y, groups == g)}" for g in sorted(set(groups[~in_month]))))
    from sklearn.metrics import roc_auc_score

    print("ROC AUC on the months' lines (small talk against statements), each month's lines "
          f"scored without it: package judge {roc_auc_score(y[in_month], now[in_month]):.3f}; "
          + ", ".join(f"C={c} {roc_auc_score(y[in_month], oofs[c][in_month]):.3f}" for c in C_GRID))
    for name, which in (("old", 1), ("new", 2)):
        kept = np.zeros(len(y), dtype=bool)
        for r in rows:
            kept[groups == r[0]] = r[which][groups == r[0]]
        talk_ = in_month & (y == 1)
        said_ = in_month & (y == 0)
        print(f"{name}, all months: small talk stored by language " + ", ".join(
            f"{lang} {int((kept & talk_ & (langs == lang)).sum())}/{int((talk_ & (langs == lang)).sum())}"
            for lang in ("ru", "pl", "en")) + "; statements kept by language " + ", ".join(
            f"{lang} {int((kept & said_ & (langs == lang)).sum())}/{int((said_ & (langs == lang)).sum())}"
            for lang in ("ru", "pl", "en")))
        print(f"{name}, all months: small talk stored with a fact the extractor kept "
              f"{int((kept & talk_ & ext).sum())}, kept as said (the extractor found none) "
              f"{int((kept & talk_ & ~ext).sum())}; statements dropped by the judge "
              f"{int((~kept & said_ & ext).sum())}, found nothing in and not kept "
              f"{int((~kept & said_ & ~ext).sum())} (of which the budget reads as no statement "
              f"{int((~kept & said_ & ~ext & ~stated).sum())})")
        if which == 2 and fixed:
            lines_kept = stored(oofs[C_GRID[0]], ext, stated, promise, fixed[0], fixed[1])
            print(f"new, the other sets (lines, chat sets; out of fold by author): "
                  f"{tally(lines_kept, y, ~in_month)}")
        talk = [float(np.mean(r[which][(groups == r[0]) & (y == 1)])) for r in rows]
        said = [float(np.mean(r[which][(groups == r[0]) & (y == 0)])) for r in rows]
        print(f"{name}: small talk stored, mean over months {np.mean(talk):.1%} (worst "
              f"{max(talk):.1%}); statements kept, mean {np.mean(said):.1%} (worst {min(said):.1%},"
              f" months under 95%: {sum(s < 0.95 for s in said)})")


if __name__ == "__main__":
    main()
