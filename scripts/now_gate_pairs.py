"""Paired figures for the now/stable gate (round thirty-one, h/gate31): for each ``--details``
file of ``wave bench memory ... --also-config gate05:attribute_now_gate=0.5`` in DIR, R@1 / R@5
of Wave against each ``wave-<name>`` side by question kind, with the questions each side puts
in (+) or out (-) of the first k, and plain e5's figure beside.

    python scripts/now_gate_pairs.py /tmp/gate31-out
"""

from __future__ import annotations

import json
import sys
from collections import defaultdict
from pathlib import Path
from typing import Any


def within(rank: Any, k: int) -> bool:
    return rank is not None and rank <= k


def main() -> None:
    totals: dict[tuple[str, str], list[tuple[Any, Any, Any]]] = defaultdict(list)
    for path in sorted(Path(sys.argv[1]).glob("*.details.json")):
        ranks = json.loads(path.read_text())[0]["ranks"]
        sides = sorted(k for k in ranks[0] if k.startswith("wave-"))
        name = path.name.removesuffix(".details.json")
        for side in sides:
            for r in ranks:
                for kind in (r["kind"], "all"):
                    t = (r["wave"], r[side], r["dense"])
                    totals[(f"{name} {side}", kind)].append(t)
                    totals[(f"{name.rsplit('-', 1)[0]} {side}", kind)].append(t)
    for (name, kind), rows in sorted(totals.items()):
        n = len(rows)
        line = f"{name:32s} {kind:10s} ({n:4d})"
        for k in (1, 5):
            w = sum(within(a, k) for a, _, _ in rows)
            g = sum(within(b, k) for _, b, _ in rows)
            e = sum(within(c, k) for _, _, c in rows)
            up = sum(within(b, k) and not within(a, k) for a, b, _ in rows)
            dn = sum(within(a, k) and not within(b, k) for a, b, _ in rows)
            line += (f"  R@{k} {100 * w / n:5.1f} -> {100 * g / n:5.1f} (+{up}/-{dn})"
                     f" e5 {100 * e / n:5.1f}")
        print(line)


if __name__ == "__main__":
    main()
