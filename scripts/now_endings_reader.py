"""Does the attribute reader read an ending or a denial as one? (round thirty, h/now30)

For every statement of the honest months whose writer labelled it as ending or denying one of
the person's own values (``op`` ``remove`` / ``negate``, entity ``user``), the reader
(``wave_agent.world.attributes.read_values``) is run on the message as the writer would, with
the values the month's labels hold at that moment as ``held``, and the outcome counted:

- ``read as an ending``: a ``remove`` / ``negate`` of the labelled attribute;
- ``read as a value``: the attribute read, but as ``set`` / ``add`` (the polarity lost:
  "с сигаретами покончено" read as smoking);
- ``not read``: nothing of that attribute ("Машину продала": a car named by its class noun,
  not by its make).

No database; the labels stand in for what the writer holds (an upper bound on what the reader
sees: the real writer holds only what it read). Texts are printed only for ``--show`` months.

    PYTHONPATH=. HF_HUB_OFFLINE=1 python scripts/now_endings_reader.py tuning_2 ... [--show tuning_27]
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from wave_agent.bench.month import load  # noqa: E402
from wave_agent.world.attributes import Value, read_values  # noqa: E402
from wave_agent.world.reader import read  # noqa: E402

MONTHS = ROOT / "bench" / "data" / "month"
OUTCOMES = ("read as an ending", "read as a value", "not read")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("months", nargs="+")
    ap.add_argument("--show", nargs="*", default=[])
    a = ap.parse_args()
    total: Counter[str] = Counter()
    by_attribute: dict[str, Counter[str]] = {}
    for name in a.months:
        month = load(MONTHS / f"{name}.json")
        held: dict[tuple[str, str], list[str]] = {}
        here: Counter[str] = Counter()
        for m in month.messages:
            endings = [s for s in m.sets if s.entity == "user" and s.op in ("remove", "negate")]
            if endings and m.kind == "statement":
                values = [Value(e, attr, v, "add") for (e, attr), vs in held.items() for v in vs]
                got = read_values(m.text, read(m.text), values)
                for s in endings:
                    base = s.attribute.split(":")[0]
                    mine = [v for v in got if v.entity == "user"
                            and v.attribute.split(":")[0] == base]
                    outcome = (OUTCOMES[0] if any(v.op in ("remove", "negate") for v in mine)
                               else OUTCOMES[1] if mine else OUTCOMES[2])
                    here[outcome] += 1
                    by_attribute.setdefault(base, Counter())[outcome] += 1
                    if name in a.show:
                        print(f"  [{outcome}] {s.attribute} {s.op} {s.value!r}: {m.text[:100]}"
                              f"  -> {[(v.attribute, v.value, v.op) for v in mine]}")
            for s in m.sets:
                key = (s.entity, s.attribute)
                if s.op == "set":
                    held[key] = [s.value]
                elif s.op == "add":
                    held[key] = [*held.get(key, []), s.value]
                else:
                    held[key] = [v for v in held.get(key, []) if v != s.value]
        total.update(here)
        print(f"{name:<10} " + "  ".join(f"{o}: {here[o]}" for o in OUTCOMES), flush=True)
    print(f"{'all':<10} " + "  ".join(f"{o}: {total[o]}" for o in OUTCOMES))
    for attribute, c in sorted(by_attribute.items(), key=lambda kv: -sum(kv[1].values())):
        print(f"  {attribute:<12} " + "  ".join(f"{o}: {c[o]}" for o in OUTCOMES))


if __name__ == "__main__":
    main()
