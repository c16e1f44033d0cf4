"""Russian organisations no link ties, judged again by the noun model (issue 29, round
twenty-eight): the reader's mentions of every kind against the labels, per honest author
(``train_relations.HONEST``), with each way of treating a loose organisation
(``nouns.LOOSE_RU``, ``nouns.DROPPED_RU``):

- ``kept`` (before): the rules' organisation stays as read;
- ``retyped`` (shipped): the model gives it its likeliest kind when that is another kind it
  is sure of (a car «Нива», a project «Шум»), as a loose place is re-typed;
- ``retyped+dropped``: also dropped when the model is sure it names nothing.

A reader-level figure (no graph, no resolution): a mention is right when its kind fits a
label's (as ``wave bench entities`` fits kinds) and its name, an alias or its stem key is
the label's, each label matched once.

    PYTHONPATH=$PWD HF_HUB_OFFLINE=1 nice -n 10 python scripts/loose_organisations.py \
        --variant retyped [--retype-at 0.9] [--parts tuning_3,...]
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

from graph.models import Entity, EntityType
from wave_agent.bench.entities import _TYPES, _matches, kind_fits
from wave_agent.world import nouns
from wave_agent.world.reader import read_batch

VARIANTS = {
    "kept": (frozenset({EntityType.PERSON, EntityType.PLACE}), frozenset({EntityType.PERSON})),
    "retyped": (frozenset({EntityType.PERSON, EntityType.PLACE, EntityType.ORGANISATION}),
                frozenset({EntityType.PERSON})),
    "retyped+dropped": (frozenset({EntityType.PERSON, EntityType.PLACE,
                                   EntityType.ORGANISATION}),
                        frozenset({EntityType.PERSON, EntityType.ORGANISATION})),
}


def score(data_dir: Path, parts: tuple[str, ...]) -> dict[str, dict[str, int]]:
    """Part -> "kind/tp|fp|fn" counts over its Russian statements."""
    out: dict[str, dict[str, int]] = {}
    for part in parts:
        data = json.loads((data_dir / f"{part}.json").read_text(encoding="utf-8"))
        tally: Counter[str] = Counter()
        statements = [s for p in data["people"] if p["lang"] == "ru" for s in p["statements"]]
        for s, reading in zip(statements, read_batch([s["text"] for s in statements]),
                              strict=True):
            got = [Entity(id="", user_id="", name=m.name, type=m.type, aliases=m.aliases)
                   for m in reading.mentions if m.type is not EntityType.OCCUPATION]
            used: set[int] = set()
            for e in s["entities"]:
                kind = str(_TYPES.get(e["type"], e["type"]))
                hit = next((i for i, x in enumerate(got) if i not in used
                            and kind_fits(x.type.value, kind) and _matches(x, e["name"])), None)
                if hit is None:
                    tally[f"{kind}/fn"] += 1
                else:
                    used.add(hit)
                    tally[f"{kind}/tp"] += 1
            for i, x in enumerate(got):
                if i not in used:
                    tally[f"{x.type.value}/fp"] += 1
        out[part] = dict(tally)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", type=Path, default=Path("bench/data/entities"))
    ap.add_argument("--parts", default=",".join(HONEST))
    ap.add_argument("--variant", default="retyped", choices=sorted(VARIANTS))
    ap.add_argument("--retype-at", type=float, default=None,
                    help="the probability a loose organisation is re-typed at (default: the "
                         "shipped model's, ``Model.retype``, else the kind's own)")
    args = ap.parse_args()
    nouns.LOOSE_RU, nouns.DROPPED_RU = VARIANTS[args.variant]
    model = nouns.Model.get("ru")
    if args.retype_at is not None and model is not None:
        model.retype["ru|organisation"] = args.retype_at
    rows = score(args.data, tuple(args.parts.split(",")))
    total: Counter[str] = Counter()
    for row in rows.values():
        total.update(row)
    result: dict[str, Any] = {"variant": args.variant, "retype_at": args.retype_at,
                              "parts": rows, "all": dict(total)}
    json.dump(result, sys.stdout, ensure_ascii=False)
    print()


if __name__ == "__main__":
    main()
