"""Every ``negate`` the attribute reader finds in the honest months' messages (a held value
denied: "Рыжика нет", "йогой не занимаюсь"; a class denied: "детей нет"), each message read as
the writer reads it, with the values the month's own labels hold by then; to check that a change
to what a negation governs loses no labelled denial or contradiction and drops only the
unlabelled (issue 30: "даже вязать сил нет" read as denying the held hobby).

    PYTHONPATH=. .venv/bin/python scripts/negations_months.py > before.json
    PYTHONPATH=. .venv/bin/python scripts/negations_months.py --compare before.json

The first form writes, per month, the message ids of statements and small talk with the values
denied, and which are labelled (a label with op ``negate`` of that attribute, or the message
marked a contradiction). The second reads every month again and prints per month the labelled
denials lost, the unlabelled ones gone and any new ones (ids and attribute keys only: no text).
"""

from __future__ import annotations

import asyncio
import json
import sys
from collections.abc import Callable
from pathlib import Path

from wave_agent.bench.month import Message, holds, load
from wave_agent.world import attributes as A
from wave_agent.world import read_many

ROOT = Path(__file__).resolve().parents[1]
MONTHS = ROOT / "bench" / "data" / "month"
# every month written by an author who had not read the code (README: all but ``tuning``)
HONEST = sorted((p.stem for p in MONTHS.glob("tuning_*.json")), key=lambda n: int(n.split("_")[1]))


def held_before(messages: list[Message]) -> list[list[A.Value]]:
    """For each message, the values its month's labels hold before it (as
    ``attribute_reader_eval.held_before``)."""
    held: dict[tuple[str, str], list[A.Value]] = {}
    out = []
    for m in messages:
        out.append([v for vs in held.values() for v in vs])
        for s in m.sets:
            if s.attribute.startswith("other:"):
                continue
            key = (s.entity, s.attribute)
            value = A.Value(s.entity, s.attribute, s.value, "add" if s.op == "add" else "set")
            if s.op == "set":
                held[key] = [value]
            elif s.op == "add":
                held.setdefault(key, []).append(value)
            elif s.op == "remove":
                held[key] = [v for v in held.get(key, []) if not holds(v.value, s.value)]
    return out


def labelled(m: Message, key: str) -> bool:
    attribute = key.split("|")[1].split(":")[0]
    return bool(m.contradicts) or any(
        s.op == "negate" and s.attribute.split(":")[0] == attribute for s in m.sets)


async def month_negations(name: str) -> dict[str, dict[str, bool]]:
    data = load(MONTHS / f"{name}.json")
    before = dict(zip([m.id for m in data.messages], held_before(list(data.messages)),
                      strict=True))
    said = [m for m in data.messages if m.kind in ("statement", "small_talk")]
    readings = await read_many([A.as_said(m.text) for m in said])
    out: dict[str, dict[str, bool]] = {}
    for m, r in zip(said, readings, strict=True):
        keys = sorted({f"{v.key}|{v.value}" for v in A.read_values(m.text, r, before[m.id])
                       if v.op == "negate"})
        if keys:
            out[m.id] = {k: labelled(m, k) for k in keys}
    return out


def compare(now: dict[str, dict[str, dict[str, bool]]], noun: str,
            shown: Callable[[str, str, bool], str]) -> None:
    """Print ``now`` (month -> message -> read key -> labelled?), or with ``--compare FILE`` what
    changed against an earlier run's JSON: labelled ``noun`` lost, unlabelled gone, new ones."""
    if "--compare" not in sys.argv:
        print(json.dumps(now, indent=1, ensure_ascii=False))
        return
    before = json.loads(Path(sys.argv[sys.argv.index("--compare") + 1]).read_text())
    total = {"labelled kept": 0, "labelled lost": 0, "unlabelled kept": 0,
             "unlabelled dropped": 0, "new": 0}
    for name in HONEST:
        was, is_ = before.get(name, {}), now.get(name, {})
        lost, dropped, new = [], [], []
        for mid, keys in was.items():
            for key, label in keys.items():
                gone = key not in is_.get(mid, {})
                kind = "labelled" if label else "unlabelled"
                total[f"{kind} {('lost' if label else 'dropped') if gone else 'kept'}"] += 1
                if gone:
                    (lost if label else dropped).append(shown(mid, key, False))
        for mid, keys in is_.items():
            for key, label in keys.items():
                if key not in was.get(mid, {}):
                    total["new"] += 1
                    new.append(shown(mid, key, label))
        print(f"{name}: labelled {noun} lost {lost or '-'}; unlabelled gone {dropped or '-'}; "
              f"new {new or '-'}")
    print(json.dumps(total))


async def main() -> None:
    now = {name: await month_negations(name) for name in HONEST}
    compare(now, "denials", lambda mid, key, label:
            f"{mid}:{key.rsplit('|', 1)[0]}{' (labelled)' if label else ''}")


if __name__ == "__main__":
    asyncio.run(main())
