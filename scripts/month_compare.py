"""The lines of `wave bench month --json` runs side by side (round thirty, h/contra29):

    python scripts/month_compare.py OUT/base-tuning_29.json OUT/new-tuning_29.json ...

Prints each run's whole-month line per measure (n/of, or the count), counts only."""

from __future__ import annotations

import json
import sys
from pathlib import Path


def lines(path: str) -> dict[str, str]:
    run = json.loads(Path(path).read_text(encoding="utf-8"))[0]
    by = run["by"][run["part"]] if run["part"] in run["by"] else next(iter(run["by"].values()))
    return {k: (f"{v['n']}/{v['of']}" if isinstance(v, dict) else str(v)) for k, v in by.items()}


if __name__ == "__main__":
    runs = {p: lines(p) for p in sys.argv[1:]}
    keys = next(iter(runs.values())).keys()
    print("| measure | " + " | ".join(p.rsplit("/", 1)[-1] for p in runs) + " |")
    for k in keys:
        print(f"| {k[:60]} | " + " | ".join(r.get(k, "") for r in runs.values()) + " |")
