"""Issue 29's people the entity reader never sees, counted in the labels of the honest authors
(``train_relations.HONEST``): every Russian gold person of every statement, and every end of a
Russian relation that is a person, put in one of

- ``named, capitalised``: a word of the statement begins like the label's name or an alias
  (three letters) and is written with a capital;
- ``named, lower-case``: such a word exists and every one is written in lower case
  ("с викой", "саша приедет");
- ``role only``: the label is named by a role word the statement says ("мама", "начальник",
  "свекровь": its name is a role of the kin table, or a lower-case common noun that is no first
  name), with no name in the statement;
- ``not named``: neither (a pronoun, or the name is in another statement).

With ``--read``, each is also counted as read or not by the shipped reader (a mention whose
name or alias matches the label as ``wave bench entities`` matches names; a role-only person
is read when the reading links the role: ``role:<kin role>``).

    PYTHONPATH=$PWD HF_HUB_OFFLINE=1 nice -n 10 python scripts/people_unread.py [--read] [--parts tuning_26,...]
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))

from train_relations import HONEST

from graph import kin
from graph.entities import name_key, stem_key
from graph.models import Entity, EntityType
from wave_agent.bench.entities import labelled_relations
from wave_agent.world.reader import read_batch
from wave_agent.world.reading import ROLE_PREFIX, Reading

_PUNCT = ".,!?;:«»\"()—-…"


def words(text: str) -> list[str]:
    return [w.strip(_PUNCT) for w in text.split() if w.strip(_PUNCT)]


def kind_of_person(name: str, entity: dict[str, Any], text: str) -> str:
    """How a labelled person is said in the statement (the classes of the module's doc)."""
    forms = {w[:3] for n in (name, *entity.get("aliases", ()))
             for w in n.lower().split() if len(w) >= 3 and kin.role_of(w) is None}
    said = words(text)
    named = [w for w in said if w[:3].lower() in forms and kin.role_of(w.lower()) is None]
    if named:
        return "named, capitalised" if any(w[:1].isupper() for w in named) else "named, lower-case"
    roles = {w.lower() for w in (name, *entity.get("aliases", ()))}
    if any(w.lower() in roles or w[:4].lower() in {r[:4] for r in roles if len(r) >= 4}
           for w in said):
        return "role only"
    return "not named"


def read_as(name: str, entity: dict[str, Any], reading: Reading) -> bool:
    """Whether the reading has a person mention the bench would match to the label (a role
    word's person: a link end ``role:<the label's kin role>``)."""
    label = Entity(id="", user_id="", name=name, type=EntityType.PERSON,
                   aliases=tuple(entity.get("aliases", ())))
    for m in reading.mentions:
        if m.type is EntityType.PERSON and any(
                name_key(n) in {name_key(x) for x in (label.name, *label.aliases)}
                or (stem_key(n) and stem_key(n) == stem_key(name)) for n in (m.name, *m.aliases)):
            return True
    roles = {kin.role_of(w.lower()) for w in (name, *entity.get("aliases", ()))} - {None}
    ends = {e for link in reading.links for e in (link.source, link.target)}
    return any(ROLE_PREFIX + str(r).replace("-", "_") in ends or ROLE_PREFIX + str(r) in ends
               for r in roles)


def count(data_dir: Path, parts: tuple[str, ...], reader: bool = False) -> dict[str, Any]:
    people: Counter[str] = Counter()
    ends: Counter[str] = Counter()
    examples: dict[str, list[str]] = {}
    for part in parts:
        data = json.loads((data_dir / f"{part}.json").read_text(encoding="utf-8"))
        for person in data["people"]:
            if person["lang"] != "ru":
                continue
            readings = read_batch([s["text"] for s in person["statements"]]) if reader \
                else [Reading()] * len(person["statements"])
            for s, reading in zip(person["statements"], readings, strict=True):
                of = {e["name"]: e for e in s["entities"]}
                for e in s["entities"]:
                    if e["type"] != "person":
                        continue
                    k = kind_of_person(e["name"], e, s["text"])
                    if reader:
                        k += ", read" if read_as(e["name"], e, reading) else ", not read"
                    people[k] += 1
                    examples.setdefault(k, [])
                    if len(examples[k]) < 25:
                        examples[k].append(f"{part}: {e['name']} | {s['text'][:80]}")
                for r in labelled_relations(s):
                    for end in (r["from"], r["to"]):
                        if end in of and of[end]["type"] == "person":
                            k = kind_of_person(end, of[end], s["text"])
                            if reader:
                                k += ", read" if read_as(end, of[end], reading) else ", not read"
                            ends[k] += 1
    return {"people": dict(people), "relation ends": dict(ends), "examples": examples}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", type=Path, default=Path("bench/data/entities"))
    ap.add_argument("--parts", default=",".join(HONEST))
    ap.add_argument("--read", action="store_true", help="count each as read or not by the reader")
    args = ap.parse_args()
    out = count(args.data, tuple(args.parts.split(",")), args.read)
    json.dump(out, sys.stdout, ensure_ascii=False, indent=1)
    print()


if __name__ == "__main__":
    main()
