"""Train the relation model (``wave_agent/world/relations.npz``) on the hand-labelled entity
sets, and say how it does on an author it has not seen: leave one author out (train on the
other ``tuning*.json`` parts, score the one held out), the reader's links against the labels.
The setting is chosen on the parts of authors who never saw the code (``HONEST``), and the
weights apply only to the languages where rules + model beat the rules alone there.

    PYTHONPATH=$PWD python scripts/train_relations.py [--data bench/data/entities] [--no-save]

Each part is one author's; a kept-aside part is never read. Each part is read as a new
author's text is: by noun models (``world.nouns``) fitted without that author (``NounFolds``),
so the pair model learns from the ends the noun model finds on text it never saw. The score is the reader's (before
the writer resolves a role to a name): a link is right when its type and both ends match a
label as ``wave bench entities`` matches them, an end known only by a role when the labelled
end carries that role word.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any, ClassVar

import numpy as np

from graph import kin
from graph.models import Entity, EntityType
from wave_agent.bench.entities import labelled_relations, relation_type
from wave_agent.world import nouns
from wave_agent.world import pairs as model_pairs
from wave_agent.world.reader import as_read, complete, parsed
from wave_agent.world.reading import ROLE_PREFIX, USER, Reading


def _matches(name: str, aliases: tuple[str, ...], label: str) -> bool:
    from wave_agent.bench.entities import _matches as bench_matches

    return bench_matches(Entity(id="", user_id="", name=name, type=EntityType.PERSON,
                                aliases=aliases), label)


def _end(end: str, label: str, reading: Reading, statement: dict[str, Any]) -> bool:
    if label == "user" or end == USER:
        return end == USER and label == "user"
    if end.startswith(ROLE_PREFIX):
        words = set(kin.role_words(end[len(ROLE_PREFIX):].replace("_", "-"))) \
            if end[len(ROLE_PREFIX):].replace("_", "-") in kin._ROLES else set()
        named = [e for e in statement["entities"] if e["name"] == label]
        aliases = {a.lower() for e in named for a in (e["name"], *e.get("aliases", []))}
        return bool(words & aliases)
    mention = reading.mention(end)
    return _matches(end, mention.aliases if mention else (), label)


def _norm(link_type: str) -> str:
    return relation_type(link_type).replace("_", "-") if link_type.startswith("kin:") \
        else relation_type(link_type)


def score(statements: list[dict[str, Any]], readings: list[Reading]) -> Counter[str]:
    tally: Counter[str] = Counter()
    for s, r in zip(statements, readings, strict=True):
        used: set[int] = set()
        links = list(dict.fromkeys(r.links))
        for label in labelled_relations(s):
            hit = next((i for i, link in enumerate(links) if i not in used
                        and _norm(link.type) == _norm(label["type"])
                        and _end(link.source, label["from"], r, s)
                        and _end(link.target, label["to"], r, s)), None)
            kind = _norm(label["type"])
            group = "kin" if kind.startswith("kin:") else kind
            if hit is None:
                tally["fn"] += 1
                tally[f"{group}|fn"] += 1
            else:
                used.add(hit)
                tally["tp"] += 1
                tally[f"{group}|tp"] += 1
        tally["fp"] += len(links) - len(used)
        for i, link in enumerate(links):
            if i not in used:
                kind = _norm(link.type)
                tally[f"{'kin' if kind.startswith('kin:') else kind}|fp"] += 1
    return tally


_TYPES = tuple(k for k in model_pairs.CLASSES if k != model_pairs.NONE)


def types_raised(model: dict[str, dict[str, Counter[str]]],
                 rules: dict[str, dict[str, Counter[str]]], lang: str,
                 parts: list[str]) -> frozenset[str]:
    """The link types whose F1, pooled over ``parts`` held out, the model raises over the
    rules in ``lang``."""
    def pooled(by_part: dict[str, dict[str, Counter[str]]], kind: str) -> Counter[str]:
        return sum((by_type(by_part[p][lang], kind) for p in parts), Counter())

    return frozenset(k for k in _TYPES
                     if pr(pooled(model, k))[2] > pr(pooled(rules, k))[2] + 1e-9)


def scoped(model: dict[str, dict[str, Counter[str]]], rules: dict[str, dict[str, Counter[str]]],
           lang: str, parts: list[str]) -> tuple[Counter[str], dict[str, frozenset[str]]]:
    """The figure of the model taken only for the types it raises, the types chosen on the
    other held-out authors (so the held author's own figures never choose them): the rules'
    tally, with each chosen type's tally swapped for the model's."""
    total: Counter[str] = Counter()
    chosen = {}
    for held in parts:
        kinds = types_raised(model, rules, lang, [p for p in parts if p != held])
        chosen[held] = kinds
        t = Counter(rules[held][lang])
        for k in kinds:
            for x in ("tp", "fp", "fn"):
                t[x] += model[held][lang][f"{k}|{x}"] - rules[held][lang][f"{k}|{x}"]
        total += Counter({x: t[x] for x in ("tp", "fp", "fn")})
    return total, chosen


def by_type(t: Counter[str], kind: str) -> Counter[str]:
    """One link type's tp / fp / fn out of ``score``'s tally."""
    return Counter({k: t[f"{kind}|{k}"] for k in ("tp", "fp", "fn")})


def pr(t: Counter[str]) -> tuple[float, float, float]:
    p = t["tp"] / max(1, t["tp"] + t["fp"])
    r = t["tp"] / max(1, t["tp"] + t["fn"])
    return 100 * p, 100 * r, 200 * p * r / max(1e-9, p + r)


def examples(statements: list[dict[str, Any]], readings: list[Reading], owners: bool = False
             ) -> tuple[list[tuple[str, ...]], list[str]]:
    xs, ys = [], []
    for s, r in zip(statements, readings, strict=True):
        text = as_read(s["text"])
        for pair in model_pairs.pairs(text, r, owners):
            label = model_pairs.NONE
            for rel in labelled_relations(s):
                if _end(pair.source, rel["from"], r, s) and _end(pair.target, rel["to"], r, s):
                    kind = relation_type(rel["type"])
                    label = "kin" if kind.startswith("kin:") else kind
                    break
            if label not in model_pairs.CLASSES:
                label = model_pairs.NONE
            xs.append(pair.features)
            ys.append(label)
    return xs, ys


_RULE = ("rule", "rev:", "into:")
_SYNTAX = "syn:"
# the parts written by authors who never saw the code: the honest predictors of a new author
HONEST = ("tuning_3", "tuning_4", "tuning_5", "tuning_6", "tuning_7", "tuning_8",
          "tuning_9", "tuning_10", "tuning_11", "tuning_12", "tuning_13",
          "tuning_14", "tuning_15", "tuning_16", "tuning_17", "tuning_18",
          "tuning_19", "tuning_20", "tuning_21", "tuning_22",
          "tuning_23", "tuning_24", "tuning_25", "tuning_26", "tuning_27", "tuning_28", "tuning_29", "tuning_30", "tuning_31", "tuning_32", "tuning_33", "tuning_34", "tuning_35", "tuning_36", "tuning_37", "tuning_38", "tuning_39", "tuning_40", "tuning_41", "tuning_42", "tuning_43", "tuning_44", "tuning_45", "tuning_46", "tuning_47", "tuning_48")


def without_rules(x: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(f for f in x if not f.startswith(_RULE))


def without_syntax(x: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(f for f in x if not f.startswith(_SYNTAX))


def fit(xs: list[tuple[str, ...]], ys: list[str], c: float, threshold: float,
        min_count: int = 2, balanced: bool = True, rules: bool = True,
        syntax: bool = True) -> model_pairs.Model:
    from scipy.sparse import csr_matrix
    from sklearn.linear_model import LogisticRegression

    if not rules:
        xs = [without_rules(x) for x in xs]
    if not syntax:
        xs = [without_syntax(x) for x in xs]
    counts = Counter(f for x in xs for f in set(x))
    vocabulary = sorted(f for f, n in counts.items() if n >= min_count)
    index = {f: i for i, f in enumerate(vocabulary)}
    rows, cols = [], []
    for i, x in enumerate(xs):
        for f in set(x):
            if f in index:
                rows.append(i)
                cols.append(index[f])
    matrix = csr_matrix((np.ones(len(rows)), (rows, cols)), shape=(len(xs), len(vocabulary)))
    clf = LogisticRegression(C=c, max_iter=3000, class_weight="balanced" if balanced else None)
    clf.fit(matrix, ys)
    classes = [str(k) for k in clf.classes_]
    coef = clf.coef_ if len(classes) > 2 else np.vstack([-clf.coef_[0], clf.coef_[0]])
    intercept = clf.intercept_ if len(classes) > 2 else np.array(
        [-clf.intercept_[0], clf.intercept_[0]])
    seen = Counter(f"{y}|{next(f[2:] for f in x if f.startswith('t:'))}"
                   for x, y in zip(xs, ys, strict=True) if y != model_pairs.NONE)
    allowed = [k for k, n in seen.items() if n >= 2]
    return model_pairs.Model(vocabulary, classes, coef, intercept, threshold, allowed)


def apply(model: model_pairs.Model | None, statements: list[dict[str, Any]],
          readings: list[Reading], union: bool = False) -> list[Reading]:
    if model is None:
        return readings
    out = []
    for s, r in zip(statements, readings, strict=True):
        model.keep_rules = union
        out.append(model_pairs.relink(as_read(s["text"]), r, model))
    return out


class NounFolds:
    """The noun models (``world.nouns``, Russian and Latin) fitted on the honest parts without
    some authors, with the shipped model's setting, and each part's readings through them."""

    FITS: ClassVar[dict[str, tuple[float, bool]]] = {"ru": (1.0, True), "latin": (1.0, False)}

    def __init__(self, data: dict[str, dict[str, list[Any]]]) -> None:
        from train_nouns import label

        self.data = data
        self.rows: dict[str, dict[str, list[tuple[nouns.Candidate, str]]]] = {}
        for part, d in data.items():
            plain = [complete(s["text"], r, learned_nouns=False)
                     for s, r in zip(d["statements"], d["parsed"], strict=True)]
            rows: dict[str, list[tuple[nouns.Candidate, str]]] = defaultdict(list)
            for s, r in zip(d["statements"], plain, strict=True):
                if r.language in ("ru", "en", "pl"):
                    rows[nouns.reader_of(r.language)] += [
                        (c, label(c, s)) for c in nouns.found(as_read(s["text"]), r)]
            self.rows[part] = rows
        self.shipped = {reader: nouns.Model.get(reader) for reader in self.FITS}
        self._models: dict[tuple[str, frozenset[str]], nouns.Model | None] = {}
        self._readings: dict[tuple[str, frozenset[str]], list[Reading]] = {}

    def model(self, reader: str, without: frozenset[str]) -> nouns.Model | None:
        from train_nouns import fit as fit_nouns

        key = (reader, without)
        if key not in self._models:
            shipped = self.shipped[reader]
            rows = [row for part in self.data if part in HONEST and part not in without
                    for row in self.rows[part][reader]]
            c, balanced = self.FITS[reader]
            self._models[key] = None if shipped is None else fit_nouns(
                rows, c, balanced, shipped.threshold, shipped.kinds)
        return self._models[key]

    def readings(self, part: str, without: tuple[str, ...]) -> list[Reading]:
        """``part``'s readings through noun models trained without the authors ``without``."""
        away = frozenset(p for p in without if p in HONEST)
        key = (part, away)
        if key not in self._readings:
            d = self.data[part]
            models = {reader: self.model(reader, away) for reader in self.FITS}
            self._readings[key] = [
                complete(s["text"], r, models[nouns.reader_of(r.language)],
                         learned_nouns=models[nouns.reader_of(r.language)] is not None
                         and r.language in ("ru", "en", "pl"))
                for s, r in zip(d["statements"], d["parsed"], strict=True)]
        return self._readings[key]


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--data", default="bench/data/entities")
    parser.add_argument("--no-save", action="store_true")
    parser.add_argument("--setting", help='a setting the cross-validation chose, as JSON '
                        '(["union", 0.3, false, false, true, 0.55]): fit it on every part and '
                        "save, without cross-validating again")
    parser.add_argument("--languages", default="ru", help="with --setting: where it applies")
    parser.add_argument("--scope", default="", help='with --setting: "language|type" the '
                        "model is taken for, comma-separated (ru|works_as); a language listed "
                        "here takes only those types, the rules' links kept")
    parser.add_argument("--thresholds", default="", help='with --setting: a language\'s own '
                        'threshold, comma-separated ("ru=0.9": its links added only when the '
                        "model is that sure, the threshold its held-out authors chose), and a "
                        "type's own in it (\"ru|works_at=0.6\")")
    parser.add_argument("--nested", action="store_true",
                        help="the training parts read by noun models that never saw the held "
                        "author either")
    parser.add_argument("--quick", action="store_true",
                        help="only the settings that led the full grid (a machine in use)")
    args = parser.parse_args()
    parts = sorted(Path(args.data).glob("tuning*.json"))
    data: dict[str, dict[str, list[Any]]] = {}
    for path in parts:
        people = json.loads(path.read_text(encoding="utf-8"))["people"]
        by_lang: dict[str, list[Any]] = defaultdict(list)
        for person in people:
            by_lang[person["lang"]].extend(person["statements"])
        statements = [s for lang in ("ru", "en", "pl") for s in by_lang[lang]]
        langs = [lang for lang in ("ru", "en", "pl") for _ in by_lang[lang]]
        data[path.stem] = {"statements": statements, "langs": langs,
                           "parsed": parsed([s["text"] for s in statements])}
        print(f"{path.stem}: {len(statements)} statements", file=sys.stderr)
    unseen = NounFolds(data)
    # each part read with the noun models that never saw its author (as a new author is read):
    # the pair model learns from the ends the noun model finds on text it did not train on
    for part, d in data.items():
        d["readings"] = unseen.readings(part, (part,))
    feats = {k: examples(v["statements"], v["readings"]) for k, v in data.items()}
    if args.setting:
        return save(tuple(json.loads(args.setting)), feats, args.languages.split(","),
                    [k for k in args.scope.split(",") if k],
                    {k: float(v) for k, v in (x.split("=") for x in args.thresholds.split(",")
                                              if x)})
    # (C, balanced classes, the rules' links as features, the parse's features)
    fits = [(c, balanced, rules, True) for c in (0.3, 1.0) for balanced in (True, False)
            for rules in (True, False)] + [(0.3, False, False, False), (0.3, True, True, False)]
    if args.quick:  # the best with the parse, the best without it, the rules kept as they are
        fits = [(1.0, True, True, True), (0.3, True, True, False), (0.3, False, True, True)]
    results: dict[Any, dict[str, dict[str, Counter[str]]]] = {}
    for held in data:
        # each part read by noun models that never saw its author (with --nested, nor the held
        # author: a noun fit for each pair, too slow for a machine in use)
        train = {k: examples(data[k]["statements"], unseen.readings(k, (k, held)))
                 if args.nested else feats[k] for k in data if k != held}
        xs = [x for k in train for x in train[k][0]]
        ys = [y for k in train for y in train[k][1]]
        d = data[held]
        settings: list[Any] = [("rules",)]
        models = {}
        for c, balanced, rules, syntax in fits:
            base = fit(xs, ys, c, 0.5, balanced=balanced, rules=rules, syntax=syntax)
            for th in (0.4, 0.55, 0.7):
                key = (c, balanced, rules, syntax, th)
                models[key] = model_pairs.Model(
                    list(base.index), base.classes, base.coef, base.intercept, th, base.allowed)
                settings += [("model", *key), ("union", *key)]
        for setting in settings:
            model = None if setting[0] == "rules" else models[setting[1:]]
            readings = apply(model, d["statements"], d["readings"], union=setting[0] == "union")
            for lang in ("ru", "en", "pl", "all"):
                idx = [i for i, g in enumerate(d["langs"]) if lang in ("all", g)]
                t = score([d["statements"][i] for i in idx], [readings[i] for i in idx])
                results.setdefault(setting, {}).setdefault(held, {})[lang] = t
        print(f"held {held} done", file=sys.stderr)
    honest = [k for k in data if k in HONEST]
    print("leave one author out (train on the other parts), reader links P / R / F1; "
          f"ranked by the parts of authors who never saw the code ({', '.join(honest)}):")
    ranked = []
    for setting, by_part in results.items():
        total: dict[str, Counter[str]] = defaultdict(Counter)
        fair: dict[str, Counter[str]] = defaultdict(Counter)
        for held, by_lang in by_part.items():
            for lang, t in by_lang.items():
                total[lang] += t
                if held in honest:
                    fair[lang] += t
        ranked.append((pr(fair["ru"])[2], setting, total, fair, by_part))
    ranked.sort(key=lambda x: -x[0])
    rules_row = next(r for r in ranked if r[1] == ("rules",))
    no_parse = [r for r in ranked if r[1][0] != "rules" and not r[1][4]][:2]
    for _f1, setting, total, fair, by_part in [*ranked[:12], rules_row, *no_parse]:
        row = " ".join(f"{held}:{pr(by_part[held]['ru'])[0]:.0f}/"
                       f"{pr(by_part[held]['ru'])[1]:.0f}" for held in data)
        print(f"{setting}: all parts {'/'.join(f'{v:.1f}' for v in pr(total['all']))}; "
              "unseen authors " + " ".join(
                  f"{lang} {'/'.join(f'{v:.1f}' for v in pr(fair[lang]))}"
                  for lang in ("ru", "en", "pl")) + "; ru works_as "
              + "/".join(f"{v:.1f}" for v in pr(by_type(fair["ru"], "works_as")))
              + f"; ru by held part {row}")
    best = ranked[0]
    for lang in ("ru", "pl"):
        kinds = sorted({k.split("|")[0] for k in rules_row[3][lang] if "|" in k})
        print(f"{lang} by type, rules -> {best[1]} (P / R / F1): " + "; ".join(
            f"{k} " + "/".join(f"{v:.1f}" for v in pr(by_type(rules_row[3][lang], k))) + " -> "
            + "/".join(f"{v:.1f}" for v in pr(by_type(best[3][lang], k))) for k in kinds))
    rules_by_part = rules_row[4]
    for _f1, setting, _total, _fair, by_part in ranked[:6]:
        if setting[0] != "union":
            continue
        for lang in ("ru", "en", "pl"):
            figure, chosen = scoped(by_part, rules_by_part, lang, honest)
            print(f"{setting} {lang} taken only for the types it raises on the other authors: "
                  + "/".join(f"{v:.1f}" for v in pr(figure)) + " (rules "
                  + "/".join(f"{v:.1f}" for v in pr(rules_row[3][lang])) + "); types chosen "
                  + ", ".join(f"{h}:{'+'.join(sorted(k)) or '-'}" for h, k in chosen.items()))
    languages = [lang for lang in ("ru", "en", "pl")
                 if pr(best[3][lang])[2] > pr(rules_row[3][lang])[2]]
    print(f"best on unseen Russian: {best[1]}; beats the rules in {languages or 'none'}",
          file=sys.stderr)
    if best[1][0] == "rules" or not languages or args.no_save:
        print("not saved", file=sys.stderr)
        return 0
    return save(best[1], feats, languages)


def save(setting: tuple[Any, ...], feats: dict[str, tuple[list[tuple[str, ...]], list[str]]],
         languages: list[str], scope: list[str] | None = None,
         thresholds: dict[str, float] | None = None) -> int:
    xs = [x for k in feats for x in feats[k][0]]
    ys = [y for k in feats for y in feats[k][1]]
    model = fit(xs, ys, setting[1], setting[5], balanced=setting[2], rules=setting[3],
                syntax=setting[4])
    model.keep_rules = setting[0] == "union"
    model.languages = frozenset(languages)
    model.scope = frozenset(scope or ())
    model.thresholds = dict(thresholds or {})
    model.save(model_pairs.MODEL_PATH)
    print(f"saved {model_pairs.MODEL_PATH} ({setting}, {len(model.index)} features, "
          f"{len(xs)} pairs, languages {languages}, scope {sorted(scope or ())}, "
          f"thresholds {model.thresholds})", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
