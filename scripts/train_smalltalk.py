"""Train the judge of small talk and of statements worth remembering
(``wave_agent/policy/smalltalk.py``) and write ``smalltalk.npz``.

Data, each source one author's: every ``bench/data/smalltalk/tuning*.json`` (statement /
small_talk / question), the tune split of ``bench/data/offline_lines.txt`` (K lines are
statements, S lines small talk), the messages of the tuning month ``bench/data/month/tuning.json``
(its pasted instructions left out) and the statements of ``bench/data/attributes/tuning.json``
(every item that sets a value; always in training, it has no small talk to test on). The held
split of the offline lines, the kept-aside month and every ``kept_aside*`` set are never read. Features: the e5
passage vector of the whole message. A logistic regression.

Everything is chosen out of fold, grouped by author: each part is scored by a model trained
without it (the next person writes like none of them). Each line also goes through the offline
extractor, as the post-processor runs it, to know what the judge decides on:
``threshold`` (at or above it, drop what the extractor kept), ``keep`` (under it, keep as said a
statement the extractor found nothing in; at most ``threshold``) and C are the ones that, with
every author's statements kept >= 95% out of fold (issue 30's target), store the least small
talk (the mean of the authors' shares); then the most statements.

    PYTHONPATH=. .venv/bin/python scripts/train_smalltalk.py
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import numpy as np
from sklearn.linear_model import LogisticRegression

from archive.embedder import Embedder
from wave_agent.bench.offline import load as load_offline
from wave_agent.llm.offline_extract import extract_heuristic
from wave_agent.policy import smalltalk
from wave_agent.postprocess.extract import fact_budget, small_talk_drops, with_stated_attributes

ROOT = Path(__file__).resolve().parents[1]
MIN_STATEMENTS_KEPT = 0.95  # per author, out of fold: the "statements kept >= 95%"
# At C <= 4 the thresholds found out of fold do not carry to the model trained on every part: its
# probabilities shift (measured: out of fold 132/136 statements of tuning_2 kept at C=1, the
# model trained on all of them keeps 126/136 at the same thresholds).
C_GRID = (8.0, 16.0, 32.0)


def lines() -> list[tuple[str, str, int]]:
    """(group, text, 1 for small talk or a question to the bot)."""
    out = []
    for path in sorted((ROOT / "bench/data/smalltalk").glob("tuning*.json")):
        out += [(path.stem, i["text"], int(i["kind"] != "statement"))
                for i in json.loads(path.read_text(encoding="utf-8"))]
    out += [("offline_lines", line.text, int(not line.keep)) for line in load_offline().lines
            if line.split == "tune"]
    month = json.loads((ROOT / "bench/data/month/tuning.json").read_text(encoding="utf-8"))
    out += [("month_tuning", m["text"], int(m["kind"] != "statement")) for m in month["messages"]
            if m["kind"] in ("statement", "small_talk", "question")]
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
        promise.append(bool(facts) and not small_talk_drops(facts, True))
    return np.asarray(kept), np.asarray(stated), np.asarray(promise)


def stored(p: np.ndarray, ext: np.ndarray, stated: np.ndarray, promise: np.ndarray,
           threshold: float, keep: float) -> np.ndarray:
    return np.asarray((ext & ((p < threshold) | promise)) | (~ext & stated & (p < keep)), dtype=bool)


def main() -> None:
    data = lines()
    groups = np.asarray([g for g, _, _ in data])
    texts, y = [t for _, t, _ in data], np.asarray([label for _, _, label in data])
    embedder = Embedder(smalltalk.READS)
    x = embedder.embed_sync(texts)
    extra = embedder.embed_sync(statements_of_attributes())
    ext, stated, promise = asyncio.run(extracted(texts))
    grid = np.round(np.arange(0.20, 0.96, 0.01), 2)
    best = None
    for c in C_GRID:
        oof = np.zeros(len(y))
        for group in sorted(set(groups)):
            test = groups == group
            fit = LogisticRegression(C=c, max_iter=3000).fit(
                np.vstack([x[~test], extra]), np.concatenate([y[~test], np.zeros(len(extra))]))
            oof[test] = fit.predict_proba(x[test])[:, 1]
        names = sorted(set(groups))
        for threshold in grid:
            for keep in grid[grid <= threshold]:
                kept = stored(oof, ext, stated, promise, float(threshold), float(keep))
                said = min(float(np.mean(kept[(groups == g) & (y == 0)])) for g in names)
                chatter = float(np.mean([np.mean(kept[(groups == g) & (y == 1)]) for g in names]))
                score = (said >= MIN_STATEMENTS_KEPT, -chatter, said)
                if best is None or score > best[0]:
                    best = (score, c, float(threshold), float(keep), kept)
    assert best is not None
    kept = best[4]
    print("out of fold, by author: " + "; ".join(
        f"{g} small talk stored {int(kept[(groups == g) & (y == 1)].sum())}/{int(((groups == g) & (y == 1)).sum())}, "
        f"statements kept {int(kept[(groups == g) & (y == 0)].sum())}/{int(((groups == g) & (y == 0)).sum())}"
        for g in sorted(set(groups))))
    _, c, threshold, keep, _ = best
    fit = LogisticRegression(C=c, max_iter=3000).fit(
        np.vstack([x, extra]), np.concatenate([y, np.zeros(len(extra))]))
    smalltalk.save(fit.coef_[0], float(fit.intercept_[0]), threshold, keep)
    print(f"chosen: C={c}, threshold {threshold:.2f}, keep {keep:.2f}; {len(y)} lines "
          f"({int(y.sum())} small talk) and {len(extra)} statements of the attribute set")


if __name__ == "__main__":
    main()
