"""Every city the attribute reader gives a person other than the speaker in the honest months'
messages, each read with the values the month's labels hold by then, with whether a label of
the message holds it; to check that reading another person's city only where that person is
said in the nominative (``attributes._said_as_subject``) loses no labelled city and drops only
unlabelled ones (issue 30: month 23's "w Krakowie poznałam Kasię" read as Kasia's city).

    PYTHONPATH=. .venv/bin/python scripts/others_cities_months.py > before.json
    PYTHONPATH=. .venv/bin/python scripts/others_cities_months.py --compare before.json

Ids and entity keys only in the comparison: no text.
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from negations_months import HONEST, MONTHS, compare, held_before

from wave_agent.bench.month import holds, load
from wave_agent.world import attributes as A
from wave_agent.world import read_many


async def month_cities(name: str) -> dict[str, dict[str, bool]]:
    data = load(MONTHS / f"{name}.json")
    before = dict(zip([m.id for m in data.messages], held_before(list(data.messages)),
                      strict=True))
    said = [m for m in data.messages if m.kind in ("statement", "small_talk")]
    readings = await read_many([A.as_said(m.text) for m in said])
    out: dict[str, dict[str, bool]] = {}
    for m, r in zip(said, readings, strict=True):
        found = {f"{v.entity}|{v.value}": any(
                     s.attribute == "city" and s.entity != "user" and holds(v.value, s.value)
                     for s in m.sets)
                 for v in A.read_values(m.text, r, before[m.id])
                 if v.attribute == "city" and v.entity != A.USER}
        if found:
            out[m.id] = found
    return out


async def main() -> None:
    now = {name: await month_cities(name) for name in HONEST}
    compare(now, "cities", lambda mid, key, label: mid)


if __name__ == "__main__":
    asyncio.run(main())
