"""The pair model's Russian per-type thresholds chosen held out by author, and what a new
author would read with them.

Every honest part (``train_relations.HONEST``) is read by the shipped noun model (the readings
of ``relation_losses.load``) and its pairs judged by a pair model fitted at the shipped setting
without that part's author (leave one author out, as ``relation_losses.py``). Each Russian
type's threshold is then chosen for an author **from the other authors' held-out scores only**
(the grid below, the F1 of all Russian relations of those authors, one type at a time from the
shipped thresholds, twice round), and applied to that author: a cross-fitted figure, the
author's own labels never used to choose what it is read with.

The thresholds apply where the model's likeliest type is also likelier than "none" (as
``pairs.Model.choose``): they move pairs scored under the type's threshold (``relation_losses``'
``under_threshold``), never those scored "none".

    PYTHONPATH=$PWD HF_HUB_OFFLINE=1 nice -n 10 python scripts/relation_thresholds.py \\
        --cache /tmp/readings.pkl [--models /tmp/loao.pkl: as relation_losses.py's] [--away tuning_24,...] \\
        [--out relations.npz] [--keep-precision]

``--away``: parts never used to choose (their figures are still printed, each from the other
parts' choice); ``--out``: the shipped ``relations.npz`` with its thresholds replaced by those
chosen on every honest part but ``--away`` (for ``wave bench entities`` on the parts away).
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))

from relation_losses import NEWEST, held_out_models, load
from train_relations import pr, score

from wave_agent.world import pairs as model_pairs
from wave_agent.world.reader import as_read

GRID = (0.4, 0.45, 0.5, 0.55, 0.6, 0.65, 0.7, 0.75, 0.8, 0.85, 0.9, 0.95)
LANG = "ru"

_pairs = model_pairs.pairs
_memo: dict[tuple[str, int], list[model_pairs.Pair]] = {}


def _cached_pairs(text: str, reading: Any, owners: bool = False) -> list[model_pairs.Pair]:
    key = (text, id(reading))
    if key not in _memo:
        _memo[key] = _pairs(text, reading, owners)
    return _memo[key]


def _cached_probabilities(model: model_pairs.Model) -> None:
    """The model's probabilities kept per pair: a threshold grid reads the same pairs often."""
    seen: dict[tuple[str, ...], Any] = {}
    plain = model.probabilities

    def probabilities(features: Any) -> Any:
        key = tuple(features)
        if key not in seen:
            seen[key] = plain(key)
        return seen[key]

    model.probabilities = probabilities  # type: ignore[method-assign]


def counts(model: model_pairs.Model, part: dict[str, Any],
           thresholds: dict[str, float]) -> Counter[str]:
    model.thresholds = thresholds
    finals = [model_pairs.relink(as_read(s["text"]), r, model)
              for s, r in zip(part["statements"], part["readings"], strict=True)]
    return score(part["statements"], finals)


def f1(t: Counter[str]) -> float:
    return pr(t)[2]


def choose(base: dict[str, Counter[str]], table: dict[str, dict[str, dict[float, Counter[str]]]],
           parts: list[str], shipped: dict[str, float], kinds: list[str],
           keep_precision: bool = False) -> dict[str, float]:
    """Each type's threshold by the summed F1 of ``parts``, one type at a time, twice round;
    a type's change is taken as adding its own difference to the totals (a threshold moves
    only the pairs whose likeliest type it is). With ``keep_precision``, only thresholds that
    keep those parts' precision at the shipped thresholds' or above are chosen among."""
    chosen = {k: shipped.get(f"{LANG}|{k}", shipped.get(LANG, 0.9)) for k in kinds}
    start = sum((base[p] for p in parts), Counter())

    def delta(k: str, g: float) -> Counter[str]:
        out: Counter[str] = Counter()
        for p in parts:
            out.update(table[p][k][g])
            out.subtract(base[p])
        return out

    deltas = {k: {g: delta(k, g) for g in GRID} for k in kinds}
    floor = pr(start)[0] if keep_precision else 0.0
    for _ in range(2):
        for k in kinds:
            rest = start.copy()
            for j in kinds:
                if j != k:
                    rest.update(deltas[j][chosen[j]])
            fit = [g for g in GRID if pr(_add(rest, deltas[k][g]))[0] >= floor - 1e-9]
            best = max(fit or [chosen[k]],
                       key=lambda g: (round(f1(_add(rest, deltas[k][g])), 6), g == chosen[k], g))
            chosen[k] = best
    return chosen


def _add(a: Counter[str], b: Counter[str]) -> Counter[str]:
    out = a.copy()
    out.update(b)
    return out


def as_thresholds(shipped: dict[str, float], chosen: dict[str, float]) -> dict[str, float]:
    out = dict(shipped)
    out.update({f"{LANG}|{k}": v for k, v in chosen.items()})
    return out


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--data", default="bench/data/entities")
    parser.add_argument("--cache", default="")
    parser.add_argument("--models", default="", help="a pickle of the leave-one-author-out "
                        "pair models (made when missing)")
    parser.add_argument("--away", default="")
    parser.add_argument("--out", default="")
    parser.add_argument("--keep-precision", action="store_true", help="choose only among "
                        "thresholds that keep the other authors' precision at the shipped "
                        "thresholds' or above")
    args = parser.parse_args()
    data = load(Path(args.data), Path(args.cache) if args.cache else None)
    shipped = model_pairs.Model.get()
    assert shipped is not None
    models = held_out_models(data, shipped.threshold, False,
                             Path(args.models) if args.models else None)
    model_pairs.pairs = _cached_pairs  # type: ignore[assignment]
    parts: dict[str, dict[str, Any]] = {}
    for held, d in data.items():
        model = models[held]
        model.keep_rules = shipped.keep_rules
        model.languages = shipped.languages
        model.owners = False
        _cached_probabilities(model)
        idx = [i for i, g in enumerate(d["langs"]) if g == LANG]
        parts[held] = {"statements": [d["statements"][i] for i in idx],
                       "readings": [d["readings"][i] for i in idx]}
    kinds = [c for c in shipped.classes if c != model_pairs.NONE]
    base: dict[str, Counter[str]] = {}
    table: dict[str, dict[str, dict[float, Counter[str]]]] = {}
    for held, part in parts.items():
        model = models[held]
        base[held] = counts(model, part, dict(shipped.thresholds))
        table[held] = {k: {g: counts(model, part, as_thresholds(shipped.thresholds, {k: g}))
                           for g in GRID} for k in kinds}
        print(f"{held}: the grid read", file=sys.stderr)
    away = {p for p in args.away.split(",") if p}
    before, after = Counter(), Counter()
    before6, after6 = Counter(), Counter()
    moved = Counter()
    for held, part in parts.items():
        others = [p for p in parts if p != held and p not in away]
        chosen = choose(base, table, others, shipped.thresholds, kinds, args.keep_precision)
        t = counts(models[held], part, as_thresholds(shipped.thresholds, chosen))
        b = base[held]
        before.update(b)
        after.update(t)
        if held in NEWEST:
            before6.update(b)
            after6.update(t)
        way = "up" if f1(t) > f1(b) + 1e-9 else "down" if f1(t) < f1(b) - 1e-9 else "level"
        moved[way] += 1
        if held in NEWEST:
            moved[f"newest {way}"] += 1
        print(f"{held}: {'/'.join(f'{v:.1f}' for v in pr(b))} ({b['tp']}/{b['fp']}/{b['fn']})"
              f" -> {'/'.join(f'{v:.1f}' for v in pr(t))} ({t['tp']}/{t['fp']}/{t['fn']}) "
              f"{way}; chosen without it: "
              + ", ".join(f"{k} {v}" for k, v in chosen.items()
                          if v != shipped.threshold_of(LANG, k)))
    for name, b, t in (("the newest six", before6, after6), ("every honest author", before,
                                                                 after)):
        print(f"{name}, shipped thresholds -> each author's chosen from the others: "
              f"{'/'.join(f'{v:.1f}' for v in pr(b))} ({b['tp']}/{b['fp']}/{b['fn']}) -> "
              f"{'/'.join(f'{v:.1f}' for v in pr(t))} ({t['tp']}/{t['fp']}/{t['fn']})")
    print("authors by F1: " + ", ".join(f"{k} {n}" for k, n in sorted(moved.items())))
    chosen = choose(base, table, [p for p in parts if p not in away], shipped.thresholds, kinds,
                    args.keep_precision)
    print("chosen on every part but --away: " + ", ".join(f"{k} {v}" for k, v in chosen.items()))
    if args.out:
        shipped.thresholds = as_thresholds(shipped.thresholds, chosen)
        shipped.save(Path(args.out))
        print(f"saved {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
