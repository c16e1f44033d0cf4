"""The trees' order with each record's e5 cosine weighed in, replayed over kept candidates
(issue 31, h/recall26): does e5's say over chat transcripts help LongMemEval without costing
LoCoMo?

For each question of the ``--features`` files (``wave bench longmemeval`` / ``locomo`` /
``memory``) the engine's order before MMR (``learned.after_model``) is replayed with ``w`` times
the record's cosine z-score within the search (``learned.derive``'s ``cosine_z``) added to the
trees' log-odds, for each ``w`` of ``--weights``; ``--piece-max`` also scores each piece of a
long text by its best sibling's cosine (a turn scored as that turn). Figures by set: LongMemEval
by the bench's own metrics over the first ten distinct turns (``lme_steps.metrics``); LoCoMo and
the memory sets by the share of evidence ids among the first k distinct ids (R@1 / R@5 / R@10).
``--folds N``: the weight picked on the other folds of each set's questions (by question id
hash), reported on the fold left out: a cross-fitted figure.

    PYTHONPATH=. python scripts/chat_blend.py --features F.jsonl [...] --weights 0,0.25,0.5,1,2
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from collections import defaultdict
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

from lme_steps import metrics  # noqa: E402

from wave_agent.bench.longmemeval import first_unique  # noqa: E402
from wave_agent.recall import learned  # noqa: E402


def set_of(q: dict[str, Any]) -> str:
    return "locomo" if q["set"] == "locomo" else q["set"]


def base(q: dict[str, Any], ranker: learned.LearnedRanker,
         neutral: list[str]) -> tuple[np.ndarray, np.ndarray, dict[str, int]]:
    """The trees' probabilities and the question's rows, columns by name."""
    names = q["features"]
    x = np.asarray(q["x"], dtype=np.float32)
    # the file's columns in FEATURES order (older files lack some: zeros, as the bench logs)
    full = np.zeros((len(x), len(learned.FEATURES)), dtype=np.float32)
    for j, n in enumerate(learned.FEATURES):
        if n in names:
            full[:, j] = x[:, names.index(n)]
    col = {n: learned.FEATURES.index(n) for n in learned.FEATURES}
    read = full.copy()
    for n in neutral:
        read[:, col[n]] = read[:, col[n]].mean()
    return ranker.score(read), full, col


def order_scores(q: dict[str, Any], ranker: learned.LearnedRanker, p: np.ndarray,
                 x: np.ndarray, col: dict[str, int], w: float, piece_max: bool,
                 by_share: bool) -> np.ndarray:
    """The engine's order before MMR with the cosine weighed in: ``learned.with_cosine`` (the
    engine's own step, the weight times the share of an assistant's records) with
    ``by_share``, else ``w`` times the cosine z-score whatever the speakers."""
    cos = x[:, col["cosine"]].astype(np.float64)
    if piece_max:
        best: dict[str, float] = {}
        for i, keys in enumerate(q["keys"]):
            for k in keys:
                best[k] = max(best.get(k, -1.0), cos[i])
        cos = np.asarray([max((best[k] for k in keys), default=cos[i])
                          for i, keys in enumerate(q["keys"])])
    assistant = x[:, col["assistant"]] if by_share else np.ones(len(x))
    blended = learned.with_cosine(p, cos, assistant, w)
    return learned.after_model(
        blended, x[:, col["fused"]], x[:, col["decay"]], x[:, col["someone_else"]],
        ranker.weight_for(q.get("language", "en")), learned.OTHERS_FACTOR,
        x[:, col["rr_asked"]], ranker.asked, ranker.confidence)


def score(q: dict[str, Any], s: np.ndarray) -> dict[str, float]:
    idx = np.argsort(-s, kind="stable")
    ranked = first_unique([t for i in idx for t in q["keys"][i]])
    evidence = set(q["answers"])
    if q["set"] == "longmemeval":
        return metrics(ranked[:10], evidence, set(q["answer_sessions"]))
    out = {}
    for k in (1, 5, 10):
        out[f"R@{k}"] = len(evidence & set(ranked[:k])) / max(len(evidence), 1)
    return out


def fold_of(qid: str, folds: int) -> int:
    return int(hashlib.sha1(qid.encode()).hexdigest(), 16) % folds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--features", type=Path, nargs="+", required=True)
    parser.add_argument("--weights", default="0,0.25,0.5,1,2")
    parser.add_argument("--piece-max", action="store_true")
    parser.add_argument("--by-share", action="store_true",
                        help="w times the share of the candidates said by an assistant")
    parser.add_argument("--folds", type=int, default=0)
    parser.add_argument("--neutral", default="",
                        help="features set to their pool mean before the trees read them")
    parser.add_argument("--pick-by", default="turn_all@10")
    args = parser.parse_args()
    ranker = learned.load()
    weights = [float(w) for w in args.weights.split(",")]
    got: dict[tuple[str, float], list[tuple[str, dict[str, float]]]] = defaultdict(list)
    for path in args.features:
        for line in path.read_text(encoding="utf-8").splitlines():
            q = json.loads(line)
            if not q["x"] or not q["answers"]:
                continue
            p, x, col = base(q, ranker, [n for n in args.neutral.split(",") if n])
            for w in weights:
                s = order_scores(q, ranker, p, x, col, w, args.piece_max, args.by_share)
                got[(set_of(q), w)].append((q["id"], score(q, s)))
    sets = sorted({s for s, _ in got})
    for name in sets:
        shown = sorted(got[(name, weights[0])][0][1])
        print(f"{name} ({len(got[(name, weights[0])])} questions)")
        print(f"  {'w':>6} " + " ".join(f"{m:>14}" for m in shown))
        for w in weights:
            rows = [r for _, r in got[(name, w)]]
            print(f"  {w:6.2f} " + " ".join(f"{100 * np.mean([r[m] for r in rows]):14.1f}"
                                            for m in shown))
        if args.folds:
            metric = args.pick_by if args.pick_by in shown else "R@1"
            picked: dict[str, float] = {}
            for f in range(args.folds):
                def mean_out(w: float, f: int = f, metric: str = metric,
                             name: str = name) -> float:
                    return float(np.mean([r[metric] for qid, r in got[(name, w)]
                                          if fold_of(qid, args.folds) != f] or [0.0]))
                # ties go to the smaller weight (the engine as it is)
                best = max(weights, key=lambda w: (round(mean_out(w), 9), -w))
                for qid, _ in got[(name, best)]:
                    if fold_of(qid, args.folds) == f:
                        picked[qid] = best
            rows = [r for w in weights for qid, r in got[(name, w)] if picked.get(qid) == w]
            print(f"  cross-fitted ({args.folds} folds, picked by {metric}): " + " ".join(
                f"{m} {100 * np.mean([r[m] for r in rows]):.1f}" for m in shown)
                + f"; weights picked {sorted(set(picked.values()))}")


if __name__ == "__main__":
    main()
