"""Does the attribute reader read a chat message better when each sentence starts with a
capital letter? People write chat in small letters ("всё, мы переехали в Казань! сняли двушку
на Чистопольской"), and the parser then reads the two sentences as one and loses the move.

Every statement of the tuning months (one author each; the kept-aside months are never read)
is read by the attribute reader as it was read before (``base``: ``read_values(...,
again=False)``), with each sentence's first letter made a capital everywhere (``capital``,
tried, not shipped) and as Wave reads it now (``again``: read again with the capitals only
when the plain reading finds no value), and compared with its writer's labels, per author:
a labelled value is found when a read value has its entity, its attribute (a price by its kind)
and holds its value (the month bench's ``holds``); a read value no label has is extra (not
all are wrong: a writer labels what the month's questions need, not every value said).

    PYTHONPATH=. HF_HUB_OFFLINE=1 python scripts/month_sentences.py [tuning_2 tuning_3 ...]
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from wave_agent.bench.month import holds, load  # noqa: E402
from wave_agent.world import attributes as A  # noqa: E402
from wave_agent.world import read_many  # noqa: E402

MONTHS = ROOT / "bench" / "data" / "month"


def _base(attribute: str) -> str:
    return "price" if attribute.startswith("price:") else attribute


def _score(found: list[A.Value], sets: list[object]) -> tuple[int, int, int]:
    labels = [s for s in sets if s.op in ("set", "add", "remove")]  # type: ignore[attr-defined]
    hit = sum(1 for s in labels if any(
        v.entity == s.entity and _base(v.attribute) == _base(s.attribute)  # type: ignore[attr-defined]
        and holds(v.value, s.value, s.attribute) for v in found))  # type: ignore[attr-defined]
    extra = sum(1 for v in found if v.op != "negate" and not any(
        v.entity == s.entity and _base(v.attribute) == _base(s.attribute)  # type: ignore[attr-defined]
        for s in sets))
    return hit, len(labels), extra


async def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("months", nargs="*",
                    default=[f"tuning_{i}" for i in range(2, 22)])
    ap.add_argument("--show", action="store_true", help="print each message read differently")
    args = ap.parse_args()
    total: dict[str, collections.Counter[str]] = collections.defaultdict(collections.Counter)
    for name in args.months:
        month = load(MONTHS / f"{name}.json")
        said = [m for m in month.messages if m.kind == "statement"]
        got: dict[str, collections.Counter[str]] = {}
        plain = await read_many([A.as_said(m.text) for m in said])
        upper = await read_many([A.capitalised(A.as_said(m.text)) for m in said])
        for mode in ("base", "capital", "again"):
            count: collections.Counter[str] = collections.Counter()
            values = []
            for m, r, u in zip(said, plain, upper, strict=True):
                found = list(
                    A.read_values(m.text, r, (), again=False) if mode == "base" else
                    A.read_values(A.capitalised(A.as_said(m.text)), u, (), again=False)
                    if mode == "capital" else A.read_values(m.text, r, ()))
                values.append(found)
                hit, of, extra = _score(found, list(m.sets))
                count["found"] += hit
                count["labelled"] += of
                count["extra"] += extra
            got[mode] = count
            total[mode] += count
            if mode == "base":
                before = values
            if args.show and mode != "base":
                for m, a, b in zip(said, before, values, strict=True):
                    if {v.encode() for v in a} != {v.encode() for v in b}:
                        print(f"  {mode} {name} {m.id}: {m.text[:90]}\n    base "
                              f"{[v.encode() for v in a]}\n    {mode} {[v.encode() for v in b]}")
        print(name, {k: dict(v) for k, v in got.items()})
    print("all", {k: dict(v) for k, v in total.items()})


if __name__ == "__main__":
    asyncio.run(main())
