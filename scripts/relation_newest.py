"""The pair model refitted on the older honest authors only (``relation_constructions.OLDER``),
with and without the governing verb's features (``world.governor``), scored on the newest six
authors held out at the reader level: **only their totals are printed** (pooled P / R / F1 and
how many authors went up or down in F1 against the shipped model), never a statement. With
``--folds N`` the older authors are also cross-fitted in N groups (each group read by a fit on
the other groups, the newest six in no fit): a second held-out figure, over authors whose lists
were read. ``--out`` saves the refit with the features, fitted on the older authors only, at the
shipped setting (C 1, balanced, rules and parse features, the shipped thresholds).

    PYTHONPATH=$PWD HF_HUB_OFFLINE=1 nice -n 10 python scripts/relation_newest.py \\
        --cache /tmp/w30/readings.pkl [--folds 4] [--out wave_agent/world/relations.npz]
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))

from relation_constructions import NEWEST, OLDER
from relation_losses import load
from train_relations import examples, fit, pr, score

from wave_agent.world import pairs as model_pairs
from wave_agent.world.reader import as_read

_GOVERNOR = ("syn:gov:", "syn:gsubj:")
_BESIDE = ("syn:bes:", "syn:besl:", "syn:clp:")  # round thirty-one: what the target's clause says beside it
_MOOD = ("syn:mood:",)  # round thirty-three: the tense, aspect and mood of the target's verb
_LASTP = ("syn:lastp:",)  # round thirty-three: the person named nearest before the target


_GRAMMAR = frozenset({"inf", "past", "pres", "futr", "-", "perf", "impf", "impr", "cond", "none"})


def _grammar_only(x: tuple[str, ...]) -> tuple[str, ...]:
    """The mood features without the verb's lemma ("продать|past", "inf<хотеть")."""
    return tuple(f for f in x if not f.startswith(_MOOD) or set(
        f[len(_MOOD[0]):].replace("<", "|").split("|")) <= _GRAMMAR)


def _without_governor(x: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(f for f in x if not f.startswith(_GOVERNOR + _BESIDE + _MOOD + _LASTP))


def _without_beside(x: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(f for f in x if not f.startswith(_BESIDE))


def refit(feats: dict[str, tuple[list[tuple[str, ...]], list[str]]], parts: list[str],
          governor: bool, shipped: model_pairs.Model, owners: bool = False,
          beside: bool = True) -> model_pairs.Model:
    """``governor`` False: neither the verb's nor the beside features; ``beside`` False: the
    verb's features without the beside ones (round thirty's refit)."""
    xs = [(x if beside else _without_beside(x)) if governor else _without_governor(x)
          for k in parts for x in feats[k][0]]
    ys = [y for k in parts for y in feats[k][1]]
    model = fit(xs, ys, 1.0, shipped.threshold, balanced=True, rules=True, syntax=True)
    model.keep_rules = shipped.keep_rules
    model.languages = shipped.languages
    model.thresholds = dict(shipped.thresholds)
    model.owners = owners
    return model


def tally(d: dict[str, Any], model: model_pairs.Model) -> Counter[str]:
    idx = [i for i, g in enumerate(d["langs"]) if g == "ru"]
    statements = [d["statements"][i] for i in idx]
    finals = [model_pairs.relink(as_read(s["text"]), d["readings"][i], model)
              for s, i in zip(statements, idx, strict=True)]
    return score(statements, finals)


def _row(name: str, by_part: dict[str, Counter[str]], base: dict[str, Counter[str]]) -> str:
    total: Counter[str] = sum(by_part.values(), Counter())
    up = sum(pr(by_part[k])[2] > pr(base[k])[2] + 1e-9 for k in by_part)
    down = sum(pr(by_part[k])[2] < pr(base[k])[2] - 1e-9 for k in by_part)
    return (f"{name}: " + " / ".join(f"{v:.1f}" for v in pr(total))
            + f" (right {total['tp']}, wrong {total['fp']}, missed {total['fn']}); "
            f"authors up {up}, down {down}")


def sweep(data: dict[str, Any], feats: dict[str, tuple[list[tuple[str, ...]], list[str]]],
          older: list[str], newest: list[str], folds: int, grid: list[float],
          shipped: model_pairs.Model, owners: bool, key: str = "ru") -> int:
    groups = [older[i::folds] for i in range(folds)]
    old: dict[float, dict[str, Counter[str]]] = {th: {} for th in grid}
    for group in groups:
        model = refit(feats, [k for k in older if k not in group], True, shipped, owners)
        for th in grid:
            model.thresholds = {**dict(shipped.thresholds), key: th}
            for k in group:
                old[th][k] = tally(data[k], model)
        print(f"fold {group} done", file=sys.stderr)
    full = refit(feats, older, True, shipped, owners)
    base = {k: tally(data[k], shipped) for k in newest}
    print(f"the threshold {key} swept, older authors cross-fitted in {folds} groups; the "
          "newest six by the refit on all older authors (totals only):")
    for th in grid:
        full.thresholds = {**dict(shipped.thresholds), key: th}
        print(f"  {key} {th}: older " + _row("", old[th], old[grid[0]])[2:]
              + "; newest six " + _row("", {k: tally(data[k], full) for k in newest}, base)[2:])
        for name, rows in (("older", old[th]), ("newest, pooled",
                                                  {k: tally(data[k], full) for k in newest}),
                           ("newest by the model in the tree, pooled", base)):
            pooled: Counter[str] = sum(rows.values(), Counter())
            print(f"    {name}, by type (right / wrong / missed): " + ", ".join(
                f"{t} {pooled[t + '|tp']} / {pooled[t + '|fp']} / {pooled[t + '|fn']}"
                for t in ("works_as", "owns", "works_at", "lives_in", "kin", "does")))
    return 0


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--data", default="bench/data/entities")
    parser.add_argument("--cache", default="")
    parser.add_argument("--folds", type=int, default=0)
    parser.add_argument("--out", default="")
    parser.add_argument("--sweep", default="", help="with --folds: the Russian threshold "
                        "(``thresholds['ru']``, the types without their own) at each of these "
                        "(comma-separated), cross-fitted on the older authors and on the newest "
                        "six (the choice is read off the older authors only)")
    parser.add_argument("--owners", action="store_true", help="the refits read the owner "
                        "features too (``possessor.owner_features``, round twenty-five)")
    parser.add_argument("--sweep-key", default="ru", help="the threshold ``--sweep`` moves: "
                        "the language's (\"ru\") or a type's in it (\"ru|works_as\")")
    parser.add_argument("--no-mood", action="store_true", help="the refits without the mood "
                        "features (``governor.verb_mood``, round thirty-three): the refit as "
                        "round thirty-one shipped it")
    parser.add_argument("--trial", default="", help="the pair features not shipped to compute "
                        "(``pairs.TRIAL``, comma-separated: mood, lastp; round thirty-three)")
    parser.add_argument("--no-last", action="store_true", help="the refits without the "
                        "nearest-person features (``governor.nearest_person``)")
    parser.add_argument("--mood-grammar", action="store_true", help="the mood features "
                        "without the verb's lemma (tense, aspect, mood, \"бы\" only)")
    parser.add_argument("--only-full", action="store_true", help="fit and score only the "
                        "refit with every feature (the one ``--out`` saves)")
    args = parser.parse_args()
    model_pairs.TRIAL = frozenset(x for x in args.trial.split(",") if x)
    data = load(Path(args.data), Path(args.cache) if args.cache else None)
    shipped = model_pairs.Model.get("ru")  # Russian's own weights since round thirty-one
    assert shipped is not None
    older = [p for p in OLDER if p in data]
    newest = [p for p in NEWEST if p in data]
    feats = {k: examples(data[k]["statements"], data[k]["readings"], args.owners)
             for k in older}
    if args.no_last:
        feats = {k: ([tuple(f for f in x if not f.startswith(_LASTP)) for x in xs], ys)
                 for k, (xs, ys) in feats.items()}
    if args.no_mood:
        feats = {k: ([tuple(f for f in x if not f.startswith(_MOOD)) for x in xs], ys)
                 for k, (xs, ys) in feats.items()}
    elif args.mood_grammar:
        feats = {k: ([_grammar_only(x) for x in xs], ys) for k, (xs, ys) in feats.items()}
    governed = refit(feats, older, True, shipped, args.owners)
    base = {k: tally(data[k], shipped) for k in newest}
    print(f"Russian relations, reader level, the newest {len(newest)} authors held out "
          "(totals only):")
    print(_row("  the Russian pair model in the tree (relations_ru.npz, fitted to tuning_32)", base, base))
    if args.only_full:
        print(_row("  refit on the older authors, with the verb and beside features",
                   {k: tally(data[k], governed) for k in newest}, base))
        if args.sweep:
            return sweep(data, feats, older, newest, args.folds,
                         [float(x) for x in args.sweep.split(",")], shipped, args.owners,
                         args.sweep_key)
        if args.out:
            governed.save(Path(args.out))
        return 0
    plain = refit(feats, older, False, shipped, args.owners)
    print(_row("  refit on the older authors, without the governor features",
               {k: tally(data[k], plain) for k in newest}, base))
    print(_row("  refit on the older authors, with them, without the beside features",
               {k: tally(data[k], refit(feats, older, True, shipped, args.owners, False))
                for k in newest}, base))
    print(_row("  refit on the older authors, with them and the beside features",
               {k: tally(data[k], governed) for k in newest}, base))
    if args.folds and args.sweep:
        return sweep(data, feats, older, newest, args.folds,
                     [float(x) for x in args.sweep.split(",")], shipped, args.owners,
                     args.sweep_key)
    if args.folds:
        groups = [older[i::args.folds] for i in range(args.folds)]
        rows: dict[str, dict[str, Counter[str]]] = {"plain": {}, "verb": {}, "governed": {}}
        for group in groups:
            rest = [k for k in older if k not in group]
            for name, on, beside in (("plain", False, False), ("verb", True, False),
                                     ("governed", True, True)):
                model = refit(feats, rest, on, shipped, args.owners, beside)
                for k in group:
                    rows[name][k] = tally(data[k], model)
            print(f"fold {group} done", file=sys.stderr)
        print(f"Russian relations, reader level, the {len(older)} older authors cross-fitted "
              f"in {args.folds} groups (tuning figures: their lists were read):")
        print(_row("  without the governor features", rows["plain"], rows["plain"]))
        print(_row("  with the verb features (up / down against without)", rows["verb"],
                   rows["plain"]))
        print(_row("  with them and the beside features (up / down against the verb "
                   "features alone)", rows["governed"], rows["verb"]))
    if args.out:
        governed.save(Path(args.out))
        print(f"saved {args.out}: {len(governed.index)} features, fitted on {len(older)} older "
              "authors", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
