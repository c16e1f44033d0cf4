"""Every figure of two sets of ``wave bench month --json --out`` runs side by side, per month and
summed (counts, not texts: a held-out month is compared without being read). Round twenty-seven
(h/truths26): ``base`` is the branch's start, ``head`` the learned retire step.

    python scripts/truths_compare.py /tmp/truths26 base head tuning_21 tuning_22 ...
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from pathlib import Path


def figures(path: Path, month: str) -> dict[str, tuple[int, int]]:
    run = json.loads(path.read_text())[0]
    return {k: (v["n"], v["of"]) for k, v in run["by"][month].items() if isinstance(v, dict)}


def main() -> None:
    root, a, b, *months = sys.argv[1:]
    total: dict[str, Counter[str]] = {a: Counter(), b: Counter()}
    names: list[str] = []
    for month in months:
        got = {t: figures(Path(root) / f"{t}-{month}.json", month) for t in (a, b)}
        for name in got[a]:
            if name not in names:
                names.append(name)
        for t in (a, b):
            for name, (n, of) in got[t].items():
                total[t][name + " n"] += n
                total[t][name + " of"] += of
        moved = [f"{k}: {got[a][k][0]}/{got[a][k][1]} -> {got[b][k][0]}/{got[b][k][1]}"
                 for k in got[a] if got[a][k] != got[b].get(k)]
        print(f"{month}: " + ("; ".join(moved) if moved else "no figure moved"))
    print(f"\nsummed over {len(months)} months ({a} -> {b}):")
    for name in names:
        print(f"  {name}: {total[a][name + ' n']}/{total[a][name + ' of']} -> "
              f"{total[b][name + ' n']}/{total[b][name + ' of']}")


if __name__ == "__main__":
    main()
