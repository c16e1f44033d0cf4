"""A statement's pairs as a pair model reads them: each pair's chosen type, its probability and
the features that weigh most for that type (``--top``), for one or more ``relations.npz``
files side by side. For sentences of one's own (a test's, a user's), not a set's: it reads no
labelled data.

    PYTHONPATH=$PWD HF_HUB_OFFLINE=1 python scripts/pair_probe.py --models a.npz,b.npz \\
        [--top 8] "мы сейчас в Сочи на выходных"
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from wave_agent.world import pairs
from wave_agent.world.reader import as_read, complete, parsed


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--models", default=str(pairs.MODEL_PATH))
    parser.add_argument("--top", type=int, default=8)
    parser.add_argument("texts", nargs="+")
    args = parser.parse_args()
    models = {p: pairs.Model.load(Path(p)) for p in args.models.split(",")}
    for text in args.texts:
        reading = complete(text, parsed([text])[0])
        print(text)
        for path, model in models.items():
            assert model is not None, path
            final = pairs.relink(as_read(text), reading, model)
            print(f"  {Path(path).name}: " + "; ".join(
                f"{x.source} {x.type} {x.target}" for x in final.links))
            for pair in pairs.pairs(as_read(text), reading, model.owners):
                kind, _ = model.choose(pair)
                probs = model.probabilities(pair.features)
                best = max((c for c in model.classes if c != pairs.NONE),
                           key=lambda c: probs[model.classes.index(c)])
                row = model.coef[model.classes.index(best)]
                weighed = sorted(((float(row[model.index[f]]), f) for f in set(pair.features)
                                  if f in model.index), reverse=True)
                print(f"    {pair.source} -> {pair.target}: {kind} (best {best} "
                      f"{probs[model.classes.index(best)]:.3f})")
                print("      for: " + ", ".join(f"{f} {w:+.2f}" for w, f in weighed[:args.top]))
                print("      against: " + ", ".join(f"{f} {w:+.2f}"
                                                   for w, f in weighed[-args.top:][::-1]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
