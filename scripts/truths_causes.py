"""Where supersession failed, for every change the month bench counts as not applied (and among
them every "two active truths"), from what the writer stored on the records: issue 30's first
count of the causes over all honest months.

Input: ``wave bench month --misses --json --out FILE`` runs made since the bench writes, with each
"change not applied" miss, the attribute values the writer stored (``Fact.attributes``,
"entity|attribute|value|op") on the records still holding the old value (``old_attributes``),
on the active records holding the new one (``new_attributes``) and on every record of the
message (``said_attributes``). The months are replayed by ``scripts/month_runs.sh``.

Each miss goes to the first class that fits:

- ``no slot``: the label's attribute is ``other:*`` (a school, a team's size, a therapist's
  name): out of the reader's scope, so never superseded by an attribute;
- ``new value not stored``: no active record holds the new value (a set or an add);
  ``held in quarantine`` when its records were quarantined (runs that write ``said_status``);
  ``statement lost`` when the message left no active or superseded record; ``read, its record not active``
  when its record carries the value but is no longer active at the day's end (superseded by a
  later message of the day, or held); ``kept, not read`` when the message left a record that
  carries no value of the attribute and names the value in no words the bench matches; with
  ``said_status``, a record read with the value and active whose words the bench's surface match
  does not find the label's value in is ``read and active, the bench's words miss it`` (a judge
  artefact, not a supersession failure); without it ``read, its record not active or not named``;
- ``new not read``: the message's records carry no value of the labelled attribute for the
  labelled entity; split by what they carry instead: ``nothing`` (no attribute value at all),
  ``under another attribute`` (the labelled value, loosely matched, under another attribute of
  the entity), ``under another entity`` (the value or the attribute, someone else's), or
  ``other values`` (values of other attributes only);
- ``read, old record not an attribute record``: the new value read as the labelled attribute,
  the record still holding the old value carries no value of the attribute for that entity
  (nothing to retire: it carries no value at all, or only values of other attributes);
- ``read, old under another entity``: the old record carries the attribute under another entity
  name (a different entity resolution: "сестра" on one, "Оля" on the other);
- ``read, list-valued``: both carry the attribute, but it is one the writer holds many values of
  (``add``: pets, hobbies, ...) while the label sets one;
- ``read, value match thought them the same``: both carry it, single-valued, and the writer's
  ``same_value`` takes the old and the new value for one;
- ``read, same key, kept``: both carry it, single-valued, the values differ, and the old record
  stays all the same (a contradiction the writer asked about, someone else's value said with no
  news, an age or a birthday judged as a contradiction, or a record written after);
- for an ending (``remove``): ``ending not read`` when no record of the message carries a
  ``remove`` / ``negate`` of the attribute, else ``ending read, old kept``.

Every class is also counted by attribute, whose (the person / someone else), language, and for
the two-active-truths subset alone.

    PYTHONPATH=. python scripts/truths_causes.py /tmp/truths26/base-*.json [--show]
"""

from __future__ import annotations

import argparse
import collections
import json
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

from attribute_reader_eval import _stem_alike, same_entity  # noqa: E402

from wave_agent.bench.month import holds, load  # noqa: E402
from wave_agent.world.attributes import MULTI, Value, same_value, single_valued  # noqa: E402

MONTHS = ROOT / "bench" / "data" / "month"


def _base(attribute: str) -> str:
    return "price" if attribute.startswith("price") else attribute.split(":")[0]


def _values(raws: list[list[str]]) -> list[Value]:
    return [v for rs in raws for r in rs if (v := Value.decode(r)) is not None]


def _matches(read: str, label: str, attribute: str) -> bool:
    if attribute == "phone" or attribute.startswith("price") or attribute == "age":
        return holds(read, label, attribute)
    return holds(read, label, attribute) or holds(label, read, attribute) or _stem_alike(read, label)


def classify(miss: dict[str, Any], entity: str, lost: bool) -> str:
    attribute, label = miss["attribute"], miss["value"]
    said = _values(miss.get("said_attributes", []))
    mine = [v for v in said if _base(v.attribute) == _base(attribute)
            and same_entity(v.entity, entity)]
    if attribute.startswith("other:"):
        return "no slot (an other:* label, out of the reader's scope)"
    if miss["op"] == "remove":
        if not any(v.op in ("remove", "negate") for v in mine):
            return "ending not read"
        return "ending read, old kept"
    if not miss["new_active"]:
        if "quarantined" in miss.get("said_status", []) and "active" not in miss["said_status"]:
            return "new value not stored: held in quarantine"
        if lost or not miss.get("said_attributes"):
            return "new value not stored: statement lost"
        if mine:
            status = miss.get("said_status")
            if status is None:
                return "new value not stored: read, its record not active or not named"
            if any(st == "active" and any(v in mine for v in _values([raws]))
                   for st, raws in zip(status, miss["said_attributes"], strict=True)):
                return "new value not stored: read and active, the bench's words miss it"
            return "new value not stored: read, its record not active at the day's end"
        return "new value not stored: kept, not read, no active record names it"
    if not mine:
        if not said:
            return "new not read: nothing"
        if any(_matches(v.value, label, attribute) for v in said if same_entity(v.entity, entity)):
            return "new not read: under another attribute"
        if any(_base(v.attribute) == _base(attribute) or _matches(v.value, label, attribute)
               for v in said):
            return "new not read: under another entity"
        return "new not read: other values"
    old = _values(miss.get("old_attributes", []))
    same_attr = [v for v in old if _base(v.attribute) == _base(attribute)]
    if not same_attr:
        if not old:
            return "read, old record not an attribute record: it carries no value"
        return "read, old record not an attribute record: it carries other values"
    keyed = [v for v in same_attr if same_entity(v.entity, entity)]
    if not keyed:
        return "read, old under another entity"
    news = [v for v in mine if v.op in ("set", "add")]
    if any(v.op == "add" or v.attribute in MULTI or not single_valued(v.attribute)
           for v in news + keyed):
        return "read, list-valued"
    if any(same_value(o.value, n.value) for o in keyed for n in news
           if o.attribute == n.attribute):
        return "read, value match thought them the same"
    if any(o.attribute != n.attribute for o in keyed for n in news):
        return "read, old under another price kind"
    return "read, same key, kept"


def run_causes(run: dict[str, Any], show: bool) -> collections.Counter[str]:
    part = run["part"]
    month = load(MONTHS / f"{part}.json")
    by_id = {m.id: m for m in month.messages}
    lost = {m["message"] for m in run["misses"] if m["what"] == "statement not kept"}
    out: collections.Counter[str] = collections.Counter()
    for miss in run["misses"]:
        if miss["what"] != "change not applied":
            continue
        m = by_id[miss["message"]]
        setting = next((s for s in m.sets if s.attribute == miss["attribute"]
                        and s.value == miss["value"]), None)
        entity = setting.entity if setting else "user"
        cause = classify(miss, entity, m.id in lost)
        whose = "the person's" if entity == "user" else "someone else's"
        two = miss["op"] == "set" and bool(miss["old_active"]) and bool(miss["new_active"])
        for prefix in ("all", "two truths") if two else ("all",):
            out[f"{prefix} | {cause}"] += 1
            out[f"{prefix} | {cause} | {m.lang}"] += 1
            out[f"{prefix} | {cause} | {whose} {_base(miss['attribute'])}"] += 1
            out[f"{prefix} | lang {m.lang}"] += 1
            out[f"{prefix} | n"] += 1
        if show:
            print(f"  {part} {m.id} {'2T ' if two else ''}[{cause}] {entity}."
                  f"{miss['attribute']}={miss['value']!r} old={miss['old']} "
                  f"new_rec={_values(miss.get('new_attributes', []))[:3]} "
                  f"old_rec={_values(miss.get('old_attributes', []))[:3]}: {m.text[:100]}")
    return out


def table(total: collections.Counter[str], prefix: str) -> None:
    n = total[f"{prefix} | n"]
    print(f"\n## {prefix}: {n}")
    heads = sorted({k.split(" | ")[1] for k in total if k.startswith(prefix + " | ")
                    and k.count(" | ") == 1 and k != f"{prefix} | n"
                    and not k.split(" | ")[1].startswith("lang")},
                   key=lambda c: -total[f"{prefix} | {c}"])
    for c in heads:
        k = f"{prefix} | {c}"
        langs = ", ".join(f"{lang} {total[f'{k} | {lang}']}" for lang in ("ru", "pl", "en")
                          if total[f"{k} | {lang}"])
        detail = sorted(((v, x.split(" | ")[2]) for x, v in total.items()
                         if x.startswith(k + " | ") and x.split(" | ")[2] not in ("ru", "pl", "en")),
                        reverse=True)
        print(f"- {c}: {total[k]} ({langs}); " + ", ".join(f"{w} {v}" for v, w in detail[:8]))
    print("  by language: " + ", ".join(f"{lang} {total[f'{prefix} | lang {lang}']}"
                                       for lang in ("ru", "pl", "en")))


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("runs", nargs="+", type=Path)
    ap.add_argument("--show", action="store_true", help="print each miss with its class")
    args = ap.parse_args()
    total: collections.Counter[str] = collections.Counter()
    parts = []
    for path in args.runs:
        data = json.loads(path.read_text())
        for run in data if isinstance(data, list) else [data]:
            got = run_causes(run, args.show)
            by = run["by"][run["part"]]
            parts.append((run["part"], by["changes applied"], by["two active truths"]))
            total += got
    for part, ch, two in parts:
        print(f"{part}: changes applied {ch['n']}/{ch['of']}, two truths {two['n']}/{two['of']}")
    table(total, "all")
    table(total, "two truths")


if __name__ == "__main__":
    main()
