"""Every class denial the attribute reader finds in the honest months' messages ("детей нет",
"ни братьев, ни сестёр", "никаких болячек": a ``negate`` of any value), with whether the month
labels the message a contradiction; to check that a change to whose a denial is, or to what a
negation governs, loses no labelled contradiction and drops only the unlabelled.

    PYTHONPATH=. .venv/bin/python scripts/class_denials_months.py > before.json
    PYTHONPATH=. .venv/bin/python scripts/class_denials_months.py --compare before.json

The first form writes, per month, the message ids and the values denied; the second reads the
messages listed there again and prints per month what a labelled contradiction lost and what an
unlabelled message no longer denies (ids only: the texts are not printed).
"""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path

from wave_agent.world.attributes import ANY
from wave_agent.write import attributes

ROOT = Path(__file__).resolve().parents[1]


async def denials(text: str) -> list[str]:
    return sorted(v.key for v in await attributes.read(text, []) if v.op == "negate"
                  and v.value == ANY)


async def main() -> None:
    months = sorted((ROOT / "bench/data/month").glob("tuning*.json"))
    if "--compare" in sys.argv:
        before = json.loads(Path(sys.argv[sys.argv.index("--compare") + 1]).read_text())
        total = {"labelled kept": 0, "labelled lost": 0, "unlabelled kept": 0, "unlabelled dropped": 0}
        for path in months:
            found = before.get(path.stem, {})
            messages = {m["id"]: m for m in json.loads(path.read_text(encoding="utf-8"))["messages"]}
            lost, dropped = [], []
            for mid, keys in found.items():
                now = await denials(messages[mid]["text"])
                labelled = bool(messages[mid].get("contradicts"))
                gone = [k for k in keys if k not in now]
                kind = "labelled" if labelled else "unlabelled"
                total[f"{kind} {'lost' if labelled else 'dropped'}"] += bool(gone)
                total[f"{kind} kept"] += not gone
                (lost if labelled else dropped).extend(f"{mid}:{k}" for k in gone)
            print(f"{path.stem}: labelled contradictions that lost a denial {lost or '-'}; "
                  f"unlabelled messages that no longer deny {dropped or '-'}")
        print(json.dumps(total))
        return
    out: dict[str, dict[str, list[str]]] = {}
    for path in months:
        month = json.loads(path.read_text(encoding="utf-8"))
        out[path.stem] = {}
        for m in month["messages"]:
            if m["kind"] in ("statement", "small_talk"):
                keys = await denials(m["text"])
                if keys:
                    out[path.stem][m["id"]] = keys
    print(json.dumps(out, indent=1))


if __name__ == "__main__":
    asyncio.run(main())
