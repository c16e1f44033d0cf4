"""Build ``wave_agent/world/car_names.json``: the everyday name of a thing one owns (a car
first: "камри", "солярис", "крузак") read as its make and model ("Toyota Camry").

The rows are the labels, not a list written by hand: every ``owns`` target of the older entity
authors (``bench/data/entities/tuning`` .. ``tuning_42``; the newest five, 43-47, are held out
and not read) with its aliases, and every vehicle value the tuning months set
(``bench/data/month/tuning`` .. ``tuning_37``; 38-42 held out). Each alias a label gives a name
votes for that name; the name itself votes for itself; the key's most voted name is what it
reads as. A key that is a noun of a kind ("машина", "айфон") or an everyday word the labels
never write with a capital ("тягач", "велик") is left out.

    PYTHONPATH=. python scripts/car_names.py [--out wave_agent/world/car_names.json]
"""

from __future__ import annotations

import argparse
import json
import re
from collections import Counter, defaultdict
from pathlib import Path

from wave_agent.world import lexicon
from wave_agent.world.car_names import key_of
from wave_agent.world.kinds import noun_kind
from wave_agent.world.morphology import known_word

DATA = Path("bench/data")
ENTITY_SETS = ["tuning", *(f"tuning_{k}" for k in range(2, 43))]
MONTHS = ["tuning", *(f"tuning_{k}" for k in range(2, 38))]


def _named(word_key: str, capitals: set[str]) -> bool:
    """A make or a model: each word Latin, one pymorphy does not know, or one the labels write
    with a capital ("Нива", "Лада Гранта"); not a noun of a kind ("машина", "айфон")."""
    if lexicon.kind_of(word_key) or noun_kind(word_key):
        return False
    return all(re.fullmatch(r"[a-z0-9-]+", w) or not known_word(w) or w in capitals
               for w in word_key.split())


def rows() -> list[tuple[str, str]]:
    found: list[tuple[str, str]] = []
    for name in ENTITY_SETS:
        path = DATA / "entities" / f"{name}.json"
        if not path.exists():
            continue
        for person in json.loads(path.read_text())["people"]:
            if person.get("lang") != "ru":
                continue  # the Russian reader's table
            for st in person["statements"]:
                owned = {r["to"] for r in st.get("relations", []) if r["type"] == "owns"}
                for e in st.get("entities", []):
                    if (e["name"] in owned and e["type"] in ("thing", "vehicle", "device")
                            and e["name"][:1].isupper()):  # a make, not "квартира"
                        found += [(a, e["name"]) for a in [e["name"], *e.get("aliases", [])]]
    for name in MONTHS:
        path = DATA / "month" / f"{name}.json"
        if not path.exists():
            continue
        for m in json.loads(path.read_text())["messages"]:
            for s in m.get("sets") or []:
                if s["attribute"] == "vehicle" and s["value"][:1].isupper():
                    found.append((s["value"], s["value"]))
    return found


def table(found: list[tuple[str, str]]) -> dict[str, str]:
    capitals = {key_of(w) for alias, _ in found for w in alias.split() if w[:1].isupper()}
    votes: dict[str, Counter[str]] = defaultdict(Counter)
    for alias, name in found:
        key = key_of(alias)
        if key and _named(key, capitals):
            votes[key][name] += 1
    return {k: v.most_common(1)[0][0] for k, v in sorted(votes.items())}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--out", default="wave_agent/world/car_names.json")
    args = parser.parse_args()
    out = table(rows())
    Path(args.out).write_text(json.dumps(out, ensure_ascii=False, indent=0, sort_keys=True) + "\n")
    print(f"{len(out)} names -> {args.out}")


if __name__ == "__main__":
    main()
