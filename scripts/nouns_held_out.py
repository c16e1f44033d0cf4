"""The Russian noun model (``wave_agent/world/nouns.npz``) refitted with every honest author,
measured held out by author against the shipped model on the same authors.

Every honest part (``train_relations.HONEST``) is parsed once (``--cache`` keeps the parses); for
each held author a noun model is fitted at the shipped setting (C 1, balanced, the shipped
threshold and kinds) on the candidates of every other honest author, and the held author's
Russian statements are read through it (``reader.complete``, as the writer reads) and through
the shipped model. Reader-level mentions are scored as ``train_nouns.tally`` scores them (the
way ``wave bench entities`` matches them). The shipped model was fitted on the parts up to
tuning_21, so on tuning_22 onwards both columns are honest; on the older parts only the refit
column is held out. An item "a+b+c" of ``--held`` holds out that group of authors
together (a cross-fit: one fit for the group).

    PYTHONPATH=$PWD HF_HUB_OFFLINE=1 nice -n 10 python scripts/nouns_held_out.py \
        [--held tuning_22,...|a+b+c,...] [--cache /tmp/parses.pkl] [--wrong place] \
        [--out refit.json] [--save-dir DIR [--fit-only]]
"""

from __future__ import annotations

import argparse
import json
import pickle
import sys
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))

from train_nouns import f1, fit, label, tally
from train_relations import HONEST

from wave_agent.bench.entities import _TYPES
from wave_agent.world import nouns
from wave_agent.world.reader import as_read, complete, parsed
from wave_agent.world.reading import Reading

NEWEST = ("tuning_22", "tuning_23", "tuning_24", "tuning_25", "tuning_26", "tuning_27")
KINDS = ("person", "place", "organisation", "occupation", "hobby", "thing", "illness", "pet",
         "project")


def load(data_dir: Path, cache: Path | None) -> dict[str, dict[str, Any]]:
    """Each honest part's Russian statements, their parses and their noun candidates."""
    if cache and cache.exists():
        return pickle.loads(cache.read_bytes())
    data: dict[str, dict[str, Any]] = {}
    for part in HONEST:
        path = data_dir / f"{part}.json"
        if not path.exists():
            continue
        people = json.loads(path.read_text(encoding="utf-8"))["people"]
        statements = [s for p in people if p["lang"] == "ru" for s in p["statements"]]
        rules = parsed([s["text"] for s in statements])
        kept = [(s, r) for s, r in zip(statements, rules, strict=True) if r.language == "ru"]
        plain = [complete(s["text"], r, learned_nouns=False) for s, r in kept]
        rows = [(c, label(c, s)) for (s, _), p in zip(kept, plain, strict=True)
                for c in nouns.found(as_read(s["text"]), p)]
        data[part] = {"statements": [s for s, _ in kept], "parsed": [r for _, r in kept],
                      "rows": rows}
        print(f"{part}: {len(kept)} ru statements, {len(rows)} candidates", file=sys.stderr)
    if cache:
        cache.write_bytes(pickle.dumps(data))
    return data


def read(d: dict[str, Any], model: nouns.Model | None) -> list[Reading]:
    return [complete(s["text"], r, model) for s, r in zip(d["statements"], d["parsed"],
                                                          strict=True)]


def wrong(statements: list[dict[str, Any]], readings: list[Reading], kind: str
          ) -> list[tuple[str, str, str]]:
    """The mentions of ``kind`` no label of that kind matches: (mention, its label's kind or
    "-", the statement)."""
    from train_nouns import _entity

    from wave_agent.bench.entities import _matches

    out = []
    for s, r in zip(statements, readings, strict=True):
        for m in r.mentions:
            if m.type.value != kind:
                continue
            e = _entity(m.name, m.type, m.aliases)
            same = [x for x in s["entities"] if _matches(e, x["name"])]
            if any(_TYPES.get(x["type"], x["type"]) == kind for x in same):
                continue
            out.append((m.name, ",".join(str(_TYPES.get(x["type"], x["type"])) for x in same)
                        or "-", s["text"]))
    return out


def fmt(t: Counter[str]) -> str:
    p, r, f = f1(t)
    return f"{p:.1f} / {r:.1f} ({f:.1f}; {t['tp']}/{t['fp']}/{t['fn']})"


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--data", default="bench/data/entities")
    parser.add_argument("--held", default=",".join(NEWEST),
                        help="the authors held out, one at a time (comma-separated; 'all')")
    parser.add_argument("--cache", default="")
    parser.add_argument("--wrong", default="", help="print the held authors' wrong mentions of "
                        "this kind (e.g. place), by each model")
    parser.add_argument("--out", default="", help="write the per-author tallies as JSON")
    parser.add_argument("--save-dir", default="", help="save each held author's refit as "
                        "DIR/<part>/nouns.npz (for `wave bench entities` on that part alone)")
    parser.add_argument("--fit-only", action="store_true", help="with --save-dir: only fit "
                        "and save")
    args = parser.parse_args()
    data = load(Path(args.data), Path(args.cache) if args.cache else None)
    shipped = nouns.Model.get("ru")
    assert shipped is not None
    # an item "a+b+c" holds out a group of authors together (one fit for them all: a
    # cross-fit, cheaper than one fit per author on a machine in use)
    groups_held = [p.split("+") for p in (",".join(data) if args.held == "all"
                                           else args.held).split(",") if p]
    held = [p for g in groups_held for p in g if p in data]
    away = {p: set(g) for g in groups_held for p in g}
    results: dict[str, dict[str, dict[str, Counter[str]]]] = {}
    bad: dict[str, list[tuple[str, str, str, str]]] = defaultdict(list)
    fits: dict[frozenset[str], nouns.Model] = {}
    for part in held:
        key = frozenset(away[part])
        if key not in fits:
            rows = [row for k, d in data.items() if k not in key for row in d["rows"]]
            fits[key] = fit(rows, 1.0, True, shipped.threshold, shipped.kinds)
            fits[key].thresholds = dict(shipped.thresholds)
        refit = fits[key]
        if args.save_dir:
            (Path(args.save_dir) / part).mkdir(parents=True, exist_ok=True)
            refit.save(Path(args.save_dir) / part / "nouns.npz")
            if args.fit_only:
                continue
        d = data[part]
        results[part] = {}
        for name, model in (("shipped", None), ("refit", refit)):
            readings = read(d, model)
            results[part][name] = tally(d["statements"], readings)
            if args.wrong:
                bad[name] += [(part, *w) for w in wrong(d["statements"], readings, args.wrong)]
        print(f"{part}: ru all shipped {fmt(results[part]['shipped']['ru|all'])}, refit "
              f"{fmt(results[part]['refit']['ru|all'])}", file=sys.stderr)
    if args.fit_only:
        return 0
    groups = {"newest six": [p for p in held if p in NEWEST],
              "older": [p for p in held if p not in NEWEST]}
    for group, parts in groups.items():
        if not parts:
            continue
        print(f"## {group}: {', '.join(parts)} (each held out; P / R (F1; right/wrong/missed))")
        for kind in ("all", "ppo", *KINDS):
            cells = []
            for name in ("shipped", "refit"):
                t: Counter[str] = Counter()
                for p in parts:
                    if kind == "ppo":
                        for k in ("person", "place", "organisation"):
                            t += results[p][name][f"ru|{k}"]
                    else:
                        t += results[p][name][f"ru|{kind}"]
                cells.append(fmt(t))
            print(f"  {kind}: shipped {cells[0]} | refit {cells[1]}")
        for p in parts:
            print(f"  {p}: ppo " + " | ".join(
                fmt(sum((results[p][n][f'ru|{k}'] for k in ('person', 'place', 'organisation')),
                        Counter())) for n in ("shipped", "refit")))
    if args.wrong:
        for name, rows in bad.items():
            print(f"## wrong {args.wrong} mentions, {name} ({len(rows)})")
            for part, mention, labelled, text in rows:
                print(f"  [{part}] {mention} (labelled {labelled}): {text}")
    if args.out:
        Path(args.out).write_text(json.dumps(
            {p: {n: {k: dict(v) for k, v in t.items()} for n, t in r.items()}
             for p, r in results.items()}, ensure_ascii=False, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
