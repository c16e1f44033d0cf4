"""The date reader over every other bench text: what it reads, what changed, and what it costs.

    PYTHONPATH=. .venv/bin/python scripts/bench_dates_other.py --out /tmp/after.json \
        [--before /tmp/before.json] [--data bench/data]

Every string of ``bench/data`` outside ``dates/`` and ``month/`` (JSON values, JSONL values,
lines of the other files; at least 8 characters with a space), read once each with
``read_due`` as written on Wednesday 2 December 2026 14:30 in Moscow. ``--out`` keeps each
reading (due time, asked); ``--before`` (the file of another tree's reader, run with that
tree first on ``PYTHONPATH``) prints every text whose reading changed, for a person to read:
the check "no invented dates on other text" in docs/benchmarks.md, "Dates". Prints the count,
the time a text (after pymorphy3 is loaded) and how many texts reached the clause reading of
two dates, with its time.
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import wave_agent.policy.dates as dates

AT = datetime(2026, 12, 2, 14, 30, tzinfo=ZoneInfo("Europe/Moscow"))


def _strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for v in value.values():
            yield from _strings(v)
    elif isinstance(value, list):
        for v in value:
            yield from _strings(v)


def texts(root: Path) -> list[str]:
    found: set[str] = set()
    for path in sorted(root.rglob("*")):
        if (not path.is_file() or {"dates", "month"} & set(path.relative_to(root).parts)
                or path.suffix == ".py"):
            continue
        raw = path.read_text(errors="ignore")
        if path.suffix == ".json":
            found.update(_strings(json.loads(raw)))
        elif path.suffix == ".jsonl":
            for line in raw.splitlines():
                if line.strip():
                    found.update(_strings(json.loads(line)))
        else:
            found.update(raw.splitlines())
    return sorted(t for t in found if len(t) >= 8 and " " in t)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=Path("bench/data"))
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--before", type=Path)
    args = parser.parse_args()
    items = texts(args.data)
    dates.read_due("в пятнецу", AT)   # pymorphy3 loads once, outside the timing
    clause_times: list[float] = []
    by_clause = getattr(dates, "_by_clause", None)
    if by_clause is not None:
        def timed(*a: Any) -> Any:
            start = time.perf_counter()
            try:
                return by_clause(*a)
            finally:
                clause_times.append(time.perf_counter() - start)
        dates._by_clause = timed  # type: ignore[attr-defined]
    readings: dict[str, list[object]] = {}
    start = time.perf_counter()
    for text in items:
        r = dates.read_due(text, AT)
        readings[text] = [dates.local_text(r.due) if r.due else None, r.ambiguous]
    spent = time.perf_counter() - start
    args.out.write_text(json.dumps(readings, ensure_ascii=False, indent=0), encoding="utf-8")
    print(f"{len(items)} texts, {spent * 1000 / len(items):.3f} ms a text; clause reading on "
          f"{len(clause_times)} ({sum(clause_times) * 1000:.1f} ms in all)")
    if args.before:
        before = json.loads(args.before.read_text(encoding="utf-8"))
        changed = [t for t in items if t in before and before[t] != readings[t]]
        print(f"{len(changed)} readings changed:")
        for text in changed:
            print(f"  {before[text]} -> {readings[text]} | {text!r}")


if __name__ == "__main__":
    main()
