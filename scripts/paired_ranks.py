"""Compare two recall runs question by question, not by their means.

Each operand is a ``--details`` file of ``wave bench memory``, ``wave bench locomo`` or ``wave
bench longmemeval`` (the share of evidence turns within k) with an optional ``:side`` (``wave``,
the default; ``dense``, ``bm25``, for LoCoMo ``context_rrf``, and ``wave-<mode>`` for a run
with ``--also-adapter``),
so one run's Wave can be set against another run's Wave (map on against map off) or against the
plain e5 of the same run. Questions are paired by id; at each k the script counts those on which
B finds more of the evidence within k than A and those on which it finds less, and gives the
exact two-sided sign test's p over the questions that differ. A mean's difference of 2.7 points
over 231 questions is about six questions: this says whether six is more than the run-to-run
churn.

    python scripts/paired_ranks.py /tmp/off.json /tmp/on.json
    python scripts/paired_ranks.py /tmp/run.json:dense /tmp/run.json:wave --by kind
"""

from __future__ import annotations

import argparse
import json
from collections import defaultdict
from math import comb
from pathlib import Path
from typing import Any

KS = (1, 5, 10)


def per_question(operand: str) -> dict[str, dict[str, Any]]:
    """``{question id: {"R@k": found share, "group": kind or category}}`` for one side of a run."""
    path, _, side = operand.partition(":")
    side = side or "wave"
    data = json.loads(Path(path).read_text(encoding="utf-8"))
    out: dict[str, dict[str, Any]] = {}
    if isinstance(data, dict):  # LoCoMo: one summary with each question's row
        for row in data.get("questions_detail", []):
            mine = row[side]
            if isinstance(mine, list):  # LongMemEval: the ranked turn ids; the share of the
                evidence = set(row["evidence"])  # evidence turns within k, as LoCoMo's R@k
                out[row["id"]] = {**{f"R@{k}": len(evidence & set(mine[:k])) / len(evidence)
                                     for k in KS}, "group": row.get("type", "")}
                continue
            out[row["id"]] = {**{f"R@{k}": float(mine[f"R@{k}"]) for k in KS},
                              "group": str(row.get("category", ""))}
        return out
    for summary in data:  # memory sets: a list of summaries, each with its questions' ranks
        for row in summary.get("ranks", []):
            first = row[side]
            out[f"{summary['set']}:{row['id']}"] = {
                **{f"R@{k}": float(first is not None and first <= k) for k in KS},
                "group": row.get("kind", "")}
    return out


def sign_test(better: int, worse: int) -> float:
    """The exact two-sided sign test's p for ``better`` against ``worse`` (ties dropped)."""
    n = better + worse
    if n == 0:
        return 1.0
    tail: float = sum(comb(n, i) for i in range(min(better, worse) + 1)) / 2 ** n
    return min(1.0, 2 * tail)


def compare(a: dict[str, dict[str, Any]], b: dict[str, dict[str, Any]]
            ) -> dict[str, dict[str, Any]]:
    """Per k: questions paired, B better, B worse, the mean difference in points, the p."""
    shared = sorted(set(a) & set(b))
    out: dict[str, dict[str, Any]] = {}
    for k in KS:
        key = f"R@{k}"
        diffs = [b[q][key] - a[q][key] for q in shared]
        better = sum(1 for d in diffs if d > 0)
        worse = sum(1 for d in diffs if d < 0)
        out[key] = {"n": len(shared), "better": better, "worse": worse,
                    "points": round(100 * sum(diffs) / max(1, len(shared)), 1),
                    "p": round(sign_test(better, worse), 3)}
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("a", help="FILE[:side], the reference")
    parser.add_argument("b", help="FILE[:side], the one compared with it")
    parser.add_argument("--by", choices=("all", "kind"), default="all",
                        help="kind: also per question kind (memory) or category (LoCoMo)")
    args = parser.parse_args()
    a, b = per_question(args.a), per_question(args.b)
    groups: dict[str, list[str]] = defaultdict(list)
    for q in set(a) & set(b):
        groups["all"].append(q)
        if args.by == "kind":
            groups[a[q]["group"] or "?"].append(q)
    for name in sorted(groups, key=lambda g: (g != "all", g)):
        keep = set(groups[name])
        result = compare({q: a[q] for q in keep}, {q: b[q] for q in keep})
        cells = "   ".join(f"{k} {r['points']:+5.1f} (+{r['better']} / -{r['worse']}, "
                           f"p {r['p']:.2f})" for k, r in result.items())
        print(f"{name:12} n {len(keep):4}   {cells}")


if __name__ == "__main__":
    main()
