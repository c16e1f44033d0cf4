"""LoCoMo's list questions and the sessions of the first ten, replayed over kept candidates
(issue 31, h/recall27): does a candidate go down the order for each better one from its own
exchange (a LoCoMo session) put the evidence of a question whose answer is spread over
several sessions within ten, and what does it cost the rest?

For each LoCoMo question of the ``--features`` files the engine's order before MMR
(``lme_steps.orders``' ``after_model``) is walked greedily: at each place the candidate with
the best ``rank + gamma * (how many candidates already placed share its session)`` is placed
(rank 1 never moves: nothing is placed before it). Figures (R@1 / R@5 / R@10, the share of
the evidence ids among the first k distinct ids) by split (``tune``: the five conversations
the ranker was fitted on, ``held``: conv-26 and conv-30) and by LoCoMo category.

    PYTHONPATH=. python scripts/session_spread.py --features F.jsonl --gammas 0,1,2,4 [--split tune]
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import defaultdict
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

from lme_steps import orders  # noqa: E402

from wave_agent.bench.longmemeval import first_unique  # noqa: E402
from wave_agent.recall import learned  # noqa: E402


def session_of(keys: list[str]) -> str:
    return keys[0].split(":")[0] if keys else ""


def spread(order: list[int], sessions: list[str], gamma: float, depth: int) -> list[int]:
    """``order`` re-walked: each place goes to the best ``rank + gamma * same-session placed``
    among the first ``depth`` not yet placed; the rest keep their order."""
    if gamma <= 0:
        return order
    head, tail = order[:depth], order[depth:]
    rank = {i: r for r, i in enumerate(head)}
    placed: list[int] = []
    seen: dict[str, int] = defaultdict(int)
    left = list(head)
    while left:
        best = min(left, key=lambda i: (rank[i] + gamma * seen[sessions[i]], rank[i]))
        left.remove(best)
        placed.append(best)
        seen[sessions[best]] += 1
    return placed + tail


def score(q: dict[str, Any], order: list[int]) -> dict[str, float]:
    ranked = first_unique([t for i in order for t in q["keys"][i]])
    evidence = set(q["answers"])
    return {f"R@{k}": len(evidence & set(ranked[:k])) / max(len(evidence), 1) for k in (1, 5, 10)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--features", type=Path, nargs="+", required=True)
    parser.add_argument("--data", type=Path, default=None, help="LoCoMo's directory: categories")
    parser.add_argument("--gammas", default="0,1,2,4")
    parser.add_argument("--depth", type=int, default=40)
    parser.add_argument("--split", default="tune", help="tune, held or all")
    parser.add_argument("--gate", type=Path, default=None,
                        help="JSON: question id -> the probability its answer spans sessions; "
                             "gamma is scaled by it (x 1 / its mean over the questions)")
    args = parser.parse_args()
    ranker = learned.load()
    gammas = [float(g) for g in args.gammas.split(",")]
    category: dict[str, int] = {}
    if args.data:
        from wave_agent.bench.locomo_data import load_conversations

        category = {f"{c.name}:{n}": q.category for c in load_conversations(args.data)
                    for n, q in enumerate(c.questions, 1)}
    gate: dict[str, float] = json.loads(args.gate.read_text()) if args.gate else {}
    scale = 1.0 / float(np.mean(list(gate.values()))) if gate else 1.0
    got: dict[tuple[str, float], list[dict[str, float]]] = defaultdict(list)
    for path in args.features:
        for line in path.read_text(encoding="utf-8").splitlines():
            q = json.loads(line)
            if q.get("set") != "locomo" or not q["x"] or not q["answers"]:
                continue
            if args.split != "all" and q.get("split") != args.split:
                continue
            s = orders(q, ranker)["after_model"]
            order = [int(i) for i in np.argsort(-s, kind="stable")]
            sessions = [session_of(k) for k in q["keys"]]
            for g in gammas:
                gg = g * gate[q["id"]] * scale if gate else g
                r = score(q, spread(order, sessions, gg, args.depth))
                got[("all", g)].append(r)
                got[(f"category {category.get(q['id'], '?')}", g)].append(r)
    for group in sorted({grp for grp, _ in got}):
        print(f"{group} ({len(got[(group, gammas[0])])} questions)   R@1   R@5  R@10")
        for g in gammas:
            rows = got[(group, g)]
            print(f"  gamma {g:5.1f}  " + " ".join(
                f"{100 * np.mean([r[m] for r in rows]):5.1f}" for m in ("R@1", "R@5", "R@10")))


if __name__ == "__main__":
    main()
