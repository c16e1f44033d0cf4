"""Every labelled unmarked contradiction of the honest months, put in a class by where the
attribute step loses it (issue 30: "contradictions raised >= 80% on a new author's month").

Each month's statements and small talk are read in order as the writer's attribute step reads
them (``attributes.read`` with the values the simulated graph holds, then ``attributes.decide``;
a replaced record leaves the held values, the values it held besides go with the new one), one record per message
(the chat door may cut a message into pieces; the replay is what the bench counts). For each
message its writer labelled a contradiction (``contradicts``: the earlier message) the script
says whether the step raised one, and if not, why, by the first of:

- ``later not read``: the contradicting message states no value of the labelled attribute;
- ``earlier never held: <attribute>``: no record before it holds a value of that attribute
  (of anyone) that the later value could meet (a child named without a kin word, a birthplace,
  a relative's city ...; the attribute is the label's);
- ``held, then replaced``: the earlier message's value was read, and gone before the later one;
- ``held under another entity``: a value of the attribute is held, but of another holder than
  the one the later statement speaks of (or the reverse);
- ``both held, not compared: <why>``: the same key on both sides; ``decide`` reads a change
  (a single-valued set) or an addition, or the values are not the same one denied;
- with ``--runs DIR`` (``scripts/month_runs.sh`` output, ``<tag>-<month>.json``) the replay's
  own verdict (a ``contradiction not raised`` miss) is printed beside it.

    PYTHONPATH=. python scripts/contradictions_months.py [--runs DIR] [--months tuning_2,...]
        [--texts tuning_27]

Prints one line per labelled contradiction (month, message id, class: no text, unless the
month is named in ``--texts``) and the totals by class as JSON.
"""

from __future__ import annotations

import asyncio
import json
import sys
from collections import Counter
from dataclasses import dataclass, replace
from datetime import datetime
from pathlib import Path

from graph.models import Fact, FactType, Status, Tier, Veracity
from wave_agent.bench.month import Message, load
from wave_agent.world import attributes as A
from wave_agent.world import read_many
from wave_agent.write import attributes as W

ROOT = Path(__file__).resolve().parents[1]
MONTHS = ROOT / "bench" / "data" / "month"
HONEST = sorted((p.stem for p in MONTHS.glob("tuning_*.json")), key=lambda n: int(n.split("_")[1]))


def _arg(name: str) -> str | None:
    return sys.argv[sys.argv.index(name) + 1] if name in sys.argv else None


def _fact(m: Message, values: tuple[A.Value, ...]) -> Fact:
    at = m.at if isinstance(m.at, datetime) else datetime.fromisoformat(str(m.at))
    return Fact(id=m.id, user_id="u", text=m.text, type=FactType.EVENT, tier=Tier.OBSERVATION,
                status=Status.ACTIVE, veracity=Veracity.STATED, confidence=1.0, created_at=at,
                last_confirmed_at=at, attributes=tuple(v.encode() for v in values))


@dataclass
class Step:
    values: tuple[A.Value, ...]
    contradicted: list[str]           # message ids of the records a conflict was raised with
    held_then: list[Fact]             # the active records when it was read


def _base(attribute: str) -> str:
    return attribute.split(":")[0] if not attribute.startswith("other:") else attribute


async def replay(name: str) -> tuple[list[Message], dict[str, Step], dict[str, Fact]]:
    data = load(MONTHS / f"{name}.json")
    said = [m for m in data.messages if m.kind in ("statement", "small_talk")]
    readings = await read_many([A.as_said(m.text) for m in said])
    active: dict[str, Fact] = {}
    ever: dict[str, Fact] = {}
    steps: dict[str, Step] = {}
    for m, reading in zip(said, readings, strict=True):
        facts = list(active.values())
        held = W.held_values(facts)
        values = A.read_values(m.text, reading, [h.value for h in held])
        fact = _fact(m, values)
        decision = W.decide(values, held, fact.id, W.held_values(facts, ops=("negate",)),
                            changed=W.marks_change(m.text), at=fact.created_at,
                            birthday=W.says_birthday(m.text), news=W.tells_news(m.text),
                            again=W.only_again(m.text), found_out=W.finds_out(m.text),
                            past=W.held_values([f for f in ever.values() if f.id not in active]),
                            ever=W.denies_ever(m.text),
                            ended=W.held_values(facts, ops=("remove",)),
                            moved=W.tells_move(m.text))
        steps[m.id] = Step(values, [f.id for f, _ in decision.contradicts], facts)
        for old in decision.replaces:
            active.pop(old.id, None)
        for fid, keep in decision.released.items():
            if fid in active:
                active[fid] = replace(active[fid], attributes=tuple(keep))
        if decision.carried:  # the replaced record's other values go with the new one
            fact = replace(fact, attributes=(*fact.attributes, *(
                c for c in decision.carried if c not in fact.attributes)))
        if fact.attributes:
            active[fact.id] = fact
            ever[fact.id] = fact
    return list(data.messages), steps, ever


def _values(fact: Fact) -> list[A.Value]:
    return [v for v in (A.Value.decode(r) for r in fact.attributes) if v is not None]


def classify(m: Message, steps: dict[str, Step], ever: dict[str, Fact]) -> str:
    step = steps.get(m.id)
    if step is None:
        return "not a statement"
    if step.contradicted:
        return "raised"
    labels = [s for s in m.sets] or []
    bases = {_base(s.attribute) for s in labels}
    later = [v for v in step.values if _base(v.attribute) in bases]
    if not later:
        return "later not read: " + ",".join(sorted(bases))
    held = [(f, v) for f in step.held_then for v in _values(f)
            if _base(v.attribute) in bases and v.op in ("set", "add", "negate")]
    if not held:
        earlier = ever.get(m.contradicts or "")
        if earlier is not None and any(_base(v.attribute) in bases for v in _values(earlier)):
            return "held, then replaced"
        return "earlier never held: " + ",".join(sorted(bases))
    keys = {v.key for v in later}
    same = [(f, v) for f, v in held if v.key in keys]
    if not same:
        return "held under another entity"
    ops = sorted({v.op for v in later})
    single = any(A.single_valued(v.attribute) for v in later)
    if "negate" in ops:
        why = "the value denied is another one"
    elif single:
        why = "a new value of a single-valued attribute (read as a change)"
    else:
        why = "another value added"
    return "both held, not compared: " + why


def replay_misses(runs: Path, name: str) -> set[str] | None:
    found = sorted(runs.glob(f"*-{name}.json"))
    if not found:
        return None
    data = json.loads(found[-1].read_text())
    misses = data.get("misses", []) if isinstance(data, dict) else data
    return {str(x.get("message")) for x in misses if isinstance(x, dict)
            and x.get("kind", x.get("what")) == "contradiction not raised"}


async def main() -> None:
    months = (_arg("--months") or ",".join(HONEST)).split(",")
    texts = set((_arg("--texts") or "").split(","))
    runs_at = _arg("--runs")
    runs = Path(runs_at) if runs_at else None
    total: Counter[str] = Counter()
    by_month: dict[str, Counter[str]] = {}
    for name in months:
        messages, steps, ever = await replay(name)
        by_id = {m.id: m for m in messages}
        missed = replay_misses(runs, name) if runs else None
        by_month[name] = Counter()
        for m in messages:
            step = steps.get(m.id)
            if not m.contradicts and step is not None and step.contradicted:
                keys = sorted({v.key.split("|")[1] for v in step.values})
                total["raised on no labelled contradiction"] += 1
                print(f"{name} {m.id}: raised on no labelled contradiction ({','.join(keys)})")
            if not m.contradicts:
                continue
            cls = classify(m, steps, ever)
            total[cls] += 1
            by_month[name]["raised" if cls == "raised" else "not raised"] += 1
            line = f"{name} {m.id} -> {m.contradicts}: {cls}"
            if missed is not None:
                line += f" | replay: {'not raised' if m.id in missed else 'raised'}"
            if name in texts:
                line += f"\n    {m.text}\n    earlier: {by_id[m.contradicts].text}"
            print(line)
    print(json.dumps({"total": dict(total.most_common()),
                      "by month": {k: dict(v) for k, v in by_month.items()}},
                     ensure_ascii=False, indent=1))


if __name__ == "__main__":
    asyncio.run(main())
