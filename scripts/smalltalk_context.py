"""Does the turn before a chat line tell small talk from a statement? (issue 30, item 7: "in a
month, small talk comes between statements and reads differently").

The only labelled conversation in order is the tuning month (``bench/data/month/tuning.json``;
the small-talk sets are single lines). Each of its lines is scored by the judge's model trained
without the month (``scripts/train_smalltalk.py``'s data, the month left out, C=8), so the month
is text that model never saw; then the score is compared with and without features of the
message before it (its own score, its e5 cosine to the line, the minutes between them). Printed:
the ROC AUC of each reading, and a logistic stack of them scored by leave-days-out folds (5).
It also replays the month's lines one at a time through the small-talk bench's door
(``wave_agent.bench.smalltalk.judge``, the committed judge) to compare with ``wave bench
month``: the same lines stored in a month and alone means the order adds nothing.

    PYTHONPATH=. .venv/bin/python scripts/smalltalk_context.py
"""

from __future__ import annotations

import json
import sys
from datetime import datetime
from pathlib import Path

import numpy as np
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import roc_auc_score

sys.path.insert(0, str(Path(__file__).parent))
import train_smalltalk as T

from archive.embedder import Embedder
from wave_agent.bench.smalltalk import judge

KINDS = ("statement", "small_talk", "question")


def main() -> None:
    data = T.lines()
    groups = np.asarray([g for g, _, _ in data])
    y = np.asarray([label for _, _, label in data])
    embedder = Embedder("multilingual-e5-small")
    x = embedder.embed_sync([t for _, t, _ in data])
    extra = embedder.embed_sync(T.statements_of_attributes())
    held = groups != "month_tuning"
    fit = LogisticRegression(C=8.0, max_iter=3000).fit(
        np.vstack([x[held], extra]), np.concatenate([y[held], np.zeros(len(extra))]))
    month = json.loads((T.ROOT / "bench/data/month/tuning.json").read_text(encoding="utf-8"))
    messages = month["messages"]
    vectors = embedder.embed_sync([m["text"] for m in messages])
    logit = vectors @ fit.coef_[0] + fit.intercept_[0]
    rows, labels, days = [], [], []
    for i, m in enumerate(messages):
        if m["kind"] not in KINDS or i == 0:
            continue
        at, before = datetime.fromisoformat(m["at"]), datetime.fromisoformat(messages[i - 1]["at"])
        same_day = float(at.date() == before.date())
        rows.append([logit[i], logit[i - 1] * same_day, same_day,
                     np.log1p((at - before).total_seconds() / 60) * same_day,
                     float(vectors[i] @ vectors[i - 1])])
        labels.append(int(m["kind"] != "statement"))
        days.append(str(at.date()))
    features, target, day = np.asarray(rows), np.asarray(labels), np.asarray(days)
    print(f"{len(target)} lines of the tuning month ({int(target.sum())} small talk or questions)")
    print(f"AUC, the line alone (judge without the month): {roc_auc_score(target, features[:, 0]):.3f}")
    print(f"AUC, the message before alone: {roc_auc_score(target, features[:, 1]):.3f}")
    print(f"AUC, cosine to the message before: {roc_auc_score(target, features[:, 4]):.3f}")
    folds = [sorted(set(day))[k::5] for k in range(5)]
    for name, cols in (("the line alone", [0]), ("+ the message before", [0, 1, 2, 3, 4])):
        oof = np.zeros(len(target))
        for fold in folds:
            test = np.isin(day, fold)
            stack = LogisticRegression(C=1.0, max_iter=2000).fit(features[~test][:, cols],
                                                                 target[~test])
            oof[test] = stack.predict_proba(features[test][:, cols])[:, 1]
        print(f"leave-days-out AUC, {name}: {roc_auc_score(target, oof):.3f}")
    lines = [m for m in messages if m["kind"] in KINDS]
    stored = judge([m["text"] for m in lines])
    chatter = [m["id"] for m, s in zip(lines, stored, strict=True) if s and m["kind"] != "statement"]
    lost = [m["id"] for m, s in zip(lines, stored, strict=True) if not s and m["kind"] == "statement"]
    print(f"one line at a time (committed judge): small talk stored {len(chatter)} {chatter}; "
          f"statements lost {len(lost)} {lost}")


if __name__ == "__main__":
    main()
