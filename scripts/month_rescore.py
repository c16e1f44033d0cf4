"""Rescore a month bench run's question misses with the bench's current ``holds`` against the
surface scorer (``holds_surface``), on the same replay: what the scorer change alone moves.

    PYTHONPATH=. python scripts/month_rescore.py RUN.json [RUN.json ...]

A run is ``wave bench month --misses --json --out RUN.json``. A question miss carries its
first five records (cut at 100 characters), so the first-five figures (current first, current
in the first 5, history, stable) are rescored exactly, up to the cut; stale above current, the
changes and the chat replies need the whole replay (``WAVE_BENCH_HOLDS=surface``). Every newly
accepted pair (record, value) is printed, for reading by eye."""

from __future__ import annotations

import json
import sys
from collections import Counter
from pathlib import Path

from wave_agent.bench.month import holds, holds_surface, load


def rescore(path: Path) -> dict[str, object]:
    out: dict[str, object] = {}
    for result in json.loads(path.read_text()):
        month = load(Path("bench/data/month") / f"{result['part']}.json")
        attribute = {q.id: q.attribute for cp in month.checkpoints for q in cp.questions}
        moved: Counter[str] = Counter()
        accepted: list[dict[str, object]] = []
        for m in result["misses"]:
            if not m["what"].endswith(" question"):
                continue
            kind, attr, top = m["what"].split()[0], attribute[m["question"]], m["top"][:5]
            old = [holds_surface(t, m["expect"], attr) for t in top]
            new = [holds(t, m["expect"], attr) for t in top]
            if kind == "current":
                moved["current value first"] += int(bool(new) and new[0] and not old[0])
                moved["current value in the first 5"] += int(any(new) and not any(old))
            else:
                moved[f"{kind}: in the first 5"] += int(any(new) and not any(old))
            for value, role in [(m["expect"], "expect"), *((s, "stale") for s in m["stale"])]:
                for t in top:
                    if holds(t, value, attr) and not holds_surface(t, value, attr):
                        accepted.append({"question": m["question"], "asked": m.get("text", ""),
                                         "role": role, "value": value, "record": t})
        out[result["part"]] = {"moved": dict(moved), "newly_accepted": accepted}
    return out


if __name__ == "__main__":
    for arg in sys.argv[1:]:
        print(json.dumps({arg: rescore(Path(arg))}, ensure_ascii=False, indent=1))
