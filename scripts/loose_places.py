"""The loose Russian places (``nouns.loose``: read by the rules, no link ties them) of some
authors, each with its label and the noun model's likeliest kind and probability: whether the
model already knows a wrong place for what it is.

    PYTHONPATH=$PWD HF_HUB_OFFLINE=1 python scripts/loose_places.py --cache /tmp/parses.pkl \
        [--held tuning_22,...] [--model nouns.npz]
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from nouns_held_out import NEWEST, load
from train_nouns import label

from wave_agent.world import nouns
from wave_agent.world.reader import as_read, complete


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--data", default="bench/data/entities")
    parser.add_argument("--cache", default="")
    parser.add_argument("--held", default=",".join(NEWEST))
    parser.add_argument("--model", default="", help="a noun model's file (the shipped one if "
                        "none: fair only on tuning_22 onwards)")
    parser.add_argument("--read", default="place")
    args = parser.parse_args()
    data = load(Path(args.data), Path(args.cache) if args.cache else None)
    model = nouns.Model.load(Path(args.model)) if args.model else nouns.Model.get("ru")
    assert model is not None
    rows = []
    for part in args.held.split(","):
        d = data[part]
        for s, r in zip(d["statements"], d["parsed"], strict=True):
            plain = complete(s["text"], r, learned_nouns=False)
            for c in nouns.found(as_read(s["text"]), plain):
                if c.read == args.read:
                    kind, p = model.choose(c)
                    rows.append((label(c, s), kind, round(p, 2), c.name, part))
    for row in sorted(rows):
        print(row)
    print("(label, the model's likeliest kind):",
          dict(Counter((a, b) for a, b, *_ in rows).most_common()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
