"""Offline check of "the head finds the old record" (round twenty-seven, h/truths26): when a new
value of the person's single-valued attribute is read and no record holds a value of it, could
the learned head (``train_statement_attributes.py``: e5 vector -> which of the person's
attributes a statement sets) find the earlier statement that held the old one?

For each month (scored by heads fitted without it, leaving one month out over ``--months``):
every labelled change (a ``set`` of a single-valued attribute of the person's, an old value
held) whose old-value message the reader does not read as the attribute (``month_causes``'s
"old not read as the attribute"), and whose new message it reads as the attribute: does the
head score the old message at or above each threshold (found), and how many other earlier
statements of the month that set no value of the attribute score so too (would be retired
wrongly; an upper bound: the writer looks only at the new statement's nearest records).

    PYTHONPATH=. HF_HUB_OFFLINE=1 python scripts/retire_by_head.py [--months tuning_2 ...]
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

import month_causes as MC  # noqa: E402
import statement_attributes_head as SA  # noqa: E402
import train_statement_attributes as T  # noqa: E402

from wave_agent.bench.month import load  # noqa: E402
from wave_agent.world.attributes import Value, single_valued  # noqa: E402

THRESHOLDS = (0.5, 0.7, 0.8, 0.9)


async def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--months", nargs="*", default=[f"tuning_{i}" for i in range(2, 21)])
    ap.add_argument("--show", action="store_true")
    args = ap.parse_args()
    months, ids, _texts, y = T.statements()
    x = T.vectors(_texts)
    group = np.asarray(months)
    index = {(g, i): n for n, (g, i) in enumerate(zip(months, ids, strict=True))}
    found = {t: 0 for t in THRESHOLDS}
    wrong = {t: 0 for t in THRESHOLDS}
    cases = 0
    for name in args.months:
        test = group == name
        keep = ~test & np.isin(group, args.months)
        w, b = T.fit(x[keep], y[keep])
        month = load(MC.MONTHS / f"{name}.json")
        order = [m for m in month.messages if m.kind == "statement"]
        for m, s, old, before in MC._changes(month):
            base = MC._base(s.attribute)
            if (s.entity != "user" or s.op != "set" or not old or before is None
                    or not single_valued(s.attribute) or m.contradicts or base == "price"):
                continue
            held = [Value(s.entity, s.attribute, v, "set") for v in old]
            if base not in await MC._keys(m.text, held) or base in await MC._keys(before.text, []):
                continue
            if (name, before.id) not in index:
                continue
            cases += 1
            j = SA.HEAD.index(base)
            p_old = float(1 / (1 + np.exp(-(x[index[(name, before.id)]] @ w[j] + b[j]))))
            others = []
            for o in order:
                if o.at >= m.at:
                    break
                if o.id == before.id or any(t.entity == "user" and MC._base(t.attribute) == base
                                            for t in o.sets):
                    continue
                others.append(float(1 / (1 + np.exp(-(x[index[(name, o.id)]] @ w[j] + b[j])))))
            for t in THRESHOLDS:
                found[t] += p_old >= t
                wrong[t] += sum(p >= t for p in others)
            if args.show:
                print(f"  {name} {m.id} {base} p_old={p_old:.2f} "
                      f"others>=0.8: {sum(p >= 0.8 for p in others)}: {before.text[:80]}")
    print(f"{cases} changes whose old statement the reader does not read (months {args.months[0]}"
          f" .. {args.months[-1]}, each scored by heads fitted without it)")
    for t in THRESHOLDS:
        print(f"  at {t}: old statement found {found[t]}/{cases}; other earlier statements "
              f"scored as setting it {wrong[t]}")


if __name__ == "__main__":
    asyncio.run(main())
