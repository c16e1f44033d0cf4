"""Issue 29, round thirty-three: the Russian organisations the reader misses, over the older
authors (``relation_constructions.OLDER``; their texts may be read), each put down to what the
reader made of it: ``other_kind`` (a mention of the label's name read as another kind: a place,
a person, a thing), ``other_form`` (a mention whose first four letters are the label's, under another form:
"на «Кубаньстали»" read as Кубаньстали), ``no_mention`` (none at all), and of the wrong ones
(an organisation no label names) how many are a labelled entity of another kind. Reads the
cache ``relation_losses.load`` writes (the shipped reader's readings, no pair model).

    PYTHONPATH=$PWD HF_HUB_OFFLINE=1 python scripts/missed_organisations.py \\
        --cache /tmp/world33-w/readings.pkl [--show 10]
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter, defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from relation_constructions import NEWEST, OLDER
from relation_losses import load

from graph.models import Entity
from wave_agent.bench.entities import _TYPES, _matches


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--data", default="bench/data/entities")
    parser.add_argument("--cache", default="")
    parser.add_argument("--show", type=int, default=0)
    parser.add_argument("--held-out", action="store_true", help="count over the held-out "
                        "newest authors instead (``NEWEST``): totals only, never a statement")
    args = parser.parse_args()
    if args.held_out:
        args.show = 0
    data = load(Path(args.data), Path(args.cache) if args.cache else None)
    counts: Counter[str] = Counter()
    shown: dict[str, list[str]] = defaultdict(list)
    parts = NEWEST if args.held_out else tuple(p for p in OLDER if p not in NEWEST)
    for part in (p for p in parts if p in data):
        d = data[part]
        for s, lang, r in zip(d["statements"], d["langs"], d["readings"], strict=True):
            if lang != "ru":
                continue
            got = [Entity(id="", user_id="", name=m.name, type=m.type, aliases=tuple(m.aliases))
                   for m in r.mentions]
            for e in s["entities"]:
                if _TYPES.get(e["type"], e["type"]) != "organisation":
                    continue
                same = [x for x in got if _matches(x, e["name"])]
                if any(x.type.value == "organisation" for x in same):
                    counts["right"] += 1
                    continue
                near = [x for x in got if x.name[:4].lower() == e["name"][:4].lower()]
                cause = f"other_kind:{same[0].type.value}" if same else \
                    f"other_form:{near[0].type.value}" if near else "no_mention"
                counts[cause] += 1
                if len(shown[cause]) < args.show:
                    shown[cause].append(f"  [{part}] {e['name']!r} ({[x.name for x in got]}): "
                                        f"{s['text'][:200]!r}")
    print(f"Russian organisations over the {'held-out newest' if args.held_out else 'older'} "
          f"authors, reader level{'' if args.held_out else ' (tuning figures)'}:")
    for k, v in sorted(counts.items(), key=lambda kv: -kv[1]):
        print(f"  {k}: {v}")
    for cause, rows in shown.items():
        if not rows:
            continue
        print(f"{cause}:")
        print("\n".join(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
