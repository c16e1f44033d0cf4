"""The recall figures of ``wave bench month --json --out`` runs side by side, and the causes of
the missed questions about now (the bench's ``cause``), totals only: the question texts are not
printed, so a month can be measured without being read.

    python scripts/month_compare.py base-tuning_20.json new-tuning_20.json ...
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from pathlib import Path

FIGURES = ("current value first", "current value in the first 5", "stale above current",
           "history: old value in the first 5", "stable fact in the first 5",
           "two active truths", "changes applied")


def main() -> None:
    for path in sys.argv[1:]:
        for r in json.loads(Path(path).read_text(encoding="utf-8")):
            by = r["by"].get(r["part"]) or next(iter(r["by"].values()))
            row = []
            for name in FIGURES:
                f = by.get(name)
                row.append(f"{name}: {f['n']}/{f['of']}" if isinstance(f, dict) else f"{name}: -")
            causes = Counter(m.get("cause", "?") for m in r["misses"]
                             if m["what"] == "current question")
            print(f"{Path(path).name} ({r['part']}, {r['wall_s']} s)")
            print("  " + "; ".join(row))
            print(f"  causes of missed questions about now: {dict(causes)}")


if __name__ == "__main__":
    main()
