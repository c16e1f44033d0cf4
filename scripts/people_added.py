"""The people one way of capitalising lower-case names adds to or takes from the reader's
mentions against the way before (``first-reading``), statement by statement over the honest
authors, with the labelled people beside them (round twenty-seven's list of wrong people).
The models' reading only (``russian.read_many``: before the speaker's own name is taken out).

    PYTHONPATH=$PWD HF_HUB_OFFLINE=1 nice -n 10 python scripts/people_added.py capitalised-too
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any, cast

sys.path.insert(0, str(Path(__file__).parent))

from train_relations import HONEST

from graph.models import EntityType
from wave_agent.world import morphology, russian
from wave_agent.world.reading import Reading


def people(readings: list[Reading]) -> list[set[str]]:
    return [{m.name for m in r.mentions if m.type is EntityType.PERSON} for r in readings]


def read_with(names: str, texts: list[str]) -> list[set[str]]:
    way = cast(morphology.Names, names)
    russian.truecase = lambda t: morphology.truecase(t, names=way)
    return people(russian.read_many(texts))


def main() -> None:
    statements: list[tuple[str, dict[str, Any]]] = []
    for part in HONEST:
        data = json.loads(Path(f"bench/data/entities/{part}.json").read_text(encoding="utf-8"))
        statements += [(part, s) for p in data["people"] if p["lang"] == "ru"
                       for s in p["statements"]]
    texts = [s["text"] for _, s in statements]
    before = read_with("first-reading", texts)
    after = read_with(sys.argv[1] if len(sys.argv) > 1 else "capitalised-too", texts)
    for (part, s), x, y in zip(statements, before, after, strict=True):
        if x != y:
            gold = [e["name"] for e in s["entities"] if e["type"] == "person"]
            print(part, "+", sorted(y - x), "-", sorted(x - y), "labelled", gold, "|",
                  s["text"][:90])


if __name__ == "__main__":
    main()
