"""Train recall's e5-order switch (``wave_agent/recall/order.npz``, ``RecallConfig.e5_order``).

For each tuning question in the ``--features`` files (``wave bench memory / locomo /
longmemeval --features``), the shipped learned order (``ranker.json``'s trees, then
``after_model``) and the same values handed out in the order of each candidate's e5 cosine
(``order.e5_first``) are scored by NDCG@10 over what the candidates trace back to (a memory
set's fact ids, LongMemEval's turns, LoCoMo's dialogue ids). The label is which of the two is
better; ties are dropped. A logistic regression over what the candidate pool is like
(``learned.POOL``) learns the probability that e5's order is better, each set weighing the same
(a memory author's 120 questions do not drown LongMemEval's few). Figures are given leaving
one set (author) out; ``--check`` files are only scored, never trained on (LoCoMo's kept-aside
pair); ``--write`` fits on everything and writes ``order.npz``.

    PYTHONPATH=$PWD python scripts/train_order_switch.py --train /tmp/recall21/base-memory-*.features.jsonl \
        /tmp/recall22/tune-*.features.jsonl --check /tmp/recall21/loc-pair.features.jsonl [--write]
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from collections import defaultdict
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from wave_agent.recall import learned, order  # noqa: E402

NAMES = ("pool_words", "pool_size")


def ndcg10(keys: list[list[str]], score: np.ndarray, answers: set[str]) -> tuple[float, float]:
    """NDCG@10 and R@1 (the first key an answer) of one order over the candidates' keys."""
    ranked: list[str] = []
    for i in np.argsort(-np.asarray(score, dtype=np.float64), kind="stable"):
        for k in keys[i]:
            if k not in ranked:
                ranked.append(k)
    gains = sum(1.0 / math.log2(n + 2) for n, k in enumerate(ranked[:10]) if k in answers)
    ideal = sum(1.0 / math.log2(n + 2) for n in range(min(10, len(answers))))
    return (gains / ideal if ideal else 0.0), float(bool(ranked[:1]) and ranked[0] in answers)


def question_rows(paths: list[Path]) -> list[dict[str, Any]]:
    """Per tuning question: its set, pool features and both orders' NDCG@10 and R@1."""
    ranker = learned.load()
    out = []
    for path in paths:
        for line in path.read_text(encoding="utf-8").splitlines():
            q = json.loads(line)
            if not q["x"] or not q["answers"]:
                continue
            x = np.asarray(q["x"], dtype=np.float32)
            col = {n: q["features"].index(n) for n in q["features"]}
            p = ranker.score(x)
            final = learned.after_model(
                p, x[:, col["fused"]], x[:, col["decay"]], x[:, col["someone_else"]],
                ranker.weight_for(q.get("language", "en")), learned.OTHERS_FACTOR,
                x[:, col["rr_asked"]], ranker.asked, ranker.confidence)
            answers = set(q["answers"])
            learned_fig = ndcg10(q["keys"], final, answers)
            e5_fig = ndcg10(q["keys"], order.e5_first(final, x[:, col["cosine"]]), answers)
            out.append({"set": q["set"], "pool": order.pool_of(x), "learned": learned_fig,
                        "e5": e5_fig})
    return out


def fit(rows: list[dict[str, Any]], c: float) -> tuple[np.ndarray, np.ndarray, np.ndarray, float]:
    from sklearn.linear_model import LogisticRegression

    labelled = [r for r in rows if r["e5"][0] != r["learned"][0]]
    x = np.asarray([[r["pool"][n] for n in NAMES] for r in labelled], dtype=np.float64)
    y = np.asarray([r["e5"][0] > r["learned"][0] for r in labelled], dtype=int)
    per_set: dict[str, int] = defaultdict(int)
    for r in labelled:
        per_set[r["set"]] += 1
    w = np.asarray([1.0 / per_set[r["set"]] for r in labelled]) * len(per_set)
    mean, scale = x.mean(axis=0), x.std(axis=0)
    scale[scale < 1e-9] = 1.0
    model = LogisticRegression(C=c, max_iter=2000)
    model.fit((x - mean) / scale, y, sample_weight=w)
    return mean, scale, model.coef_[0], float(model.intercept_[0])


def decide(pool: dict[str, float], fitted: tuple[np.ndarray, np.ndarray, np.ndarray, float]
           ) -> bool:
    mean, scale, w, b = fitted
    z = (np.asarray([pool[n] for n in NAMES]) - mean) / scale
    return float(z @ w + b) >= 0.0


def report(name: str, rows: list[dict[str, Any]], chosen: list[bool]) -> None:
    learned_ = np.asarray([r["learned"] for r in rows])
    e5 = np.asarray([r["e5"] for r in rows])
    switched = np.asarray([r["e5"] if ch else r["learned"] for r, ch in zip(rows, chosen,
                                                                           strict=True)])
    print(f"{name:22} n {len(rows):4d}  e5 order on {sum(chosen):4d}  "
          f"NDCG@10 / R@1: learned {100 * learned_[:, 0].mean():5.1f} / "
          f"{100 * learned_[:, 1].mean():5.1f}  e5 {100 * e5[:, 0].mean():5.1f} / "
          f"{100 * e5[:, 1].mean():5.1f}  switch {100 * switched[:, 0].mean():5.1f} / "
          f"{100 * switched[:, 1].mean():5.1f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--train", type=Path, nargs="+", required=True)
    parser.add_argument("--check", type=Path, nargs="*", default=[])
    parser.add_argument("--c", type=float, default=1.0)
    parser.add_argument("--write", action="store_true")
    args = parser.parse_args()
    rows = question_rows(args.train)
    sets = sorted({r["set"] for r in rows})
    print("left out, fitted on the other sets:")
    for held in sets:
        fitted = fit([r for r in rows if r["set"] != held], args.c)
        mine = [r for r in rows if r["set"] == held]
        report(held, mine, [decide(r["pool"], fitted) for r in mine])
    fitted = fit(rows, args.c)
    mean, scale, w, b = fitted
    print(f"fitted on all {len(sets)} sets: names {NAMES} mean {mean.round(3).tolist()} "
          f"scale {scale.round(3).tolist()} w {w.round(3).tolist()} b {b:.3f}")
    for path in args.check:
        mine = question_rows([path])
        report(f"check {path.name}", mine, [decide(r["pool"], fitted) for r in mine])
    if args.write:
        order.save(NAMES, mean, scale, w, b, trained_on=np.asarray(sets))
        print(f"wrote {order.MODEL}")


if __name__ == "__main__":
    main()
