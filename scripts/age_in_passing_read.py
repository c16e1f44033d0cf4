"""Whether the reader reads the age a labelled age contradiction states (issue 30, round
thirty, h/contra28): every message of the honest months labelled as contradicting an earlier
age, read alone with nothing held (``write.attributes.read``), prints the ages read. Months
named with ``--skip`` (the held-out ones) are not opened. Texts are not printed.

    PYTHONPATH=. HF_HUB_OFFLINE=1 python scripts/age_in_passing_read.py --skip tuning_19,tuning_28
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

from wave_agent.bench.month import load
from wave_agent.write.attributes import read

MONTHS = Path(__file__).resolve().parents[1] / "bench" / "data" / "month"


async def main() -> None:
    skip = set(sys.argv[sys.argv.index("--skip") + 1].split(",")) if "--skip" in sys.argv else set()
    read_n = total = 0
    for path in sorted(MONTHS.glob("tuning_*.json"), key=lambda p: int(p.stem.split("_")[1])):
        if path.stem in skip:
            continue
        for m in load(path).messages:
            if m.contradicts and any(s.attribute.split(":")[0] == "age" for s in m.sets):
                ages = [v.encode() for v in await read(m.text, []) if v.attribute == "age"]
                labelled = [s.value for s in m.sets]
                hit = any(v.split("|")[2] in " ".join(labelled) for v in ages)
                total += 1
                read_n += hit
                print(path.stem, m.id, labelled, ages, "read" if hit else "not read")
    print(f"the labelled age read: {read_n} of {total}")


if __name__ == "__main__":
    asyncio.run(main())
