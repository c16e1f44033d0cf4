"""One holder per job (``world.pairs._ONE_HOLDER``, round thirty-four, issue 29), measured: the
Russian relations at reader level with each setting of the link types a model link must be the
likeliest holder of, over the older authors cross-fitted in 4 groups (a tuning figure: their
lists were read) and over the held-out newest authors (``relation_constructions.NEWEST``) read
by the shipped ``relations_ru.npz``, **totals only**.

    PYTHONPATH=$PWD HF_HUB_OFFLINE=1 nice -n 10 python scripts/one_holder.py \\
        --cache /tmp/world34-w/readings.pkl [--settings "-;works_as;works_as,works_at,studies_at"]

A setting "-" is none (the tree before round thirty-four).
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from relation_constructions import NEWEST, OLDER
from relation_losses import load
from relation_newest import _row, refit, tally
from train_relations import examples

from wave_agent.world import pairs as model_pairs

_TYPES = ("works_as", "works_at", "studies_at")


def _by_type(rows: dict[str, Counter[str]]) -> str:
    pooled: Counter[str] = sum(rows.values(), Counter())
    return ", ".join(f"{t} {pooled[t + '|tp']} / {pooled[t + '|fp']} / {pooled[t + '|fn']}"
                     for t in _TYPES)


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--data", default="bench/data/entities")
    parser.add_argument("--cache", default="")
    parser.add_argument("--settings", default="-;works_as;works_as,works_at,studies_at")
    parser.add_argument("--folds", type=int, default=4)
    args = parser.parse_args()
    settings = [frozenset() if x == "-" else frozenset(x.split(","))
                for x in args.settings.split(";")]
    data = load(Path(args.data), Path(args.cache) if args.cache else None)
    shipped = model_pairs.Model.get("ru")
    assert shipped is not None
    older = [p for p in OLDER if p in data and p not in NEWEST]
    newest = [p for p in NEWEST if p in data]
    feats = {k: examples(data[k]["statements"], data[k]["readings"], True) for k in older}
    rows: list[dict[str, Counter[str]]] = [{} for _ in settings]
    kept = dict(model_pairs._ONE_HOLDER)
    try:
        for group in [older[i::args.folds] for i in range(args.folds)]:
            model = refit(feats, [k for k in older if k not in group], True, shipped, True)
            for n, kinds in enumerate(settings):
                model_pairs._ONE_HOLDER["ru"] = kinds
                for k in group:
                    rows[n][k] = tally(data[k], model)
            print(f"fold {group} done", file=sys.stderr)
        held = []
        for kinds in settings:
            model_pairs._ONE_HOLDER["ru"] = kinds
            held.append({k: tally(data[k], shipped) for k in newest})
    finally:
        model_pairs._ONE_HOLDER.clear()
        model_pairs._ONE_HOLDER.update(kept)
    print("Russian relations, reader level; P / R / F1 (right, wrong, missed); up / down "
          "against the first setting; by type right / wrong / missed")
    for n, kinds in enumerate(settings):
        name = ",".join(sorted(kinds)) or "none"
        print(_row(f"  {name}: the {len(older)} older cross-fitted (tuning)", rows[n], rows[0])
              + " | " + _by_type(rows[n]))
        print(_row(f"  {name}: the newest {len(newest)} held out (totals)", held[n], held[0])
              + " | " + _by_type(held[n]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
