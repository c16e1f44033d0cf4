"""The probability at which the noun model retypes a loose mention the rules read (a Russian
place or person no link ties: "сама я бухгалтер в Волгаэнерго", read a place), chosen held out
by author.

Each held author is read by a noun model that never saw them: the fold models
``scripts/nouns_held_out.py --save-dir DIR --fit-only`` saved (DIR/<part>/nouns.npz), or with
``--shipped`` the shipped model (fair only on tuning_22 onwards, which it never saw). Each
author is read at every retype threshold in ``GRID`` (the model's own threshold, 0.7, is
today's); the threshold for a held author is the one with the best pooled Russian entity F1
over the *other* held authors (nested: the held author's figures never choose it), the
shipped one on a tie. Reader-level mentions scored as ``train_nouns.tally``.

    PYTHONPATH=$PWD HF_HUB_OFFLINE=1 nice -n 10 python scripts/nouns_retype.py \
        --cache /tmp/parses.pkl (--folds DIR | --shipped) [--held tuning_22,...] [--read place]
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from nouns_held_out import KINDS, NEWEST, fmt, load, read, wrong
from train_nouns import f1, tally

from wave_agent.world import nouns

GRID = (0.3, 0.4, 0.5, 0.6, 0.7)


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--data", default="bench/data/entities")
    parser.add_argument("--cache", default="")
    parser.add_argument("--folds", default="", help="DIR/<part>/nouns.npz: each author's fold")
    parser.add_argument("--shipped", action="store_true")
    parser.add_argument("--held", default=",".join(NEWEST))
    parser.add_argument("--read", default="place", help="the loose kinds retyped "
                        "(comma-separated: place,person)")
    parser.add_argument("--show", action="store_true", help="the mentions that change")
    args = parser.parse_args()
    data = load(Path(args.data), Path(args.cache) if args.cache else None)
    shipped = nouns.Model.get("ru")
    assert shipped is not None
    held = list(data) if args.held == "all" else [p for p in args.held.split(",") if p in data]
    by: dict[str, dict[float, dict[str, Counter[str]]]] = {}
    for part in held:
        model = shipped if args.shipped else nouns.Model.load(
            Path(args.folds) / part / "nouns.npz")
        assert model is not None
        base = dict(model.retype)
        by[part] = {}
        for t in GRID:
            model.retype = {**base, **{f"ru|{k}": t for k in args.read.split(",")}}
            readings = read(data[part], model)
            by[part][t] = tally(data[part]["statements"], readings)
            if args.show and t == GRID[0]:
                for w in wrong(data[part]["statements"], readings, "organisation"):
                    print(f"  [{part}] org at {t}: {w}")
        model.retype = base
        print(f"{part}: " + ", ".join(f"{t} {f1(by[part][t]['ru|all'])[2]:.1f}" for t in GRID),
              file=sys.stderr)

    def best(parts: list[str]) -> float:
        score = {t: f1(sum((by[p][t]["ru|all"] for p in parts), Counter()))[2] for t in GRID}
        return max(GRID, key=lambda t: (round(score[t], 6), t == shipped.threshold))

    chosen = {p: best([q for q in held if q != p]) for p in held}
    print(f"retype threshold for loose {args.read}, held out by author over {', '.join(held)}"
          f" ({'the shipped model' if args.shipped else 'fold models'}); chosen on the other "
          f"authors: {chosen}; on all: {best(held)}")
    for kind in ("all", "ppo", *KINDS):
        cells = []
        for pick in (lambda p: shipped.threshold, lambda p: chosen[p]):
            t: Counter[str] = Counter()
            for p in held:
                tl = by[p][pick(p)]
                for k in (("person", "place", "organisation") if kind == "ppo" else (kind,)):
                    t += tl[f"ru|{k}"]
            cells.append(fmt(t))
        print(f"  {kind}: today ({shipped.threshold}) {cells[0]} | nested {cells[1]}")
    for p in held:
        print(f"  {p}: all {fmt(by[p][shipped.threshold]['ru|all'])} -> "
              f"{fmt(by[p][chosen[p]]['ru|all'])} (at {chosen[p]})")
    for t in GRID:
        print(f"  every author at {t}: all "
              f"{fmt(sum((by[p][t]['ru|all'] for p in held), Counter()))}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
