"""Russian people read by the entity reader against the labels, per honest author
(``train_relations.HONEST``), with the ways tried of capitalising lower-case names before the
NER (issue 29, round twenty-seven): a reader-level figure (no graph, no resolution), every
statement read alone, a person mention right when its name, an alias or its stem key is a
labelled person's (as ``wave bench entities`` matches), each label matched once.

Variants (``--variant``, ``morphology.Names``), each a way of capitalising names written in
lower case before the NER:

- ``first-reading`` (before this round): in a lower-case chat text, a word whose first
  dictionary reading is a name;
- ``any-name``: also every word pymorphy's dictionary has with *some* reading a first name,
  surname or patronymic ("вика", "кате", "саней"), the NER left to decide;
- ``context``: such a word only where a person is said: after a kin role word ("брат расул"),
  after "с" / "со" in the instrumental ("с викой"), or before a past-tense verb agreeing with
  it as a subject ("тёма подсадил");
- ``context+unknown``: ``context``, and a word the dictionary does not know after a kin role
  word ("мама загидат", "тёща умукусум");
- ``capitalised-too`` (shipped): ``context``, and in a text with capitals (where nothing was
  capitalised before) a lower-case word every noun reading of which is a name ("мадина
  танцует в ансамбле «Йолдыз»").

    PYTHONPATH=$PWD HF_HUB_OFFLINE=1 nice -n 10 python scripts/people_reader.py --variant capitalised-too [--parts ...]
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path
from typing import Any, cast, get_args

sys.path.insert(0, str(Path(__file__).parent))

from train_relations import HONEST

from graph.entities import name_key, stem_key
from graph.models import EntityType
from wave_agent.world import morphology, russian
from wave_agent.world.reader import read_batch


def _matches(names: tuple[str, ...], label: str) -> bool:
    key = name_key(label)
    return key in {name_key(n) for n in names} or (
        bool(stem_key(label)) and stem_key(label) == stem_key(names[0]))


def score(data_dir: Path, parts: tuple[str, ...]) -> dict[str, dict[str, int]]:
    out: dict[str, dict[str, int]] = {}
    for part in parts:
        data = json.loads((data_dir / f"{part}.json").read_text(encoding="utf-8"))
        tally: Counter[str] = Counter()
        for person in data["people"]:
            if person["lang"] != "ru":
                continue
            statements = person["statements"]
            for s, reading in zip(statements, read_batch([s["text"] for s in statements]),
                                  strict=True):
                got = [(m.name, *m.aliases) for m in reading.mentions
                       if m.type is EntityType.PERSON]
                used: set[int] = set()
                for e in s["entities"]:
                    if e["type"] != "person":
                        continue
                    hit = next((i for i, names in enumerate(got) if i not in used and any(
                        _matches(names, n) for n in (e["name"], *e.get("aliases", ())))), None)
                    if hit is None:
                        tally["fn"] += 1
                    else:
                        used.add(hit)
                        tally["tp"] += 1
                tally["fp"] += len(got) - len(used)
        out[part] = dict(tally)
    return out


def use(variant: str) -> None:
    """Read with ``variant``'s capitalising (module doc)."""
    names = cast(morphology.Names, variant)

    def fn(text: str) -> str:
        return morphology.truecase(text, names=names)
    russian.truecase = fn


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", type=Path, default=Path("bench/data/entities"))
    ap.add_argument("--parts", default=",".join(HONEST))
    ap.add_argument("--variant", default="capitalised-too", choices=get_args(morphology.Names))
    args = ap.parse_args()
    use(args.variant)
    rows = score(args.data, tuple(args.parts.split(",")))
    total: Counter[str] = Counter()
    for row in rows.values():
        total.update(row)
    result: dict[str, Any] = {"variant": args.variant, "parts": rows, "all": dict(total)}
    json.dump(result, sys.stdout, ensure_ascii=False)
    print()


if __name__ == "__main__":
    main()
