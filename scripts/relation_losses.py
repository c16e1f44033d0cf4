"""Where each missed Russian relation is lost and where each wrong one comes from, held out by
author: every honest part (``train_relations.HONEST``) read by the shipped noun model, its
pairs judged by a pair model fitted at the shipped setting **without that part's author**
(leave one author out), and every label put down to the first cause that holds:

- ``end:source`` / ``end:target`` / ``end:both``: an end the reader never read as a mention
  (with ``--kinds``, each missed end is also counted by what it is: the label's entity type,
  else what the relation says its target is: a job, a hobby, an illness, a thing);
- ``end:other_name``: an end the reader did read, under another name or resolution (a mention
  sharing a word's first letters with the label, ``_near``), so the scorer does not match it;
- ``no_pair``: both ends read, the pair never a candidate (``pairs.pairs`` has no such pair);
- ``under_threshold``: the model's likeliest class is the labelled type, under its threshold
  (how far under is counted by tenths: ``gap:<type>:0.1`` is within 0.1 of it);
- ``scored_none``: the model's likeliest class is "none";
- ``wrong_kind``: its likeliest class is another type (or a kin pair taken with another role);
- ``not_allowed``: the type was never seen between such ends in training.

Each wrong link is put down to where it came from (the rules, kept beside the model, or the
model) and what is wrong with it: ``wrong_kind`` (both ends labelled together, another type),
``no_relation`` (both ends are labelled entities or the speaker, no label between them) or
``end_unlabelled`` (an end no label names).

The noun model saw the older parts (not tuning_22 onwards), so their ends are read somewhat
better than a new author's; the pair model never saw the held author.

    PYTHONPATH=$PWD HF_HUB_OFFLINE=1 nice -n 10 python scripts/relation_losses.py \
        [--lang ru] [--cache /tmp/readings.pkl] [--models /tmp/loao.pkl]
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

from train_relations import HONEST, _end, _norm, by_type, examples, fit, pr, score

from graph import kin
from wave_agent.bench.entities import labelled_relations
from wave_agent.world import pairs as model_pairs
from wave_agent.world.reader import as_read, complete, parsed
from wave_agent.world.reading import ROLE_PREFIX, USER, Reading

# the six newest honest authors: no shipped model saw them (the noun and pair models were
# fitted up to tuning_21)
NEWEST = ("tuning_24", "tuning_25", "tuning_26", "tuning_27", "tuning_28", "tuning_29")


def load(data_dir: Path, cache: Path | None,
         parts: list[str] | None = None) -> dict[str, dict[str, Any]]:
    """Every honest part (or ``parts``) read as the shipped reader reads it, kept in ``cache``."""
    if cache and cache.exists():
        kept: dict[str, dict[str, Any]] = pickle.loads(cache.read_bytes())
        return {k: v for k, v in kept.items() if parts is None or k in parts}
    data: dict[str, dict[str, Any]] = {}
    for part in parts or HONEST:
        path = data_dir / f"{part}.json"
        if not path.exists():
            continue
        people = json.loads(path.read_text(encoding="utf-8"))["people"]
        statements, langs = [], []
        for person in people:
            for s in person["statements"]:
                statements.append(s)
                langs.append(person["lang"])
        rules = parsed([s["text"] for s in statements])
        readings = [complete(s["text"], r) for s, r in zip(statements, rules, strict=True)]
        data[part] = {"statements": statements, "langs": langs, "readings": readings}
        print(f"{part}: {len(statements)} statements read", file=sys.stderr)
    if cache:
        cache.write_bytes(pickle.dumps(data))
    return data


def held_out_models(data: dict[str, dict[str, Any]], threshold: float, owners: bool,
                    path: Path | None) -> dict[str, model_pairs.Model]:
    """A pair model per honest part, fitted at the shipped setting without that part's author,
    kept in ``path`` (a pickle) when given: the losses and the thresholds read the same fits."""
    if path and path.exists():
        cached: dict[str, model_pairs.Model] = pickle.loads(path.read_bytes())
        if set(cached) == set(data):
            return cached
    feats = {k: examples(d["statements"], d["readings"], owners) for k, d in data.items()}
    models = {}
    for held in data:
        xs = [x for k in feats if k != held for x in feats[k][0]]
        ys = [y for k in feats if k != held for y in feats[k][1]]
        models[held] = fit(xs, ys, 1.0, threshold, balanced=True, rules=True, syntax=True)
        print(f"fitted without {held}", file=sys.stderr)
    if path:
        path.write_bytes(pickle.dumps(models))
    return models


def _has_end(label: str, reading: Reading, statement: dict[str, Any]) -> bool:
    if label == "user":
        return True
    ends = {m.name for m in reading.mentions}
    ends |= {e for link in reading.links for e in (link.source, link.target)
             if e.startswith(ROLE_PREFIX)}
    return any(_end(e, label, reading, statement) for e in ends)


def _labelled_end(end: str, reading: Reading, statement: dict[str, Any]) -> bool:
    if end == USER:
        return True
    return any(_end(end, e["name"], reading, statement) for e in statement["entities"])


# what an end the reader missed is, when the label names no entity for it: the relation says
_TARGET_KIND = {"works_as": "job", "does": "activity", "has_condition": "illness",
                "owns": "thing", "studies_at": "organization", "works_at": "organization",
                "lives_in": "place", "member_of": "organization", "part_of": "project",
                "pet_of": "pet"}


def _kind_of(label: str, kind: str, statement: dict[str, Any], is_target: bool) -> str:
    named = next((e.get("type", "?") for e in statement["entities"] if e["name"] == label), None)
    if named is None:
        named = _TARGET_KIND.get(kind, "person" if kind.startswith("kin") else "?") \
            if is_target else "person"
    if named != "person":
        return str(named)
    # a person the statement names (by a form of the name or an alias) or only refers to (a
    # role word, a pronoun: the name is in another statement, for the writer to resolve)
    entity = next((e for e in statement["entities"] if e["name"] == label), {})
    forms = {w[:3] for n in (label, *entity.get("aliases", ()))
             for w in n.lower().split() if len(w) >= 3}
    said = [w.strip(".,!?;:«»\"()—-") for w in statement["text"].split()]
    named = [w for w in said if w[:3].lower() in forms and kin.role_of(w.lower()) is None]
    if not named:
        return "person (not named in the statement: a role word or none)"
    return "person (named, capitalised)" if any(w[:1].isupper() for w in named) \
        else "person (named, lower-case)"


def _near(label: str, reading: Reading) -> bool:
    """A mention read under another name than the label's: a word of each beginning alike
    (four letters: a case ending or a longer / shorter form of one name)."""
    heads = {w[:4] for w in label.lower().replace("-", " ").split() if len(w) >= 3}
    for m in reading.mentions:
        for name in (m.name, *m.aliases):
            if heads & {w[:4] for w in name.lower().replace("-", " ").split() if len(w) >= 3}:
                return True
    return False


def losses(statement: dict[str, Any], rules: Reading, final: Reading,
           model: model_pairs.Model, text: str,
           items: list[tuple[str, Any, str]] | None = None) -> tuple[Counter[str], Counter[str]]:
    """(missed labels by cause, wrong links by origin and cause) for one statement; each missed
    label (``("missed", label, cause)``) and wrong link (``("wrong", link, cause)``) is also
    appended to ``items`` when given."""
    miss: Counter[str] = Counter()
    wrong: Counter[str] = Counter()
    links = list(dict.fromkeys(final.links))
    used: set[int] = set()
    labels = labelled_relations(statement)
    candidates = model_pairs.pairs(text, rules, model.owners)
    for label in labels:
        kind = _norm(label["type"])
        group = "kin" if kind.startswith("kin:") else kind
        hit = next((i for i, link in enumerate(links) if i not in used
                    and _norm(link.type) == kind
                    and _end(link.source, label["from"], final, statement)
                    and _end(link.target, label["to"], final, statement)), None)
        if hit is not None:
            used.add(hit)
            continue
        src = _has_end(label["from"], rules, statement)
        tgt = _has_end(label["to"], rules, statement)
        if not (src and tgt):
            cause = "end:both" if not (src or tgt) else "end:source" if not src else "end:target"
            ends = ([(label["from"], False)] if not src else []) + \
                ([(label["to"], True)] if not tgt else [])
            if all(_near(e, rules) for e, _ in ends):
                cause = "end:other_name"
            else:
                for e, is_target in ends:
                    miss[f"endkind:{_kind_of(e, kind, statement, is_target)}"] += 1
        else:
            pair = next((p for p in candidates
                         if _end(p.source, label["from"], rules, statement)
                         and _end(p.target, label["to"], rules, statement)), None)
            if pair is None:
                cause = "no_pair"
            else:
                types = next(f[2:] for f in pair.features if f.startswith("t:"))
                p = model.probabilities(pair.features)
                chosen, _best = model.choose(pair)
                top = max((c for c in model.classes if c == model_pairs.NONE
                           or not model.allowed or f"{c}|{types}" in model.allowed),
                          key=lambda c: float(p[model.classes.index(c)]))
                if model.allowed and f"{group}|{types}" not in model.allowed:
                    cause = "not_allowed"
                elif chosen == group:
                    cause = "wrong_kind"  # a kin pair taken with another role
                elif top == group:
                    cause = "under_threshold"
                    lang = rules.language or "ru"
                    gap = model.threshold_of(lang, group) - float(p[model.classes.index(group)])
                    miss[f"gap:{group}:{min(int(gap * 10) + 1, 9) / 10:.1f}"] += 1
                elif top == model_pairs.NONE:
                    cause = "scored_none"
                else:
                    cause = "wrong_kind"
        miss[cause] += 1
        miss[f"{group}|{cause}"] += 1
        if items is not None:
            items.append(("missed", label, cause))
    rule_links = set(rules.links)
    for i, link in enumerate(links):
        if i in used:
            continue
        origin = "rule" if link in rule_links else "model"
        kind = _norm(link.type)
        group = "kin" if kind.startswith("kin:") else kind
        together = [lb for lb in labels
                    if _end(link.source, lb["from"], final, statement)
                    and _end(link.target, lb["to"], final, statement)]
        if together:
            cause = "wrong_kind"
        elif _labelled_end(link.source, final, statement) and \
                _labelled_end(link.target, final, statement):
            cause = "no_relation"
        else:
            cause = "end_unlabelled"
        wrong[f"{origin}|{cause}"] += 1
        wrong[f"{group}|{origin}|{cause}"] += 1
        if items is not None:
            items.append(("wrong", link, cause))
    return miss, wrong


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--data", default="bench/data/entities")
    parser.add_argument("--lang", default="ru")
    parser.add_argument("--cache", default="")
    parser.add_argument("--show", default="", help="print the missed labels of this cause")
    parser.add_argument("--save-without", default="", help="instead: fit the pair model at the "
                        "shipped setting on every honest part but these (comma-separated) and "
                        "save it to --out, for `wave bench entities` on the parts left out")
    parser.add_argument("--out", default="")
    parser.add_argument("--models", default="", help="a pickle of the leave-one-author-out "
                        "pair models: read when it holds every part's, else fitted and kept")
    parser.add_argument("--owners", action="store_true", help="fit on the pairs' owner features "
                        "(whose a pet or person is said to be: `pairs._owners`)")
    parser.add_argument("--shipped", default="", help="judge these parts (comma-separated) with "
                        "the shipped pair model instead of a refit: fair only on parts it never "
                        "saw (tuning_22 onwards)")
    args = parser.parse_args()
    data = load(Path(args.data), Path(args.cache) if args.cache else None)
    shipped = model_pairs.Model.get()
    assert shipped is not None
    if args.save_without:
        feats = {k: examples(d["statements"], d["readings"], args.owners)
                 for k, d in data.items()}
        away = set(args.save_without.split(","))
        xs = [x for k in feats if k not in away for x in feats[k][0]]
        ys = [y for k in feats if k not in away for y in feats[k][1]]
        model = fit(xs, ys, 1.0, shipped.threshold, balanced=True, rules=True, syntax=True)
        model.keep_rules = shipped.keep_rules
        model.languages = shipped.languages
        model.thresholds = dict(shipped.thresholds)
        model.owners = args.owners
        model.save(Path(args.out))
        print(f"saved {args.out}: {len(model.index)} features, {len(xs)} pairs, without "
              f"{sorted(away)}", file=sys.stderr)
        return 0
    miss: Counter[str] = Counter()
    miss6: Counter[str] = Counter()
    wrong: Counter[str] = Counter()
    total: Counter[str] = Counter()
    by_part: dict[str, Counter[str]] = defaultdict(Counter)
    only = [p for p in args.shipped.split(",") if p]
    models = held_out_models(data, shipped.threshold, args.owners,
                             Path(args.models) if args.models else None) if not only else {}
    for held, d in data.items():
        if only and held not in only:
            continue
        if only:
            model = shipped
        else:
            model = models[held]
            model.keep_rules = shipped.keep_rules
            model.languages = shipped.languages
            model.thresholds = dict(shipped.thresholds)
            model.owners = args.owners
        idx = [i for i, g in enumerate(d["langs"]) if g == args.lang]
        statements = [d["statements"][i] for i in idx]
        rules = [d["readings"][i] for i in idx]
        finals = []
        for s, r in zip(statements, rules, strict=True):
            text = as_read(s["text"])
            final = model_pairs.relink(text, r, model)
            finals.append(final)
            m, w = losses(s, r, final, model, text)
            miss += m
            if held in NEWEST:
                miss6 += m
            wrong += w
            if args.show and m[args.show]:
                print(f"[{held}] {s['text']}\n   labels {labelled_relations(s)}\n"
                      f"   read {[(x.name, x.type.value) for x in r.mentions]}\n"
                      f"   links {list(final.links)}")
        t = score(statements, finals)
        total += t
        by_part[held] = t
        print(f"held {held}: ru relations "
              + "/".join(f"{v:.1f}" for v in pr(t))
              + f" (right {t['tp']}, wrong {t['fp']}, missed {t['fn']})", file=sys.stderr)
    print(f"{args.lang} relations, " + (f"the shipped model on {args.shipped}: " if only else
                                         "every honest author held out: ")
          + "/".join(f"{v:.1f}" for v in pr(total))
          + f" (right {total['tp']}, wrong {total['fp']}, missed {total['fn']})")
    kinds = sorted({k.split("|")[0] for k in total if "|" in k})
    print("by type (P / R / F1, tp / fp / fn): " + "; ".join(
        f"{k} " + "/".join(f"{v:.1f}" for v in pr(by_type(total, k)))
        + f" ({total[f'{k}|tp']}/{total[f'{k}|fp']}/{total[f'{k}|fn']})" for k in kinds))
    newest = [k for k in by_part if k in NEWEST]
    if newest:
        t6: Counter[str] = sum((by_part[k] for k in newest), Counter())
        print(f"the newest {len(newest)} ({', '.join(newest)}): "
              + "/".join(f"{v:.1f}" for v in pr(t6))
              + f" (right {t6['tp']}, wrong {t6['fp']}, missed {t6['fn']})")
        print("missed on them, by cause: " + ", ".join(
            f"{k} {n}" for k, n in miss6.most_common() if "|" not in k
            and not k.startswith(("gap:", "endkind:"))))
    print("missed, by cause: " + ", ".join(f"{k} {n}" for k, n in miss.most_common()
                                           if "|" not in k and not k.startswith(("gap:",
                                                                                 "endkind:"))))
    print("  ends never read, by what they are: " + ", ".join(
        f"{k[8:]} {n}" for k, n in miss.most_common() if k.startswith("endkind:")))
    print("  under the threshold, by how far (<= 0.1, 0.2, ...): " + ", ".join(
        f"{k[4:]} {n}" for k, n in sorted(miss.items()) if k.startswith("gap:")))
    for k in kinds:
        row = {c.split("|", 1)[1]: n for c, n in miss.items() if c.startswith(f"{k}|")}
        print(f"  {k}: " + ", ".join(f"{c} {n}" for c, n in
                                      sorted(row.items(), key=lambda x: -x[1])))
    print("wrong, by origin and cause: " + ", ".join(
        f"{k} {n}" for k, n in wrong.most_common() if k.count("|") == 1))
    for k in kinds:
        row = {c.split("|", 1)[1]: n for c, n in wrong.items() if c.startswith(f"{k}|")}
        if row:
            print(f"  {k}: " + ", ".join(f"{c} {n}" for c, n in
                                          sorted(row.items(), key=lambda x: -x[1])))
    return 0


if __name__ == "__main__":
    sys.exit(main())
