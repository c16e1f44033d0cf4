"""How recall reads the month questions before it searches (issue 30, round twenty-three): for
every question of every tuning month (``bench/data/month/tuning*.json``, one author each), the
preset the words pick (``presets.classify``), whether the past head reads it as asking for a past
value (``asked.asks_past``) and which attribute the attribute head reads. A question about now
read as past opens the history preset, and ``_replaced_first`` puts the replaced record right
above its successor: the cause this counts. Needs no database (only the e5 model).

    PYTHONPATH=. HF_HUB_OFFLINE=1 .venv/bin/python scripts/month_question_reading.py [--model PATH]
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from pathlib import Path

import numpy as np

from archive.embedder import Embedder
from wave_agent.recall import asked, presets

ROOT = Path(__file__).resolve().parents[1]
MONTHS = ROOT / "bench/data/month"


def main() -> None:
    if "--model" in sys.argv:
        asked.MODEL = Path(sys.argv[sys.argv.index("--model") + 1])
        asked.model.cache_clear()
    rows = []
    for path in sorted(MONTHS.glob("tuning*.json"), key=lambda p: (len(p.stem), p.stem)):
        month = json.loads(path.read_text(encoding="utf-8"))
        for cp in month["checkpoints"]:
            for q in cp["questions"]:
                rows.append((path.stem, q["kind"], q["text"], q.get("lang", "")))
    embedder = Embedder(asked.READS)
    x = embedder.embed_query_sync([r[2] for r in rows])
    counts: Counter[tuple[str, str, str]] = Counter()
    for (month, kind, text, lang), v in zip(rows, x, strict=True):
        words = presets.classify(text) is presets.HISTORY
        head = asked.asks_past(asked.READS, np.asarray(v))
        counts[(month, kind, "all")] += 1
        if words or head:
            counts[(month, kind, "past")] += 1
            counts[(month, kind, "words" if words else "head")] += 1
            if kind != "history" and "-q" in sys.argv:
                print(f"  {month} {kind} {lang} {'words' if words else 'head'}: {text}")
    months = sorted({m for m, _, _ in counts}, key=lambda s: (len(s), s))
    print(f"{'month':>10} | now read as past (words / head) | stable read as past | history read as past")
    tot: Counter[str] = Counter()
    for m in months:
        c = {k: counts[(m, k, "past")] for k in ("current", "stable", "history")}
        n = {k: counts[(m, k, "all")] for k in ("current", "stable", "history")}
        for k in c:
            tot[k] += c[k]
            tot[k + "_n"] += n[k]
        tot["words"] += counts[(m, "current", "words")]
        print(f"{m:>10} | {c['current']}/{n['current']} ({counts[(m, 'current', 'words')]} / "
              f"{counts[(m, 'current', 'head')]}) | {c['stable']}/{n['stable']} | "
              f"{c['history']}/{n['history']}")
    print(f"{'all':>10} | {tot['current']}/{tot['current_n']} (words {tot['words']}) | "
          f"{tot['stable']}/{tot['stable_n']} | {tot['history']}/{tot['history_n']}")


if __name__ == "__main__":
    main()
