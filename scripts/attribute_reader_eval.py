"""The attribute reader (``wave_agent.world.attributes.read_values``) scored on its own against
the months' labels: every labelled statement of every honest month (``tuning_2`` ..
``tuning_24``, one author each; ``tuning.json`` was written with Wave's code and the kept-aside
months are never read) is read as Wave reads a message, and what it reads is compared with the
message's ``sets``.

Two readings of each message: the text alone (``alone``), and with the values the person holds
by then (``held``: every earlier labelled ``set`` / ``add`` of the month, less what a later
``set`` replaced or a ``remove`` ended), as the writer would have them when the records before
were stored right.

Scoring (a label with an ``other:*`` attribute is out of the reader's scope and counted apart):

- a label is **read** when a read value has its entity (equal, or the same name by the loose
  match below; a relative the reader names ``role:<role>`` matches a label naming that role),
  its attribute (a price by its kind: ``price:rent`` and ``price:аренда`` are both ``price``)
  and its value by a **loose surface match**: the month bench's own ``holds`` either way round
  (case, ё, word forms by lemma or stem, a phone by its digits, a price by its amounts, a name
  in the other alphabet), or, for a value that is not a number, a word of each sharing its
  first six letters (all but the last two of a shorter word): "пескетарианство" reads the label
  "пескетарианка"; a label with op ``negate`` is also read by a negation of the whole
  attribute (``*``). Its op is right when the read op is the label's (``set`` and ``add`` are
  one op for this: they differ only by the attribute being single- or many-valued).
- **under another attribute**: the label's value read (same entity, value matched) but under
  another attribute: the class that leaves an old record active in the month bench.
- a read value is **right** when it reads a label of its message as above; **another
  attribute** when it holds a label's value under another attribute; **unlabelled** when no
  label of its message holds its value (not all are wrong: an author labels what the month's
  questions need, not every value said). Precision is right / all read.
- a **change** is a labelled ``set`` of a single-valued attribute whose entity already held
  another value of it in the month's labels, or a ``remove``: what the month bench scores as
  "changes applied"; its recall is given apart.

    PYTHONPATH=. HF_HUB_OFFLINE=1 python scripts/attribute_reader_eval.py [--json OUT]
        [--misses FILE] [--learned OOF.npz [--takes city=0.9]] [tuning_2 ...]
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import json
import sys
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from graph.models import EntityType  # noqa: E402
from wave_agent.bench.month import Message, Setting, holds, load  # noqa: E402
from wave_agent.world import attributes as A  # noqa: E402
from wave_agent.world import read_many  # noqa: E402

sys.path.insert(0, str(ROOT / "scripts"))
import statement_attributes_head as SA  # noqa: E402

MONTHS = ROOT / "bench" / "data" / "month"
HONEST = [f"tuning_{i}" for i in range(2, 25)]

Reader = Callable[[str, Message, Any, Sequence[A.Value]], Sequence[A.Value]]


def base(attribute: str) -> str:
    return "price" if attribute.startswith("price") else attribute


def same_entity(read: str, label: str) -> bool:
    if read == label:
        return True
    if "user" in (read, label):
        return False
    if read.startswith("role:"):
        role = read.split(":", 1)[1]
        return holds(label, role) or holds(role, label)
    return holds(read, label) or holds(label, read)


def _stem_alike(a: str, b: str) -> bool:
    """One word of each sharing its first six letters, or all but the last two of the shorter
    ("пескетарианка" / "пескетарианство", "Питер" / "питерский"): a diet, a job or a place
    named by another word of the same root."""
    for x in a.lower().replace("ё", "е").split():
        for y in b.lower().replace("ё", "е").split():
            n = min(len(x), len(y))
            if n >= 4 and x[:max(min(6, n), n - 2)] == y[:max(min(6, n), n - 2)]:
                return True
    return False


def same_value(read: A.Value, label: Setting) -> bool:
    """The loose surface match: ``holds`` either way round, or a shared stem."""
    if read.value == A.ANY:
        return label.op == "negate" and read.op == "negate"
    if label.attribute == "phone" or label.attribute.startswith("price") or label.attribute == "age":
        return holds(read.value, label.value, label.attribute)
    return holds(read.value, label.value, label.attribute) or holds(
        label.value, read.value, label.attribute) or _stem_alike(read.value, label.value)


def same_op(read: str, label: str) -> bool:
    grown = {"set": "set", "add": "set"}
    return grown.get(read, read) == grown.get(label, label)


@dataclass
class Tally:
    labels: int = 0
    read: int = 0
    op_right: int = 0
    other_attribute: int = 0
    values: int = 0
    right: int = 0
    wrong_attribute: int = 0
    unlabelled: int = 0
    changes: int = 0
    changes_read: int = 0
    changes_other_attribute: int = 0

    def add(self, other: Tally) -> None:
        for k in self.__dataclass_fields__:
            setattr(self, k, getattr(self, k) + getattr(other, k))

    def figures(self) -> dict[str, Any]:
        def pct(a: int, b: int) -> float | None:
            return round(100 * a / b, 1) if b else None
        return {**{k: getattr(self, k) for k in self.__dataclass_fields__},
                "recall": pct(self.read, self.labels),
                "op_right_of_read": pct(self.op_right, self.read),
                "precision": pct(self.right, self.values),
                "change_recall": pct(self.changes_read, self.changes)}


@dataclass
class Scores:
    total: Tally = field(default_factory=Tally)
    by: dict[str, dict[str, Tally]] = field(
        default_factory=lambda: collections.defaultdict(lambda: collections.defaultdict(Tally)))
    out_of_scope: int = 0
    misses: list[dict[str, Any]] = field(default_factory=list)

    def count(self, keys: dict[str, str], t: Tally) -> None:
        self.total.add(t)
        for dim, key in keys.items():
            self.by[dim][key].add(t)

    def figures(self) -> dict[str, Any]:
        return {"total": self.total.figures(), "out_of_scope_labels": self.out_of_scope,
                "by": {dim: {k: v.figures() for k, v in sorted(d.items())}
                       for dim, d in self.by.items()}}


def held_before(messages: Sequence[Message]) -> list[list[A.Value]]:
    """For each message, the values its month's labels hold before it."""
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


def changes_of(messages: Sequence[Message]) -> set[tuple[str, int]]:
    """(message id, label index) of each labelled change."""
    seen: dict[tuple[str, str], str] = {}
    out = set()
    for m in messages:
        for i, s in enumerate(m.sets):
            key = (s.entity, s.attribute)
            if s.op == "remove":
                out.add((m.id, i))
            elif s.op == "set" and A.single_valued(s.attribute):
                if key in seen and not holds(seen[key], s.value, s.attribute):
                    out.add((m.id, i))
                seen[key] = s.value
    return out


def score_message(month: str, m: Message, found: Sequence[A.Value],
                  changes: set[tuple[str, int]], scores: Scores) -> None:
    labels = [(i, s) for i, s in enumerate(m.sets) if not s.attribute.startswith("other:")]
    scores.out_of_scope += len(m.sets) - len(labels)
    for i, s in labels:
        t = Tally(labels=1)
        same = [v for v in found if same_entity(v.entity, s.entity) and same_value(v, s)]
        right = [v for v in same if base(v.attribute) == base(s.attribute)]
        t.read = int(bool(right))
        t.op_right = int(any(same_op(v.op, s.op) for v in right))
        t.other_attribute = int(not right and bool(same))
        if (m.id, i) in changes:
            t.changes, t.changes_read = 1, t.read
            t.changes_other_attribute = t.other_attribute
        scores.count({"attribute": base(s.attribute), "op": s.op, "lang": m.lang,
                      "month": month}, t)
        if not right:
            scores.misses.append({
                "month": month, "id": m.id, "lang": m.lang, "text": m.text,
                "label": [s.entity, s.attribute, s.value, s.op],
                "change": (m.id, i) in changes,
                "read": [v.encode() for v in found],
                "class": "another attribute" if same else "not read"})
    for v in found:
        t = Tally(values=1)
        holding = [s for _, s in labels if same_entity(v.entity, s.entity) and same_value(v, s)]
        if any(base(s.attribute) == base(v.attribute) for s in holding):
            t.right = 1
        elif holding:
            t.wrong_attribute = 1
        else:
            t.unlabelled = 1
        scores.count({"attribute": base(v.attribute), "op": v.op, "lang": m.lang,
                      "month": month}, t)


def shipped(month: str, m: Message, reading: Any, held: Sequence[A.Value]) -> Sequence[A.Value]:
    return A.read_values(m.text, reading, held)


def _out_of_fold(oof: Path) -> dict[tuple[str, str], dict[str, float]]:
    data = np.load(oof)
    names = [str(a) for a in data["attributes"]]
    return {(str(mo), str(i)): dict(zip(names, map(float, p), strict=True))
            for mo, i, p in zip(data["months"], data["ids"], data["p"], strict=True)}


def gated(oof: Path, show: bool = False) -> Reader:
    """The shipped reader with the gate tried (``statement_attributes_head.kept``) and each
    month's probabilities from heads trained without that month: what a new author meets."""
    sure = _out_of_fold(oof)

    def read(month: str, m: Message, reading: Any, held: Sequence[A.Value]) -> Sequence[A.Value]:
        found = A.read_values(m.text, reading, held)
        out = SA.kept(found, sure.get((month, m.id), {}))
        if show and len(out) < len(found):
            print(f"  gated {month} {m.id}: {[v.encode() for v in found if v not in out]}: "
                  f"{m.text[:100]}")
        return out
    return read


def learned(oof: Path, takes: dict[str, tuple[Any, float]], show: bool = False) -> Reader:
    """The shipped rules, then the learned head's values (``statement_attributes_head.
    with_learned``, tried and not shipped) with each month's
    probabilities from heads trained without that month (``train_statement_attributes.py
    --oof``): the reader a new author would meet."""
    sure = _out_of_fold(oof)

    def read(month: str, m: Message, reading: Any, held: Sequence[A.Value]) -> Sequence[A.Value]:
        found = A.read_values(m.text, reading, held)
        out = SA.with_learned(m.text, reading, found, sure.get((month, m.id), {}), takes, held)
        if show and len(out) > len(found):
            labels = [(s.entity, s.attribute, s.value) for s in m.sets]
            print(f"  learned {month} {m.id}: {[v.encode() for v in out[len(found):]]} "
                  f"labels {labels}: {m.text[:100]}")
        return out
    return read


async def evaluate(months: Iterable[str], readers: dict[str, Reader]) -> dict[str, Scores]:
    out = {name: Scores() for name in readers}
    for month in months:
        data = load(MONTHS / f"{month}.json")
        said = [m for m in data.messages if m.kind == "statement"]
        before = dict(zip([m.id for m in data.messages], held_before(data.messages),
                          strict=True))
        changes = changes_of(data.messages)
        readings = await read_many([A.as_said(m.text) for m in said])
        for name, reader in readers.items():
            for m, r in zip(said, readings, strict=True):
                held = before[m.id] if name.endswith("held") else []
                score_message(month, m, list(reader(month, m, r, held)), changes, out[name])
    return out


def table(figures: dict[str, Any], dim: str) -> str:
    rows = [f"| {dim} | labels | read | recall | under another attribute | op right | "
            "values read | precision | unlabelled | changes read |", "|" + "---|" * 10]
    for key, f in figures["by"][dim].items():
        rows.append(f"| {key} | {f['labels']} | {f['read']} | {f['recall']} | "
                    f"{f['other_attribute']} | {f['op_right_of_read']} | {f['values']} | "
                    f"{f['precision']} | {f['unlabelled']} | "
                    f"{f['changes_read']}/{f['changes']} |")
    return "\n".join(rows)


async def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("months", nargs="*", default=HONEST)
    ap.add_argument("--json", type=Path, help="write every figure as JSON here")
    ap.add_argument("--misses", type=Path, help="write each label not read (JSON lines)")
    ap.add_argument("--tables", default="lang,attribute,op,month")
    ap.add_argument("--learned", type=Path,
                    help="out-of-fold probabilities (train_statement_attributes.py --oof): "
                         "also score the shipped gate and the tried fill, held out by month")
    ap.add_argument("--show", action="store_true", help="print each value the head adds")
    ap.add_argument("--takes", default="",
                    help="attribute=threshold,... in place of the shipped TAKES thresholds")
    args = ap.parse_args()
    readers: dict[str, Reader] = {"alone": shipped, "held": shipped}
    if args.learned:
        readers["gated held"] = gated(args.learned, args.show)
        takes = dict(SA.TAKES)
        for item in filter(None, args.takes.split(",")):
            attribute, threshold = item.split("=")
            kind = (SA.TAKES[attribute][0] if attribute in SA.TAKES else
                    A.kind_of_value(attribute) or EntityType.PERSON)
            takes[attribute] = (kind, float(threshold))
        readers["learned held"] = learned(args.learned, takes, args.show)
    scores = await evaluate(args.months, readers)
    out = {name: s.figures() for name, s in scores.items()}
    for name, f in out.items():
        print(f"## {name}: {json.dumps(f['total'])}, out of scope {f['out_of_scope_labels']}")
        for dim in args.tables.split(","):
            print(table(f, dim) + "\n")
    if args.json:
        args.json.write_text(json.dumps(out, ensure_ascii=False, indent=1))
    if args.misses:
        with args.misses.open("w") as fh:
            for miss in scores["learned held" if args.learned else "held"].misses:
                fh.write(json.dumps(miss, ensure_ascii=False) + "\n")


if __name__ == "__main__":
    asyncio.run(main())
