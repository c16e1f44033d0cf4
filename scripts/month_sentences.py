"""Does the attribute reader read a chat message better when each sentence starts with a
capital letter? People write chat in small letters ("всё, мы переехали в Казань! сняли двушку
на Чистопольской"), and the parser then reads the two sentences as one and loses the move.
Tried in round twenty-four (h/write23) and not shipped: the rule lives here only.

Every statement of the tuning months (one author each; the kept-aside months are never read)
is read by the attribute reader as Wave reads it (``base``), with each sentence after an end
("!", "?", "…", or a full stop after a word of three letters or more) starting with a capital
everywhere (``capital``), and with the capitals tried only when the plain reading finds no
value (``again``), and compared with its writer's labels, per author: a labelled value is
found when a read value has its entity, its attribute (a price by its kind) and holds its
value (the month bench's ``holds``); a read value no label has is extra (not all are wrong: a
writer labels what the month's questions need, not every value said). ``--clauses`` reads a
text read as no value clause by clause instead (split at sentence ends, commas and brackets;
also not shipped) and prints each message it reads differently.

    PYTHONPATH=. HF_HUB_OFFLINE=1 python scripts/month_sentences.py [--show] [tuning_2 ...]
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import re
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from wave_agent.bench.month import holds, load  # noqa: E402
from wave_agent.world import attributes as A  # noqa: E402
from wave_agent.world import read_many  # noqa: E402

MONTHS = ROOT / "bench" / "data" / "month"
_SENTENCE_START = re.compile(r"((?:[!?…]|(?<=[^\W\d_]{3})\.)[.!?…]*[)\]»\s]*\s)"
                             r"([a-zа-яёąćęłńóśźż])")
_CLAUSES = re.compile(r"[.!?…;()\n]+|,")


def capitalised(text: str) -> str:
    """``text`` with each sentence after an end starting with a capital letter."""
    return _SENTENCE_START.sub(lambda m: m.group(1) + m.group(2).upper(), text)


def _base(attribute: str) -> str:
    return "price" if attribute.startswith("price:") else attribute


def _score(found: list[A.Value], sets: list[Any]) -> tuple[int, int, int]:
    labels = [s for s in sets if s.op in ("set", "add", "remove")]
    hit = sum(1 for s in labels if any(
        v.entity == s.entity and _base(v.attribute) == _base(s.attribute)
        and holds(v.value, s.value, s.attribute) for v in found))
    extra = sum(1 for v in found if v.op != "negate" and not any(
        v.entity == s.entity and _base(v.attribute) == _base(s.attribute) for s in sets))
    return hit, len(labels), extra


async def clauses(months: list[str]) -> None:
    """A statement read as no value, read again clause by clause: each message so read
    differently, with its labels, and how many read only labelled entities' attributes."""
    count: collections.Counter[str] = collections.Counter()
    for name in months:
        said = [m for m in load(MONTHS / f"{name}.json").messages if m.kind == "statement"]
        plain = await read_many([A.as_said(m.text) for m in said])
        todo = []
        for m, r in zip(said, plain, strict=True):
            if not A.read_values(m.text, r, ()):
                parts = [p.strip() for p in _CLAUSES.split(A.as_said(m.text))
                         if len(p.strip().split()) >= 2]
                if len(parts) > 1:
                    todo.append((m, parts))
        readings = iter(await read_many([p for _, parts in todo for p in parts]))
        for m, parts in todo:
            found = [v for p in parts for v in A.read_values(p, next(readings), ())]
            if not found:
                continue
            labelled = all(any(v.entity == s.entity and _base(v.attribute) == _base(s.attribute)
                               for s in m.sets) for v in found)
            count["every value labelled" if labelled else "a value no label has"] += 1
            print(f"  {name} {m.id}: {m.text[:90]}\n    {[v.encode() for v in found]}  labels "
                  f"{[(s.entity, s.attribute, s.value, s.op) for s in m.sets]}")
    print("all", dict(count))


async def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("months", nargs="*",
                    default=[f"tuning_{i}" for i in range(2, 22)])
    ap.add_argument("--show", action="store_true", help="print each message read differently")
    ap.add_argument("--clauses", action="store_true",
                    help="read a text read as no value clause by clause instead")
    args = ap.parse_args()
    if args.clauses:
        await clauses(args.months)
        return
    total: dict[str, collections.Counter[str]] = collections.defaultdict(collections.Counter)
    for name in args.months:
        month = load(MONTHS / f"{name}.json")
        said = [m for m in month.messages if m.kind == "statement"]
        got: dict[str, collections.Counter[str]] = {}
        plain = await read_many([A.as_said(m.text) for m in said])
        upper = await read_many([capitalised(A.as_said(m.text)) for m in said])
        for mode in ("base", "capital", "again"):
            count: collections.Counter[str] = collections.Counter()
            values = []
            for m, r, u in zip(said, plain, upper, strict=True):
                first = list(A.read_values(m.text, r, ()))
                cap = list(A.read_values(capitalised(A.as_said(m.text)), u, ()))
                found = first if mode == "base" else cap if mode == "capital" else (first or cap)
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
