"""Questions about now whose answer is an ending or a denial, read from `wave bench month` runs
(round thirty, h/now30).

Reads the JSON that ``scripts/month_runs.sh`` writes (``--misses``, and with
``ALSO="--also-config noend:endings_first=false"`` the same records asked without the ending
step) and prints, per month and summed:

- the questions about now: current value first / in the first 5 / stale above current, with
  the step (the month's own key) and without it (``<month>@noend``), paired on one replay;
- the same under the bench's judge before this round (a "no" answer held only by a record with
  the word "нет"), derived from each "ending question" entry's ``literal_rank``;
- the current-value misses by ``cause``;
- where each "no" answer stands: the ending message left no record of its own (judged small
  talk, cut at the door, or only retiring the old record), its records are not in force, in
  force but not among the ten found, among them but not first, first.

    python scripts/now_endings.py /tmp/now30/e-tuning_*.json [--show tuning_27 ...]

``--show`` prints the texts of the listed months' ending questions (the months read while
building); the others' texts are never printed.
"""

from __future__ import annotations

import argparse
import json
from collections import Counter
from pathlib import Path
from typing import Any

PLACES = ("no record of its own", "records not in force", "in force, not in the ten",
          "in the ten, not first", "first")


def place(e: dict[str, Any]) -> str:
    if not e["records"]:
        return PLACES[0]
    if not any(status == "active" for status, _ in e["records"]):
        return PLACES[1]
    rank = e["ending_rank"]
    if e["literal_rank"] is not None and (rank is None or e["literal_rank"] < rank):
        rank = e["literal_rank"]
    if rank is None:
        return PLACES[2]
    return PLACES[4] if rank == 0 else PLACES[3]


def figures(by: dict[str, Any], key: str) -> dict[str, tuple[int, int]]:
    f = by.get(key, {})

    def nd(label: str) -> tuple[int, int]:
        v = f.get(label) or {"n": 0, "of": 0}
        return v["n"], v["of"]

    return {"first": nd("current value first"), "top5": nd("current value in the first 5"),
            "stale": nd("stale above current"), "history": nd("history: old value in the first 5"),
            "stable": nd("stable fact in the first 5")}


def literal(run: dict[str, Any], key: str, fig: dict[str, tuple[int, int]]) -> tuple[int, int]:
    """First / first 5 under the judge before round thirty: an ending record credited only
    when it also holds the words of the answer."""
    first, top5 = fig["first"][0], fig["top5"][0]
    for e in run["misses"]:
        if e["what"] != "ending question" or e.get("asked_as", run["part"]) != key:
            continue
        lit, end = e["literal_rank"], e["ending_rank"]
        new = end if lit is None else (lit if end is None else min(lit, end))
        first -= int(new == 0 and lit != 0)
        top5 -= int(new is not None and new < 5 and (lit is None or lit >= 5))
    return first, top5


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("runs", nargs="+", type=Path)
    ap.add_argument("--show", nargs="*", default=[], help="months whose texts may be printed")
    ap.add_argument("--variant", default="noend")
    a = ap.parse_args()
    total: dict[str, list[int]] = {}
    causes: Counter[str] = Counter()
    places: Counter[str] = Counter()
    print("first / first 5: the step with the new judge / no step, new judge / the step, the old "
          "judge / no step, the old judge (as before this round)")
    print(f"{'month':<10} {'first':<38} {'first 5':<32} "
          f"{'stale above':<14} {'history':<12} {'stable':<12} endings")
    for path in sorted(a.runs, key=lambda p: int(p.stem.rsplit("_", 1)[-1])):
        run = json.loads(path.read_text(encoding="utf-8"))[0]
        m, by = run["part"], run["by"]
        on, off = figures(by, m), figures(by, f"{m}@{a.variant}")
        lit = literal(run, m, on)
        before = literal(run, f"{m}@{a.variant}", off)  # no step, the old judge: as before
        ends = [e for e in run["misses"] if e["what"] == "ending question"
                and e.get("asked_as", m) == m]
        here = Counter(place(e) for e in ends)
        places.update(here)
        causes.update(x.get("cause", "?") for x in run["misses"] if x["what"] == "current question")
        row = [on["first"][0], off["first"][0], lit[0], on["first"][1], on["top5"][0],
               off["top5"][0], lit[1], on["stale"][0], on["stale"][1], off["stale"][0],
               off["stale"][1], on["history"][0], off["history"][0], on["history"][1],
               on["stable"][0], off["stable"][0], on["stable"][1], len(ends), here["first"],
               before[0], before[1]]
        total = {k: [x + y for x, y in zip(total.get(k, [0] * len(row)), row, strict=True)]
                 for k in ("all",)}
        print(f"{m:<10} {row[0]:>3} / {row[1]:>3} / {row[2]:>3} / {row[19]:>3} of {row[3]:<8}"
              f"{row[4]:>3} / {row[5]:>3} / {row[6]:>3} / {row[20]:>3}{'':<8} {row[7]}/{row[8]} vs {row[9]}/{row[10]}"
              f"{'':<3} {row[11]} / {row[12]} of {row[13]:<4} {row[14]} / {row[15]} of {row[16]:<4}"
              f" {row[18]} first of {row[17]}")
        if m in a.show:
            for e in ends:
                print(f"    [{place(e)}] {e['text']} -> {e['expect']} | said: {e['said'][:90]}"
                      f" | records: {[(s, t[:50]) for s, t in e['records']]}")
    print("\nby language (the new judge): current first / first 5, with the step vs without")
    for lang in ("ru", "pl", "en"):
        on_l = [0, 0, 0]
        off_l = [0, 0]
        for path in a.runs:
            run = json.loads(path.read_text(encoding="utf-8"))[0]
            on, off = figures(run["by"], f"{run['part']}/{lang}"), \
                figures(run["by"], f"{run['part']}@{a.variant}/{lang}")
            on_l = [on_l[0] + on["first"][0], on_l[1] + on["top5"][0], on_l[2] + on["first"][1]]
            off_l = [off_l[0] + off["first"][0], off_l[1] + off["top5"][0]]
        print(f"  {lang}: {on_l[0]} / {on_l[1]} vs {off_l[0]} / {off_l[1]} of {on_l[2]}")
    t = total["all"]
    print(f"{'all':<10} {t[0]:>3} / {t[1]:>3} / {t[2]:>3} / {t[19]:>3} of {t[3]:<8}{t[4]:>3} / "
          f"{t[5]:>3} / {t[6]:>3} / {t[20]:>3}{'':<8} {t[7]}/{t[8]} vs {t[9]}/{t[10]}   {t[11]} / {t[12]} of {t[13]:<4}"
          f" {t[14]} / {t[15]} of {t[16]:<4} {t[18]} first of {t[17]}")
    print("\ncurrent-value misses by cause (with the step):", dict(causes.most_common()))
    print("where a 'no' answer stands (with the step):", {p: places[p] for p in PLACES})
    off_places: Counter[str] = Counter()
    literal_first = 0
    for path in a.runs:
        run = json.loads(path.read_text(encoding="utf-8"))[0]
        for e in run["misses"]:
            if e["what"] == "ending question" and e.get("asked_as") == f"{run['part']}@{a.variant}":
                off_places[place(e)] += 1
                literal_first += e["literal_rank"] == 0
    print("where it stands without the step:", {p: off_places[p] for p in PLACES},
          f"; first by the old judge (a record with the answer's words): {literal_first}")


if __name__ == "__main__":
    main()
