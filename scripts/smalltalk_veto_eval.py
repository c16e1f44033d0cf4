"""Issue 30, round twenty-eight (h/news29): would a veto by the statement head over the small-talk
judge's drop rescue news said with feeling ("всё, переехали! теперь мы казанцы) ...") without
keeping small talk? Measured held out by author, both models and the veto's threshold.

For each honest month (``bench/data/month/tuning_2`` .. ``tuning_29``, one author each; never a
kept-aside set):
- the judge: its lines scored by a judge trained without that month's author (out of fold by
  author, ``train_smalltalk.out_of_fold`` at the first C of its grid), at drop / keep thresholds
  chosen on the other parts' out-of-fold scores (``train_smalltalk.pick``), as
  ``train_smalltalk.py --cross-fitted`` does;
- the head (``scripts/train_statement_attributes.py``'s logistic regressions): trained on the
  statements of the other honest months, the month's messages scored by it; its verdict is the
  highest probability over the person's attributes.
A message is dropped by the judge when the offline extractor kept a fact, the judge's
probability is at or above the drop threshold and it is no promise (``small_talk_drops``). The
veto keeps a dropped message when the head is at least ``t`` sure. ``t`` is chosen on the older
months only (``tuning_2`` .. ``tuning_20``): the lowest with at most ``MAX_NEW_TALK`` small-talk
messages newly kept per month (mean); the newer months (``tuning_21`` .. ``tuning_29``) are read
at it, held out twice (models and threshold). The post-processor also keeps, of a dropped
message, the statements that change a held value or deny a class; this offline count does not
model those (it counts every statement of a dropped message as lost).

    SMALLTALK_CACHE=/tmp/st-news29.npz PYTHONPATH=. HF_HUB_OFFLINE=1 \\
        nice -n 10 .venv/bin/python scripts/smalltalk_veto_eval.py
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

import statement_attributes_head as SA  # noqa: E402
import train_smalltalk as TS  # noqa: E402
from train_statement_attributes import fit as fit_head  # noqa: E402

from wave_agent.bench.month import load  # noqa: E402

HONEST = [f"tuning_{i}" for i in range(2, 30)]
OLDER = {f"tuning_{i}" for i in range(2, 21)}
MAX_NEW_TALK = float(os.environ.get("VETO_MAX_NEW_TALK", "0.5"))
GRID = np.round(np.arange(0.50, 0.99, 0.05), 2)


def month_rows(groups: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """For every line of ``train_smalltalk.lines()``: its month ("" off the honest months), kind,
    language, and the head's labels (the person's attributes its ``sets`` set or add)."""
    month = np.asarray([""] * len(groups), dtype=object)
    kind = np.asarray([""] * len(groups), dtype=object)
    lang = np.asarray([""] * len(groups), dtype=object)
    labels = np.zeros((len(groups), len(SA.HEAD)), dtype=np.int8)
    for name in HONEST:
        at = np.flatnonzero(groups == f"month_{name}")
        msgs = [m for m in load(ROOT / "bench/data/month" / f"{name}.json").messages
                if m.kind in ("statement", "small_talk", "question")]
        assert len(msgs) == len(at), name
        for i, m in zip(at, msgs, strict=True):
            month[i], kind[i], lang[i] = name, m.kind, m.lang
            said = {s.attribute.split(":")[0] for s in m.sets
                    if s.entity == "user" and s.op in ("set", "add")}
            labels[i] = [a in said for a in SA.HEAD]
    return month, kind, lang, labels


def main() -> None:
    data = TS.lines()
    groups = np.asarray([g for g, _, _ in data])
    texts, y = [t for _, t, _ in data], np.asarray([label for _, _, label in data])
    x, extra, ext, stated, promise = TS.features(texts)
    month, kind, lang, labels = month_rows(groups)
    c = TS.C_GRID[0]
    oof = TS.out_of_fold(x, y, groups, extra, c)
    dropped = np.zeros(len(y), dtype=bool)
    head = np.zeros(len(y))
    for name in HONEST:
        at = month == name
        _, threshold, keep = TS.pick(oof, y, groups, ext, stated, promise, groups != f"month_{name}")
        dropped[at] = (ext & (oof >= threshold) & ~promise)[at]
        train = (month != "") & (month != name) & (kind == "statement")
        w, b = fit_head(x[train], labels[train])
        head[at] = (1 / (1 + np.exp(-(x[at] @ w.T + b)))).max(axis=1)
        print(f"{name}: judge drop {threshold:.2f} keep {keep:.2f}; dropped statements "
              f"{int((dropped & at & (kind == 'statement')).sum())}, small talk "
              f"{int((dropped & at & (kind == 'small_talk')).sum())}, questions "
              f"{int((dropped & at & (kind == 'question')).sum())}", flush=True)

    def counts(where: np.ndarray, t: float) -> tuple[int, int, int, int, int]:
        veto = dropped & where & (head >= t)
        return (int((veto & (kind == "statement")).sum()),
                int((dropped & where & (kind == "statement")).sum()),
                int((veto & (kind == "small_talk")).sum()),
                int((veto & (kind == "question")).sum()),
                int((where & (kind == "small_talk")).sum()))

    older = np.isin(month, list(OLDER))
    newer = (month != "") & ~older
    n_old = len(OLDER)
    print("\nveto threshold | older months (2-20): statements rescued / dropped, small talk newly "
          "kept, questions newly kept | newer months (21-29), the same")
    chosen = None
    for t in GRID:
        o, n = counts(older, float(t)), counts(newer, float(t))
        print(f"{t:.2f} | {o[0]}/{o[1]}, {o[2]} of {o[4]}, {o[3]} | {n[0]}/{n[1]}, {n[2]} of {n[4]}, "
              f"{n[3]}")
        if chosen is None and o[2] / n_old <= MAX_NEW_TALK:
            chosen = float(t)
    assert chosen is not None
    print(f"\nchosen on the older months (small talk newly kept <= {MAX_NEW_TALK} a month): "
          f"t = {chosen:.2f}")
    for label, where in (("newer months (held out: models and threshold)", newer),
                         ("older months (threshold chosen on them)", older)):
        print(label + ":")
        for lg in ("ru", "pl", "en"):
            r = counts(where & (lang == lg), chosen)
            said = int((where & (lang == lg) & (kind == "statement")).sum())
            print(f"  {lg}: statements rescued {r[0]} of {r[1]} dropped ({said} statements); "
                  f"small talk newly kept {r[2]} of {r[4]}; questions newly kept {r[3]}")
        per = [counts(where & (month == m), chosen) for m in HONEST if (where & (month == m)).any()]
        print(f"  per month: rescued {[p[0] for p in per]}, small talk newly kept "
              f"{[p[2] for p in per]}")
    for i in np.flatnonzero(dropped & (month != "") & (head >= chosen)):
        print(f"  {month[i]} {kind[i]} {head[i]:.2f} {texts[i][:90]!r}")


if __name__ == "__main__":
    main()
