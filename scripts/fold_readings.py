"""Every honest part read as a new author is read, in ``relation_losses.py``'s cache format:
its Russian statements through the noun model fitted without that author (the fold models
``nouns_held_out.py --save-dir DIR --fit-only`` saved), its English and Polish through the
shipped Latin model. With ``--retype 0.3`` the fold models retype loose places and people at
that probability (``nouns.Model.retype``). Then ``relation_losses.py --cache OUT`` fits the
pair model held out by author on those readings (``--save-without`` for a model to ship).

    PYTHONPATH=$PWD HF_HUB_OFFLINE=1 nice -n 10 python scripts/fold_readings.py \
        --folds DIR --out /tmp/readings.pkl [--retype 0.3] [--retype-kinds place,person]
"""

from __future__ import annotations

import argparse
import json
import pickle
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from train_relations import HONEST

from wave_agent.world import nouns
from wave_agent.world.reader import complete, parsed


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--data", default="bench/data/entities")
    parser.add_argument("--folds", required=True)
    parser.add_argument("--out", required=True)
    parser.add_argument("--retype", type=float, default=0.0)
    parser.add_argument("--retype-kinds", default="place,person")
    args = parser.parse_args()
    data = {}
    for part in HONEST:
        path = Path(args.data) / f"{part}.json"
        if not path.exists():
            continue
        model = nouns.Model.load(Path(args.folds) / part / "nouns.npz")
        assert model is not None, f"no fold model for {part}"
        if args.retype:
            model.retype = {f"ru|{k}": args.retype for k in args.retype_kinds.split(",")}
        people = json.loads(path.read_text(encoding="utf-8"))["people"]
        statements = [s for p in people for s in p["statements"]]
        langs = [p["lang"] for p in people for _ in p["statements"]]
        rules = parsed([s["text"] for s in statements])
        readings = [complete(s["text"], r, model if r.language == "ru" else None)
                    for s, r in zip(statements, rules, strict=True)]
        data[part] = {"statements": statements, "langs": langs, "readings": readings}
        print(f"{part}: {len(statements)} statements read", file=sys.stderr)
    Path(args.out).write_bytes(pickle.dumps(data))
    return 0


if __name__ == "__main__":
    sys.exit(main())
