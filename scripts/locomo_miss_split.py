"""LoCoMo's missed evidence split by question category and by why it is missed (issue 31,
h/locomo40): for each evidence turn a system does not hold within its first ten, whether no
voice gathered it ("not a candidate"), or where the learned order the engine starts from puts
it (the trees spaced and decayed, replayed over the kept candidates: ``lme_steps.orders``'
``after_model``): 6-10th (lost after the order), 11-20th, 21st or lower. LoCoMo's turns are
all under 2,000 characters, so none is a piece of a long turn (the script counts them).
``--k 5``: the misses at five by the replayed order alone (the details keep which evidence is
within ten, not five), so a turn the replay puts 6th-10th is a miss there.

Input: the ``--features`` and ``--details`` files of one ``wave bench locomo`` run; only counts
are printed, never a question's or a turn's text.

    PYTHONPATH=. python scripts/locomo_miss_split.py --features F.jsonl --details D.json \
        --data /work/shared/data/locomo [--system wave] [--split tune|held|all]

"points" is what R@k would gain if every missed turn of the cell came within k (LoCoMo's
R@k is the share of a question's evidence turns within k).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import defaultdict
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

from lme_steps import orders  # noqa: E402

from wave_agent.bench.locomo import split_of  # noqa: E402
from wave_agent.recall import learned  # noqa: E402

# LoCoMo's category numbers as this bench reads them (round thirty-one's reading of the data:
# 1 the answer is a list over sessions, 2 a date, 3 an inference, 4 one fact; 5, adversarial,
# has no evidence to find and the bench skips it)
CATEGORIES = {1: "multi-hop", 2: "temporal", 3: "open-domain", 4: "single-hop", 5: "adversarial"}
BANDS = ("not a candidate", "ordered 1-5, lost after", "ordered 6-10", "ordered 11-20",
         "ordered 21+", "piece of a long turn")


def band(rank: int | None, long_turn: bool) -> str:
    if long_turn:
        return "piece of a long turn"
    if rank is None:
        return "not a candidate"
    if rank <= 5:
        return "ordered 1-5, lost after"
    if rank <= 10:
        return "ordered 6-10"
    return "ordered 11-20" if rank <= 20 else "ordered 21+"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--features", type=Path, required=True)
    parser.add_argument("--details", type=Path, required=True)
    parser.add_argument("--data", type=Path, default=None,
                        help="LoCoMo's directory: count evidence turns over 2,000 characters")
    parser.add_argument("--system", default="wave")
    parser.add_argument("--split", default="tune", choices=("tune", "held", "all"))
    parser.add_argument("--k", type=int, default=10, choices=(5, 10))
    args = parser.parse_args()
    ranker = learned.load()
    long_turns: set[str] = set()
    if args.data:
        from wave_agent.bench.locomo_data import load_conversations

        long_turns = {f"{c.name}:{t.dia_id}" for c in load_conversations(args.data)
                      for t in c.turns if len(t.text) > 2000}
    cands: dict[str, dict] = {}
    for line in args.features.read_text(encoding="utf-8").splitlines():
        q = json.loads(line)
        if q.get("set") == "locomo":
            cands[q["id"]] = q
    points: dict[tuple[str, str], float] = defaultdict(float)
    turns: dict[tuple[str, str], int] = defaultdict(int)
    asked: dict[str, int] = defaultdict(int)
    share: dict[str, float] = defaultdict(float)
    n = 0
    for d in json.loads(args.details.read_text(encoding="utf-8"))["questions_detail"]:
        conv = d["id"].split(":")[0]
        if args.split != "all" and split_of(conv) != args.split:
            continue
        n += 1
        cat = CATEGORIES.get(int(d.get("category", 0)), str(d.get("category")))
        asked[cat] += 1
        row = d[args.system]
        share[cat] += row[f"R@{args.k}"]
        if row[f"R@{args.k}"] >= 1.0 and args.k == 10:
            continue
        evidence = list(d["evidence"])
        q = cands.get(d["id"])
        ranked: list[str] = []
        if q is not None and q["x"]:
            score = orders(q, ranker)["after_model"]
            seen: set[str] = set()
            for i in np.argsort(-score, kind="stable"):
                for t in q["keys"][i]:
                    if t not in seen:
                        seen.add(t)
                        ranked.append(t)
        within = set(row.get("within_10", []))
        for t in evidence:
            rank = ranked.index(t) + 1 if t in ranked else None
            if (t in within) if args.k == 10 else (rank is not None and rank <= 5):
                continue
            b = band(rank, f"{conv}:{t}" in long_turns)
            points[(cat, b)] += 1.0 / len(evidence)
            turns[(cat, b)] += 1
    cats = [c for c in CATEGORIES.values() if asked.get(c)]
    print(f"{args.system}, {args.split}: {n} questions, R@{args.k} "
          f"{100 * sum(share.values()) / n:.1f}")
    print(f"R@{args.k} points missed (evidence turns), by why and by category:")
    print(f"{'':26}" + "".join(f"{c:>20}" for c in cats) + f"{'all':>16}")
    for b in BANDS:
        cells = [f"{100 * points[(c, b)] / n:8.1f} ({turns[(c, b)]:4d})" for c in cats]
        total = sum(points[(c, b)] for c in cats)
        count = sum(turns[(c, b)] for c in cats)
        print(f"{b:26}" + "".join(f"{x:>20}" for x in cells) + f"{100 * total / n:8.1f} ({count:4d})")
    print(f"questions / R@{args.k} by category: " + ", ".join(
        f"{c} {asked[c]} / {100 * share[c] / asked[c]:.1f}" for c in cats))


if __name__ == "__main__":
    main()
