"""Issue 29's false Russian people and organisations, and its missed organisations, put in
classes over the honest authors (``train_relations.HONEST``), from ``wave bench entities --json
--show`` outputs (each extra or missed entity the bench lists under a tuning part's ``misses``) or, with
``--read``, from the reader alone (no graph, no resolution: a person or organisation mention
right when its name, an alias or its stem key is a labelled entity's of that type, each label
matched once; quicker, and what a change to the reader moves).

Classes of a false person:

- ``place or organisation``: the statement labels it a place or an organisation, or pymorphy's
  dictionary knows the word only as a place or firm name (Geox, Orgn);
- ``pet``: the statement labels it a pet;
- ``brand / product / app``: the statement labels it a thing, device, vehicle, project, hobby,
  or the name is in Latin letters, or pymorphy knows it as a trade mark (Trad);
- ``name split or joined``: a word of it is a word of a labelled person's name (or the reverse):
  a surname or patronymic read as a second person, two people read as one;
- ``common noun / verb``: pymorphy's dictionary has the word with no name reading ("ура",
  "баранку", "залили");
- ``a name not labelled``: a word with a first-name, surname or patronymic reading the labels
  do not count as a person of this statement (a person said in passing, a name used as a word);
- ``nickname / unknown word``: a word the dictionary does not have at all.

Classes of a false organisation: ``generic noun`` (lower-case dictionary words, "работа",
"офис"), ``name cut, joined or inflected`` (shares a word or its first five letters with a
labelled organisation),
``person's name`` (a labelled person, or a name reading), ``place`` (a labelled place, Geox),
``brand / product`` (a labelled thing of any kind), ``other``. A missed organisation:
``read as another type`` (an extra of another type shares its stem), ``cut, joined or
inflected`` (an extra organisation shares a word or its first five letters), ``not read``.

    PYTHONPATH=$PWD HF_HUB_OFFLINE=1 nice -n 10 python scripts/false_entities.py \
        --bench before.json [--bench ...] [--list tuning_3,...]
    PYTHONPATH=$PWD HF_HUB_OFFLINE=1 nice -n 10 python scripts/false_entities.py --read \
        [--parts ...] [--list ...]

``--list`` prints each item of the parts named (the parts read while building); the counts
are printed for every part.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))

from train_relations import HONEST

from graph.entities import name_key, stem_key
from graph.models import EntityType
from wave_agent.world import morphology

_LATIN = re.compile(r"[A-Za-z]")
_THINGS = {"thing", "device", "vehicle", "project", "hobby", "illness", "tool"}
_NAME_TAGS = {"Name", "Surn", "Patr"}


def _stems(name: str) -> set[str]:
    """The stems of a name's words and their first five letters (an inflection the reader
    left: "Кубаньстали" / "Кубаньсталь")."""
    words = re.findall(r"\w+", name.lower().replace("ё", "е"))
    return set(stem_key(name).split()) | {w[:5] for w in words if len(w) >= 5}


def _same(a: str, b: str) -> bool:
    return name_key(a) == name_key(b) or (bool(stem_key(a)) and stem_key(a) == stem_key(b))


def _labelled(statement: dict[str, Any], kinds: set[str]) -> list[dict[str, Any]]:
    return [e for e in statement["entities"] if e["type"] in kinds]


def _names(e: dict[str, Any]) -> tuple[str, ...]:
    return (e["name"], *e.get("aliases", ()))


def _tags(name: str) -> set[str]:
    from wave_agent.world.morphology import _morph

    out: set[str] = set()
    for word in name.split():
        if morphology.known_word(word):
            out |= {g for p in _morph().parse(word) for g in p.tag.grammemes}
    return out


def person_class(name: str, statement: dict[str, Any]) -> str:
    for kinds, label in (({"place", "organization"}, "place or organisation"),
                         ({"pet"}, "pet"), (_THINGS, "brand / product / app")):
        if any(_same(name, n) for e in _labelled(statement, kinds) for n in _names(e)):
            return label
    people = [n for e in _labelled(statement, {"person"}) for n in _names(e)]
    if any(_stems(name) & _stems(n) for n in people):
        return "name split or joined"
    tags = _tags(name)
    if _LATIN.search(name) or "Trad" in tags:
        return "brand / product / app"
    if tags & {"Geox", "Orgn"} and not tags & _NAME_TAGS:
        return "place or organisation"
    if tags & _NAME_TAGS:
        return "a name not labelled"
    if all(morphology.known_word(w) for w in name.split()):
        return "common noun / verb"
    return "nickname / unknown word"


def organisation_class(name: str, statement: dict[str, Any]) -> str:
    orgs = [n for e in _labelled(statement, {"organization"}) for n in _names(e)]
    if any(_stems(name) & _stems(n) for n in orgs):
        return "name cut, joined or inflected"
    if any(_same(name, n) for e in _labelled(statement, {"person"}) for n in _names(e)):
        return "person's name"
    if any(_same(name, n) for e in _labelled(statement, {"place"}) for n in _names(e)):
        return "place"
    if any(_same(name, n) for e in _labelled(statement, _THINGS | {"pet"}) for n in _names(e)):
        return "brand / product"
    if name[:1].islower() and all(morphology.known_word(w) for w in name.split()):
        return "generic noun"
    tags = _tags(name)
    if tags & _NAME_TAGS and not tags & {"Geox", "Orgn"}:
        return "person's name"
    if "Geox" in tags and "Orgn" not in tags:
        return "place"
    return "other"


def missed_class(name: str, extras: list[tuple[str, str]]) -> str:
    if any(_same(name, n) for n, kind in extras if kind != "organisation"):
        return "read as another type"
    if any(_stems(name) & _stems(n) for n, kind in extras if kind == "organisation"):
        return "cut, joined or inflected"
    return "not read"


def _statements(data_dir: Path, part: str) -> dict[str, tuple[str, dict[str, Any]]]:
    data = json.loads((data_dir / f"{part}.json").read_text(encoding="utf-8"))
    return {s["id"]: (p["lang"], s) for p in data["people"] for s in p["statements"]}


def from_bench(paths: list[Path], data_dir: Path) -> dict[str, list[dict[str, str]]]:
    """Part -> its Russian items (kind, class, name, statement) from bench outputs."""
    out: dict[str, list[dict[str, str]]] = defaultdict(list)
    for path in paths:
        for part in json.loads(path.read_text(encoding="utf-8")):
            if part["part"] not in HONEST:
                continue
            said = _statements(data_dir, part["part"])
            extras: dict[str, list[tuple[str, str]]] = defaultdict(list)
            for m in part["misses"]:
                if "extra" in m:
                    extras[m["statement"]].append((m["extra"], m["type"]))
            for m in part["misses"]:
                lang, s = said.get(m.get("statement", ""), ("", {}))
                if lang != "ru":
                    continue
                out[part["part"]].extend(_items(m, s, extras[m["statement"]]))
    return out


def _items(m: dict[str, Any], s: dict[str, Any],
           extras: list[tuple[str, str]]) -> list[dict[str, str]]:
    if m.get("type") == "person" and "extra" in m:
        return [{"kind": "false person", "class": person_class(m["extra"], s),
                 "name": m["extra"], "text": s["text"]}]
    if m.get("type") == "organisation" and "extra" in m:
        return [{"kind": "false organisation", "class": organisation_class(m["extra"], s),
                 "name": m["extra"], "text": s["text"]}]
    if m.get("type") == "organisation" and "missed" in m:
        return [{"kind": "missed organisation", "class": missed_class(m["missed"], extras),
                 "name": m["missed"], "text": s["text"]}]
    return []


def from_reader(parts: tuple[str, ...], data_dir: Path) -> dict[str, list[dict[str, str]]]:
    """Part -> its Russian items, as the reader alone reads each statement."""
    from wave_agent.world.reader import read_batch

    kinds = {"person": EntityType.PERSON, "organisation": EntityType.ORGANISATION}
    out: dict[str, list[dict[str, str]]] = defaultdict(list)
    for part in parts:
        said = _statements(data_dir, part)
        ru = [s for lang, s in said.values() if lang == "ru"]
        for s, reading in zip(ru, read_batch([s["text"] for s in ru]), strict=True):
            extras: list[tuple[str, str]] = []
            misses: list[dict[str, Any]] = []
            for kind, typed in kinds.items():
                got = [(m.name, *m.aliases) for m in reading.mentions if m.type is typed]
                used: set[int] = set()
                label = "organization" if kind == "organisation" else kind
                for e in _labelled(s, {label}):
                    hit = next((i for i, names in enumerate(got) if i not in used and any(
                        _same(n, x) for n in names for x in _names(e))), None)
                    if hit is None:
                        misses.append({"missed": e["name"], "type": kind})
                        out[part].append({"kind": f"tally {kind}", "class": "fn", "name": "",
                                          "text": ""})
                    else:
                        used.add(hit)
                        out[part].append({"kind": f"tally {kind}", "class": "tp", "name": "",
                                          "text": ""})
                out[part] += [{"kind": f"tally {kind}", "class": "fp", "name": "", "text": ""}
                              for i in range(len(got)) if i not in used]
                misses += [{"extra": names[0], "type": kind}
                           for i, names in enumerate(got) if i not in used]
            extras = [(m.name, m.type.value) for m in reading.mentions]
            for m in misses:
                out[part].extend(_items(m, s, extras))
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", type=Path, default=Path("bench/data/entities"))
    ap.add_argument("--bench", type=Path, action="append", default=[])
    ap.add_argument("--read", action="store_true")
    ap.add_argument("--parts", default=",".join(HONEST))
    ap.add_argument("--list", default="", help="parts whose items are printed")
    args = ap.parse_args()
    items = (from_reader(tuple(args.parts.split(",")), args.data) if args.read
             else from_bench(args.bench, args.data))
    shown = set(filter(None, args.list.split(",")))
    total: Counter[tuple[str, str]] = Counter()
    for part, rows in sorted(items.items(), key=lambda kv: int(kv[0].split("_")[-1])):
        here = Counter((r["kind"], r["class"]) for r in rows)
        total.update(here)
        print(f"{part}: " + ", ".join(f"{k} / {c} {n}" for (k, c), n in sorted(here.items())))
        if part in shown:
            for r in rows:
                if not r["kind"].startswith("tally"):
                    print(f"    {r['kind']:20} {r['class']:26} {r['name']!r:24} {r['text'][:110]}")
    print("all:")
    for kind in ("tally person", "tally organisation", "false person", "false organisation",
                 "missed organisation"):
        rows = {c: n for (k, c), n in total.items() if k == kind}
        if not rows:
            continue  # the tallies are the reader's (--read) only
        print(f"  {kind} {sum(rows.values())}: " + ", ".join(
            f"{c} {n}" for c, n in sorted(rows.items(), key=lambda kv: -kv[1])))


if __name__ == "__main__":
    main()
