"""What sits first when a question about now does not get its current value first (or a history
question its old value in the first 5): each such miss of ``wave bench month --misses --json``
put to one class by the record recall put first, counted by the question's language.

Classes, the first that fits:

- ``not stored``: the bench's cause ``current not stored`` (no record in force holds the value:
  the write side's miss, counted only);
- ``read as past``: the history preset put the replaced record first;
- ``stale, old active``: the first record holds a stale value and a record holding only a
  stale value is still in force (the bench's ``old still active``: the change was not applied);
  ``stale value`` otherwise;
- ``small talk``: the first record comes from a message labelled small talk;
- ``another slot``: from a statement that sets another attribute or entity;
- ``other statement``: from a statement that sets nothing labelled (or a question, a paste);
- ``unmatched``: no message of the month matches the record.

Across them, ``same-language pull``: the first record's message is in the question's language
and the message that set the expected value is not.

    PYTHONPATH=. python scripts/month_above.py OUT.json [OUT.json ...] [--show]
"""

from __future__ import annotations

import argparse
import collections
import json
import re
from pathlib import Path
from typing import Any

from wave_agent.bench.month import holds

DATA = Path(__file__).resolve().parents[1] / "bench" / "data" / "month"
_WORD = re.compile(r"\w+", re.UNICODE)


def words(text: str) -> set[str]:
    return {w.lower() for w in _WORD.findall(text) if len(w) > 2}


def message_of(text: str, messages: list[dict[str, Any]]) -> dict[str, Any] | None:
    """The month's message a record comes from: the most of the record's words it holds."""
    mine = words(text)
    if not mine:
        return None
    best, share = None, 0.0
    for m in messages:
        s = len(mine & words(m["text"])) / len(mine)
        if s > share:
            best, share = m, s
    return best if share >= 0.6 else None


def classify(miss: dict[str, Any], q: dict[str, Any], messages: list[dict[str, Any]]
             ) -> tuple[str, bool]:
    """The class of a miss and whether the first record is a same-language pull."""
    top = miss.get("top") or []
    if miss.get("cause") == "current not stored":
        return "not stored", False
    if miss.get("cause") == "read as past":
        return "read as past", False
    if not top:
        return "nothing found", False
    first = top[0]
    m = message_of(first, messages)
    setter = next((x for x in reversed(messages) if any(
        s.get("entity") == q.get("entity") and s.get("attribute") == q.get("attribute")
        and holds(x["text"], q["expect"], q.get("attribute")) for s in x["sets"])), None)
    pull = bool(m and setter and m["lang"] == q["lang"] and setter["lang"] != q["lang"])
    if any(holds(first, s, q.get("attribute")) for s in q.get("stale") or []):
        return ("stale, old active" if miss.get("cause") == "old still active"
                else "stale value"), pull
    if m is None:
        return "unmatched", pull
    if m["kind"] == "small_talk":
        return "small talk", pull
    if m["kind"] == "statement" and m["sets"]:
        return "another slot", pull
    return "other statement", pull


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("runs", nargs="+", type=Path)
    parser.add_argument("--kinds", default="current", help="current,history")
    parser.add_argument("--show", action="store_true", help="print each miss (texts)")
    args = parser.parse_args()
    kinds = set(args.kinds.split(","))
    counts: collections.Counter[tuple[str, str, str]] = collections.Counter()
    pulls: collections.Counter[tuple[str, str]] = collections.Counter()
    asked: collections.Counter[tuple[str, str]] = collections.Counter()
    for path in args.runs:
        out = json.loads(path.read_text(encoding="utf-8"))
        for r in out if isinstance(out, list) else [out]:
            part = r.get("part") or r.get("name") or path.stem
            month = json.loads((DATA / f"{part}.json").read_text(encoding="utf-8"))
            questions = {q["id"]: q for c in month["checkpoints"] for q in c["questions"]}
            for q in questions.values():
                asked[(q["kind"], q["lang"])] += 1
            for miss in r["misses"]:
                kind = miss["what"].removesuffix(" question")
                if kind not in kinds or miss.get("question") not in questions:
                    continue
                q = questions[miss["question"]]
                cls, pull = classify(miss, q, month["messages"])
                counts[(kind, q["lang"], cls)] += 1
                if pull:
                    pulls[(kind, q["lang"])] += 1
                if args.show:
                    print(f"{part} {q['lang']} {cls}{' PULL' if pull else ''}: {q['text']} "
                          f"-> {q['expect']} | first: {(miss.get('top') or [''])[0][:90]}")
    for kind in sorted(kinds):
        print(f"\n{kind} questions missed, by the first record's class and question language:")
        langs = sorted({lang for k, lang in asked if k == kind})
        classes = sorted({c for k, _, c in counts if k == kind})
        print(f"  {'class':18s}" + "".join(f"{lang:>8s}" for lang in langs))
        for c in classes:
            print(f"  {c:18s}" + "".join(f"{counts[(kind, lang, c)]:8d}" for lang in langs))
        print(f"  {'same-lang pull':18s}" + "".join(f"{pulls[(kind, lang)]:8d}" for lang in langs))
        print(f"  {'asked':18s}" + "".join(f"{asked[(kind, lang)]:8d}" for lang in langs))


if __name__ == "__main__":
    main()
