"""How the attribute reader holds a workplace's name against the month's labelled value (round
thirty, h/employer30): over the honest months (``tuning_2`` .. ``tuning_28`` and ``tuning_31``;
``tuning_29`` / ``tuning_30`` are held out and never read here), every statement labelled with
an ``employer`` value (``school`` / studio labels are counted too, though the reader holds no such
attribute) is read as the writer reads it (the world reader, then ``read_values`` with the
month's labelled values held so far), and each employer value the reader gives is put in one of:

- ``as labelled``: the labelled value, up to case and ``ё``;
- ``oblique or cut``: the labelled firm with another ending ("Озоне", "Сбере" for Озон, Сбер):
  the same stem, or the label is pymorphy's nominative of the word;
- ``other``: another value (a wrong firm, a person, a role);
- and ``missed`` when the reader gives no employer value for a labelled one.

``--before`` reads without the nominative (``workplace_nominative`` as the identity), the code
before this round. Pure CPU, a minute or two::

    PYTHONPATH=$PWD HF_HUB_OFFLINE=1 python scripts/employer_cases_months.py [--before] [--list]
"""

from __future__ import annotations

import argparse
import json
from collections import Counter
from pathlib import Path

from wave_agent.world import attributes as A
from wave_agent.world.oblique import oblique_nominative
from wave_agent.world.reader import read_batch

HONEST = [f"tuning_{n}" for n in range(2, 29)] + ["tuning_31"]
WORKPLACES = ("employer", "other:school", "other:music_school", "other:ceramics_studio",
              "other:kindergarten", "other:workplace", "other:company")


def _norm(text: str) -> str:
    return A._norm(text)


def kind_of(found: str, label: str) -> str:
    if _norm(found) == _norm(label):
        return "as labelled"
    if A.same_value(found, label) or _norm(oblique_nominative(found)) == _norm(label):
        return "oblique or cut"
    return "other"


def month(path: Path, listing: bool) -> Counter[str]:
    raw = json.loads(path.read_text(encoding="utf-8"))
    msgs = [m for m in raw["messages"] if m.get("kind") == "statement"]
    readings = read_batch([A.as_said(m["text"]) for m in msgs])
    held: list[A.Value] = []
    tally: Counter[str] = Counter()
    for m, reading in zip(msgs, readings, strict=True):
        labels = [s for s in m.get("sets", ()) if s.get("attribute") in WORKPLACES
                  and s.get("entity") == "user" and s.get("op") in ("set", "add", "remove")]
        found = [v for v in A.read_values(m["text"], reading, held)
                 if v.attribute == "employer" and v.entity == A.USER]
        for label in labels:
            if label["attribute"] != "employer":
                tally[f"{label['attribute']} labelled (not read)"] += 1
                continue
            tally["employer labelled"] += 1
            kinds = [kind_of(v.value, label["value"]) for v in found]
            best = next((k for k in ("as labelled", "oblique or cut", "other") if k in kinds),
                        "missed")
            tally[best] += 1
            if listing and best in ("oblique or cut", "other"):
                said = ", ".join(v.value for v in found)
                print(f"  {path.stem} {m['id']}: {best}: {said!r} for {label['value']!r}: "
                      f"{m['text'][:90]}")
        for s in m.get("sets", ()):
            if s.get("op") in A.OPS and s.get("entity") and s.get("value"):
                held.append(A.Value(s["entity"], s["attribute"], str(s["value"]), s["op"]))
    return tally


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--before", action="store_true",
                        help="read without the nominative (the code before h/employer30)")
    parser.add_argument("--list", action="store_true", help="print each oblique / other value")
    args = parser.parse_args()
    if args.before:
        A.workplace_nominative = lambda text, name: name  # type: ignore[assignment]
    root = Path(__file__).resolve().parent.parent / "bench" / "data" / "month"
    total: Counter[str] = Counter()
    for name in HONEST:
        tally = month(root / f"{name}.json", args.list)
        total.update(tally)
        print(f"{name}: " + ", ".join(f"{k} {v}" for k, v in sorted(tally.items())), flush=True)
    print("all: " + ", ".join(f"{k} {v}" for k, v in sorted(total.items())))


if __name__ == "__main__":
    main()
