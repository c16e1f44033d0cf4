"""Why a stated change was not applied: each "change not applied" miss of ``wave bench month
--misses --json`` runs put to one cause, counted per month and over the months given.

Causes, in the order they are tested (the first that fits):

- ``contradiction``: the message is labelled an unmarked contradiction (``contradicts``): by
  design both records stay active and a conflict asks the person, so the change is never
  "applied" before the person answers;
- ``not stored``: no active record holds the new value (the bench's ``new_active`` empty);
  ``not stored, statement lost`` when the same message also has a "statement not kept" miss;
- ``ending not applied``: an ending ("Рыжика больше нет") with the old value still active;
- with both values active, the new record and the old one are read again by the attribute
  reader (``read_values``, the old values held) and compared on the labelled attribute:
  ``new not read as the attribute`` (the new record states no value of it),
  ``old not read as the attribute`` (the old record carries none: nothing to replace),
  ``read on both, left active`` (both read; the writer kept both: a contradiction decided, a
  value of someone else with no news, or another record holding the old value in passing).

Each miss also says whether its language differs from the language of the message that set
the old value (a change said in Polish or English about a Russian record).

Also counted (h/write23): ``two truths: CAUSE`` and ``two truths of KIND`` for the misses where
both values stay active (the bench's "two active truths"); ``new read as: ...`` for a new record
not read as the attribute (nothing, another attribute of the entity, or another entity's); and
``core: ...`` for each "old value in a core block" miss: the old record left active, the same
with the line naming the new value too by the bench's surface match (counted applied), the new
value never stored, or a change applied in the graph with the block's line kept; and
``stale: ...`` for each "stale above current" (what carries the stale record up, h/core38).

    PYTHONPATH=. python scripts/month_causes.py /tmp/m22out/base-*.json [--show]
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import json
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from wave_agent.bench.month import holds, load  # noqa: E402
from wave_agent.world import read_many  # noqa: E402
from wave_agent.world.attributes import Value, as_said, read_values  # noqa: E402

MONTHS = ROOT / "bench" / "data" / "month"


def _setter_lang(month: Any, upto: str, entity: str, attribute: str, old: list[str]) -> str | None:
    """The language of the last message before ``upto`` that set one of the old values."""
    lang = None
    for m in month.messages:
        if m.id == upto:
            break
        for s in m.sets:
            if s.entity == entity and s.attribute == attribute and any(
                    holds(v, s.value, attribute) for v in old):
                lang = m.lang
    return lang


async def _keys(text: str, held: list[Value]) -> set[str]:
    """The attributes ``text`` is read to set, add or end; a price by its kind alone (the
    reader names the service in the person's words, the label in its own)."""
    reading = (await read_many([as_said(text)]))[0]
    return {v.attribute.split(":")[0] if v.attribute.startswith("price:") else v.attribute
            for v in read_values(text, reading, held) if v.op != "negate"}


def _base(attribute: str) -> str:
    return "price" if attribute.startswith("price:") else attribute


async def causes(run: dict[str, Any], show: bool) -> collections.Counter[str]:
    part = run["part"]
    month = load(MONTHS / f"{part}.json")
    by_id = {m.id: m for m in month.messages}
    lost = {m["message"] for m in run["misses"] if m["what"] == "statement not kept"}
    out: collections.Counter[str] = collections.Counter()
    for miss in run["misses"]:
        if miss["what"] != "change not applied":
            continue
        m = by_id[miss["message"]]
        attribute = miss["attribute"].split(":")[0]
        setting = next((s for s in m.sets if s.attribute == miss["attribute"]
                        and s.value == miss["value"]), None)
        entity = setting.entity if setting else "user"
        if m.contradicts:
            cause = "contradiction (both kept by design)"
        elif not miss["new_active"] and miss["op"] != "remove":
            cause = "not stored, statement lost" if m.id in lost else "not stored"
        elif miss["op"] == "remove":
            cause = "ending not applied"
        else:
            held = [Value(entity, miss["attribute"], v, "set")
                    for v in miss["old"]]
            new_keys = set()
            for text in miss["new_active"]:
                new_keys |= await _keys(text, held)
            old_keys = set()
            for text in miss["old_active"]:
                old_keys |= await _keys(text, [])
            if _base(miss["attribute"]) not in new_keys:
                cause = "new not read as the attribute"
                out[f"new read as: {await _read_as(miss['new_active'], held, entity)}"] += 1
            elif _base(miss["attribute"]) not in old_keys:
                cause = "old not read as the attribute"
            else:
                cause = "read on both, left active"
        other = _setter_lang(month, m.id, entity, miss["attribute"], miss["old"])
        out[cause] += 1
        if miss["op"] == "set" and miss["old_active"] and miss["new_active"]:
            # a "two active truths" of the bench: by cause and by the attribute's kind
            out[f"two truths: {cause}"] += 1
            out[f"two truths of {attribute}"] += 1
        out[f"attribute {attribute}"] += 1
        if other and other != m.lang:
            out[f"said in {m.lang} of a {other} record"] += 1
        if show:
            print(f"  {part} {m.id} [{cause}] {miss['attribute']}={miss['value']!r} "
                  f"old={miss['old']}: {m.text[:110]}")
    return out


async def _read_as(texts: list[str], held: list[Value], entity: str) -> str:
    """What the reader reads a new record as, when not as the labelled attribute: another
    attribute of the same entity, the attribute of another entity, or nothing."""
    got: list[Value] = []
    for text in texts:
        reading = (await read_many([as_said(text)]))[0]
        got += [v for v in read_values(text, reading, held) if v.op != "negate"]
    if not got:
        return "nothing"
    keys = {_base(v.attribute) for v in got if v.entity == entity}
    if keys:
        return "another attribute (" + ", ".join(sorted(keys)) + ")"
    return "another entity (" + ", ".join(sorted({_base(v.attribute) for v in got})) + ")"


def core(run: dict[str, Any]) -> collections.Counter[str]:
    """Why an old value is still in the ``human`` core block at the day's end: its record
    left active beside the new one (the block follows the graph, so both lines stay), the new
    value never stored (nothing replaced the old record), the old record left active but
    counted as applied because its text names the new value too by the bench's surface match,
    or the change applied in the graph and the block's line kept all the same."""
    misses = run["misses"]
    unapplied = {(m["message"], m["attribute"]): m for m in misses
                 if m["what"] == "change not applied"}
    out: collections.Counter[str] = collections.Counter()
    for m in misses:
        if m["what"] != "old value in a core block":
            continue
        x = unapplied.get((m["message"], m["attribute"]))
        if x is None and any(holds(line, m["value"], m["attribute"]) for line in m["lines"]):
            # the line (an old record's text) names the new value too, by the bench's surface
            # match ("мяса не ем" holds "ем мясо"): its record was not counted as holding the
            # old value, so the change reads as applied while the record is still active
            out["core: old record left active (the judge read it as holding the new value)"] += 1
            continue
        out["core: " + ("change applied in the graph, the line kept" if x is None else
                        "old record left active" if x["old_active"] and x["new_active"] else
                        "new value not stored" if not x["new_active"] else
                        "old record left active")] += 1
    return out


def stale(run: dict[str, Any]) -> collections.Counter[str]:
    """What carries a stale record above the current one (the bench's "stale above current"
    details, h/core38; the run's own questions only, not ``@variant`` asks): the stale record
    replaced by the current one (recall's order: ``recall.older.replacement_above`` moves it),
    replaced by another, or still in force (the write side's two truths); and whether it is
    the newer of the two or of a higher tier."""
    out: collections.Counter[str] = collections.Counter()
    for m in run["misses"]:
        if m.get("what") != "stale above current" or m.get("asked_as") != run["part"]:
            continue
        status = m["stale_status"]
        if status == "active":
            cause = "stale record in force (two truths)"
        elif m["replaced_by_current"]:
            cause = "stale record replaced by the current one"
        else:
            cause = f"stale record {status}, not by the current one"
        out["stale: " + cause] += 1
        if m["stale_newer"]:
            out["stale: the stale record is the newer"] += 1
        if m["stale_tier"] != m["current_tier"]:
            out[f"stale: tiers {m['stale_tier']} above {m['current_tier']}"] += 1
    return out


def _changes(month: Any) -> list[tuple[Any, Any, list[str], Any]]:
    """Every labelled change of a month (the bench's own rule): (message, setting, the values
    held before, the message that said the last of them)."""
    truth: dict[tuple[str, str], list[str]] = {}
    said_by: dict[tuple[str, str], Any] = {}
    out = []
    for m in month.messages:
        for s in m.sets:
            key = (s.entity, s.attribute)
            said_before, held_before = key in truth, list(truth.get(key, []))
            if s.op == "set":
                truth[key] = [s.value]
            elif s.op == "add":
                truth[key] = [*held_before, s.value]
            elif s.op in ("remove", "negate"):
                truth[key] = [v for v in held_before if not holds(v, s.value, s.attribute)]
            if said_before and (s.op in ("add", "remove") or (s.op == "set" and not any(
                    holds(v, s.value, s.attribute) for v in held_before))):
                out.append((m, s, held_before, said_by.get(key)))
            said_by[key] = m
    return out


async def offline(months: list[str], show: bool) -> None:
    """Without a replay: each labelled change's message read by the attribute reader with the
    old values held, and the message that said the old value read alone."""
    total: collections.Counter[str] = collections.Counter()
    for name in months:
        month = load(MONTHS / f"{name}.json")
        got: collections.Counter[str] = collections.Counter()
        for m, s, old, before in _changes(month):
            attribute = s.attribute
            if m.contradicts:
                cause = "contradiction (both kept by design)"
            elif attribute.startswith("other:"):
                cause = "no slot (other:)"
            else:
                held = [Value(s.entity, attribute, v, "set") for v in old]
                new = await _keys(m.text, held)
                had = await _keys(before.text, []) if before else set()
                needs_old = s.op == "remove" or (s.op == "set" and bool(old))
                if _base(attribute) not in new and s.op != "add":
                    cause = "new not read as the attribute"
                elif s.op == "add":
                    cause = "an addition (stored is applied)"
                elif needs_old and _base(attribute) not in had:
                    cause = "old not read as the attribute"
                else:
                    cause = "read on both"
            got[cause] += 1
            if before is not None and before.lang != m.lang:
                got[f"said in {m.lang} of a {before.lang} record"] += 1
            if cause.startswith(("new", "old")):
                got[f"{cause}: {attribute.split(':')[0]}"] += 1
            if show:
                print(f"  {name} {m.id} [{cause}] {s.entity}.{attribute}={s.value!r} {s.op} "
                      f"old={old}: {m.text[:100]}")
        print(name, dict(sorted(got.items())))
        total += got
    print("all", dict(sorted(total.items())))


def rescore(run: dict[str, Any]) -> dict[str, tuple[int, int]]:
    """A run's change figures with the values said as unmarked contradictions left out (the
    judge since h/month22), from its totals and misses: a run made before the judge changed
    read as it would be now. Figures already made by the new judge are returned as they are."""
    part = run["part"]
    month = load(MONTHS / f"{part}.json")
    by = run["by"][part]
    if "new values said as unmarked contradictions (judged as contradictions, not changes)" in by:
        return {k: (by[k]["n"], by[k]["of"]) for k in (
            "changes applied", "two active truths", "new value not stored",
            "old value in a core block")}
    said = {m.id for m, s, _, _ in _changes(month) if m.contradicts}
    n_changes = sum(1 for m, s, _, _ in _changes(month) if m.contradicts)
    n_set = sum(1 for m, s, old, _ in _changes(month) if m.contradicts and s.op == "set")
    misses = [x for x in run["misses"] if x.get("message") in said]
    unapplied = [x for x in misses if x["what"] == "change not applied"]
    two = sum(1 for x in unapplied if x["op"] == "set" and x["new_active"] and x["old_active"])
    lost = sum(1 for x in unapplied if x["op"] != "remove" and not x["new_active"])
    block = sum(1 for x in misses if x["what"] == "old value in a core block")

    def less(name: str, n: int, of: int) -> tuple[int, int]:
        return by[name]["n"] - n, by[name]["of"] - of

    return {
        "changes applied": less("changes applied", n_changes - len(unapplied), n_changes),
        "two active truths": less("two active truths", two, n_set),
        "new value not stored": less("new value not stored", lost, n_changes),
        "old value in a core block": less("old value in a core block", block, n_set),
    }


async def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("runs", nargs="*", type=Path)
    ap.add_argument("--show", action="store_true", help="print each miss with its cause")
    ap.add_argument("--months", nargs="*", default=[],
                    help="month files' stems to read without a replay (tuning_2 ...)")
    ap.add_argument("--rescore", action="store_true",
                    help="print each run's change figures with contradictions left out")
    args = ap.parse_args()
    if args.rescore:
        for path in args.runs:
            for run in json.loads(path.read_text()):
                print(path.name, run["part"], rescore(run))
        return
    if args.months:
        await offline(args.months, args.show)
    total: collections.Counter[str] = collections.Counter()
    for path in args.runs:
        for run in json.loads(path.read_text()):
            got = await causes(run, args.show) + core(run) + stale(run)
            print(run["part"], dict(sorted(got.items())))
            total += got
    print("all", dict(sorted(total.items())))


if __name__ == "__main__":
    asyncio.run(main())
