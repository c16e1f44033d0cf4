"""One row per part and run out of ``wave bench entities --json`` outputs: Russian entities
(all, people, places, organisations) and relations with their counts, Polish and English
relations, and questions with a right record in the first 5; then the relations by type
(right / wrong / missed), for comparing two trees on the same held-out parts.

    python scripts/entities_table.py before.json after.json
    python scripts/entities_table.py --totals before.json after.json

``--totals``: the parts summed per run (Russian people, places, organisations, relations:
P / R / F1 with right / wrong / missed), and against the first run how many parts went up or
down in F1; what a held-out comparison reports without a statement of the parts.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path


def _pr(t: dict[str, float]) -> str:
    return f"{t['P']:.1f} / {t['R']:.1f} ({t['tp']}, {t['fp']}, {t['fn']})"


_KEYS = (("people", "entities", "ru/person"), ("places", "entities", "ru/place"),
         ("organisations", "entities", "ru/organisation"), ("relations", "relations", "ru/all"),
         ("pl relations", "relations", "pl/all"), ("en relations", "relations", "en/all"))


def _f1(tp: int, fp: int, fn: int) -> float:
    return 200 * tp / (2 * tp + fp + fn) if tp else 0.0


def totals(names: list[str]) -> None:
    runs = [{p["part"]: p for p in json.loads(Path(n).read_text(encoding="utf-8"))}
            for n in names]
    for name, run in zip(names, runs, strict=True):
        cells = []
        for label, group, key in _KEYS:
            tp, fp, fn = (sum(p[group][key][x] for p in run.values()) for x in ("tp", "fp", "fn"))
            cell = (f"{label} {100 * tp / max(tp + fp, 1):.1f} / {100 * tp / max(tp + fn, 1):.1f}"
                    f" (F1 {_f1(tp, fp, fn):.1f}; {tp} / {fp} / {fn})")
            if run is not runs[0]:
                moved = [_f1(*(p[group][key][x] for x in ("tp", "fp", "fn"))) - _f1(*(
                    runs[0][part][group][key][x] for x in ("tp", "fp", "fn")))
                    for part, p in run.items() if part in runs[0]]
                cell += f" {sum(m > 1e-9 for m in moved)} up / {sum(m < -1e-9 for m in moved)} down"
            cells.append(cell)
        asked = [p["questions"]["all"]["R@5"] for p in run.values()]
        cells.append(f"questions R@5 lowest part {min(asked):.1f}")
        print(f"{Path(name).stem}: " + "; ".join(cells))


def main() -> int:
    if sys.argv[1:2] == ["--totals"]:
        totals(sys.argv[2:])
        return 0
    for name in sys.argv[1:]:
        for part in json.loads(Path(name).read_text(encoding="utf-8")):
            e, r = part["entities"], part["relations"]
            cells = [_pr(e["ru/all"]), *(_pr(e[f"ru/{k}"]) for k in
                                         ("person", "place", "organisation")),
                     _pr(r["ru/all"]), _pr(r["pl/all"]), _pr(r["en/all"]),
                     f"{part['questions']['all']['R@5']:.1f}"]
            print(f"| {Path(name).stem} {part['part']} | " + " | ".join(cells) + " |")
            kinds = sorted(k.split("/", 1)[1] for k in r if k.startswith("ru/") and k != "ru/all")
            print("   ru by type: " + ", ".join(
                f"{k} {r[f'ru/{k}']['tp']}/{r[f'ru/{k}']['fp']}/{r[f'ru/{k}']['fn']}"
                for k in kinds))
    return 0


if __name__ == "__main__":
    sys.exit(main())
