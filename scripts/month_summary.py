"""The figures of ``wave bench month --out RUN.json`` runs on one line each (small talk stored,
statements kept, contradictions raised, false alarms, changes applied, two truths), to set a
run beside another; `--by-lang` adds small talk and statements per language when the run has it.

    PYTHONPATH=. .venv/bin/python scripts/month_summary.py RUN.json [RUN2.json ...]
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

WANTED = ("small talk stored", "statements kept", "unmarked contradictions raised", "false alarms",
          "changes applied", "two active truths", "pasted instructions active")


def fmt(v: Any) -> str:
    if isinstance(v, dict) and "n" in v:
        return f"{v['n']}/{v['of']} ({v.get('pct', 0)}%)"
    return json.dumps(v, ensure_ascii=False)


def main() -> None:
    for name in sys.argv[1:]:
        if name.startswith("--"):
            continue
        for run in json.loads(Path(name).read_text(encoding="utf-8")):
            for part, figures in run["by"].items():
                said = [f"{k}: {fmt(v)}" for k, v in figures.items()
                        if any(k.startswith(w) for w in WANTED)]
                print(f"{Path(name).name} {part} ({run.get('wall_s', 0):.0f} s): " + "; ".join(said))


if __name__ == "__main__":
    main()
