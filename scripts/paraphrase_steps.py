"""Which recall step costs plain e5's rank-1 answer on the memory authors' paraphrase questions.

Reads the ``--details`` files that ``scripts/paraphrase_steps.sh`` leaves (``DIR/<set>.details.json``, a one-item list:
each question's first-answer rank for Wave, plain e5, BM25 and each ``--also-config`` variant)
and prints, per question kind over all the sets given and per set: R@1 / R@5 of each side, and
for each variant against Wave the paired counts at rank 1 and 5 (questions the variant puts in
better / worse), plus how many of Wave's rank-1 losses to e5 (e5 first, Wave not) the variant
wins back and how many new ones it makes.

    python scripts/paraphrase_steps.py /tmp/r25 [--kind paraphrase]
"""

from __future__ import annotations

import argparse
import json
from collections import defaultdict
from pathlib import Path
from typing import Any


def within(rank: Any, k: int) -> bool:
    return rank is not None and rank <= k


def load(directory: Path) -> dict[str, list[dict[str, Any]]]:
    return {p.name.removesuffix(".details.json"): json.loads(p.read_text())[0]["ranks"]
            for p in sorted(directory.glob("*.details.json"))}


def table(rows: list[dict[str, Any]], label: str) -> None:
    sides = [s for s in rows[0] if s not in ("id", "kind", "wave_first")]
    n = len(rows)
    print(f"\n{label} ({n} questions)")
    for side in sides:
        r1 = sum(within(r[side], 1) for r in rows)
        r5 = sum(within(r[side], 5) for r in rows)
        line = f"  {side:16s} R@1 {100 * r1 / n:5.1f}  R@5 {100 * r5 / n:5.1f}"
        if side.startswith("wave-"):
            up1 = sum(within(r[side], 1) and not within(r["wave"], 1) for r in rows)
            dn1 = sum(within(r["wave"], 1) and not within(r[side], 1) for r in rows)
            up5 = sum(within(r[side], 5) and not within(r["wave"], 5) for r in rows)
            dn5 = sum(within(r["wave"], 5) and not within(r[side], 5) for r in rows)
            lost = [r for r in rows if within(r["dense"], 1) and not within(r["wave"], 1)]
            back = sum(within(r[side], 1) for r in lost)
            new = sum(within(r["dense"], 1) and within(r["wave"], 1) and not within(r[side], 1)
                      for r in rows)
            line += (f"  vs wave @1 +{up1}/-{dn1} @5 +{up5}/-{dn5}"
                     f"  e5-losses back {back}/{len(lost)}, new {new}")
        print(line)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("directory", type=Path)
    ap.add_argument("--kind", default=None, help="only this kind per set (default: every kind)")
    ap.add_argument("--per-set", action="store_true")
    args = ap.parse_args()
    sets = load(args.directory)
    by_kind: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for rows in sets.values():
        for r in rows:
            by_kind[r["kind"]].append(r)
            by_kind["all"].append(r)
    print("sets:", ", ".join(sets))
    for kind, rows in sorted(by_kind.items()):
        if args.kind in (None, kind):
            table(rows, f"all sets, kind {kind}")
    if args.per_set:
        for name, rows in sets.items():
            kind_rows = [r for r in rows if args.kind in (None, r["kind"])]
            if kind_rows:
                table(kind_rows, f"{name}, kind {args.kind or 'all'}")


if __name__ == "__main__":
    main()
