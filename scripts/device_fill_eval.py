"""Offline check of ``unread_old.with_device`` (round twenty-eight, h/truths27): over the honest
months' statements, each scored by a statement head fitted leaving its month out, where does the
step read a device the rules did not, and does the month's label say the statement sets (or
adds) a device of the person's? Counts per threshold: statements read, of them labelled a
device of the person's, and the labelled device statements the rules miss that the step reads.
Months 23, 24, 27 and 28 are left out of everything (they are the replay's held-out authors).

    PYTHONPATH=. HF_HUB_OFFLINE=1 python scripts/device_fill_eval.py [--show]
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

import statement_attributes_head as SA  # noqa: E402
import train_statement_attributes as T  # noqa: E402

from wave_agent.bench.month import load  # noqa: E402
from wave_agent.world import read_many  # noqa: E402
from wave_agent.world.attributes import as_said, read_values  # noqa: E402
from wave_agent.write import unread_old  # noqa: E402

HELD_OUT = ("tuning_23", "tuning_24", "tuning_27", "tuning_28")
THRESHOLDS = (0.5, 0.6, 0.7, 0.8)


async def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--show", action="store_true")
    args = ap.parse_args()
    months, ids, texts, y = T.statements()
    x = T.vectors(texts)
    group = np.asarray(months)
    keep = ~np.isin(group, HELD_OUT)
    j = SA.HEAD.index("device")
    p = np.zeros(len(texts), dtype=np.float32)
    for name in sorted(set(group[keep])):
        test = group == name
        w, b = T.fit(x[keep & ~test], y[keep & ~test])
        p[test] = 1 / (1 + np.exp(-(x[test] @ w[j] + b[j])))
    labelled = {(m.id, name): any(s.entity == "user" and s.attribute == "device"
                                  and s.op in ("set", "add") for s in m.sets)
                for name in sorted(set(group[keep]))
                for m in load(T.MONTHS / f"{name}.json").messages}
    rows = [n for n in range(len(texts)) if keep[n]]
    readings = await read_many([as_said(texts[n]) for n in rows])
    ruled = {n: any(v.attribute == "device" for v in read_values(texts[n], r, ()))
             for n, r in zip(rows, readings, strict=True)}
    said = {n: unread_old.device_said(texts[n]) for n in rows}
    device = [n for n in rows if labelled[(ids[n], months[n])]]
    print(f"{len(rows)} statements of {len(set(group[keep]))} months; {len(device)} labelled a "
          f"device of the person's, the rules read a device in {sum(ruled[n] for n in device)}")
    print("| head at | statements the step reads | labelled a device | labelled ones the rules missed, now read |")
    print("|---|---|---|---|")
    for t in THRESHOLDS:
        read = [n for n in rows if not ruled[n] and said[n] is not None and p[n] >= t]
        good = [n for n in read if labelled[(ids[n], months[n])]]
        print(f"| {t} | {len(read)} | {len(good)} | {len(good)}/{len(device) - sum(ruled[n] for n in device)} |")
        if args.show and t == unread_old.SURE:
            for n in read:
                mark = "+" if labelled[(ids[n], months[n])] else "-"
                print(f"  {mark} {months[n]} {ids[n]} {p[n]:.2f} {said[n]}: {texts[n][:90]}")


if __name__ == "__main__":
    asyncio.run(main())
