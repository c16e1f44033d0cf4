"""Issue 31's 11-30 band (h/recall33): would what surrounds a LoCoMo turn lift the evidence the
shipped order puts 11th-30th? A second stage over the replayed order (``lme_steps.orders``'
``after_model``) reads, per candidate, the shipped model's own log-odds and rank and:

- ``spk``: the question names the turn's speaker (+1), only the other speaker (-1), or
  neither / both (0);
- ``nb_max`` / ``nb_top``: the best log-odds (relative to the question's best) of the turn's
  neighbours in its session (two either side) among the candidates, and how many of them the
  shipped order puts within 30;
- ``prev_q`` / ``prev_lo``: the turn before is the other speaker's question ("?"), and its
  log-odds; ``is_q`` / ``next_lo``: the turn is itself a question, and the reply's log-odds
  (an adjacent question / answer pair);
- ``date``: the question names a year or a month: +1 if the turn's session date has it, -1 if
  not, 0 when it names none.

It is fitted on the tuning conversations only (each left out in turn for the tuning figure),
once on all five for the kept-aside pair (conv-26, conv-30), whose texts are read by code
only. No text is printed.

    PYTHONPATH=. python scripts/locomo_context_rerank.py --features F.jsonl --data DIR \
        [--models lr,trees] [--sets base,spk,nb,qa,date,all]
"""

from __future__ import annotations

import argparse
import json
import pickle
import re
import sys
from collections import defaultdict
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

from lme_steps import orders  # noqa: E402

from wave_agent.bench.locomo_data import Turn, load_conversations  # noqa: E402
from wave_agent.bench.longmemeval import first_unique  # noqa: E402
from wave_agent.recall import learned  # noqa: E402

POOL = 40       # the second stage reorders the shipped order's first POOL candidates
FLOOR = -12.0   # a neighbour that is not a candidate
MONTHS = ("january", "february", "march", "april", "may", "june", "july", "august",
          "september", "october", "november", "december")
YEAR = re.compile(r"\b(19|20)\d\d\b")
GROUPS = {
    "base": ("lo", "lr"),
    "spk": ("lo", "lr", "spk"),
    "nb": ("lo", "lr", "nb_max", "nb_top"),
    "qa": ("lo", "lr", "prev_q", "prev_lo", "is_q", "next_lo"),
    "date": ("lo", "lr", "date"),
    "is_q": ("lo", "lr", "is_q"),
    "prev_q": ("lo", "lr", "prev_q", "prev_lo"),
    "next": ("lo", "lr", "is_q", "next_lo"),
    "all": ("lo", "lr", "spk", "nb_max", "nb_top", "prev_q", "prev_lo", "is_q", "next_lo",
            "date"),
    "qa+nb": ("lo", "lr", "nb_max", "nb_top", "prev_q", "prev_lo", "is_q", "next_lo"),
    "qa+nb+spk": ("lo", "lr", "spk", "nb_max", "nb_top", "prev_q", "prev_lo", "is_q",
                  "next_lo"),
    "qa+nb+date": ("lo", "lr", "nb_max", "nb_top", "prev_q", "prev_lo", "is_q", "next_lo",
                   "date"),
}


def first_names(speakers: tuple[str, str]) -> list[str]:
    return [s.split()[0].lower() for s in speakers]


def rows(q: dict[str, Any], ranker: learned.LearnedRanker, turns: dict[str, Turn],
         by_index: dict[int, Turn], speakers: tuple[str, str], question: str
         ) -> tuple[dict[str, np.ndarray], list[str], np.ndarray]:
    """The candidates of the shipped order's first POOL (their dia ids, in that order) and
    each one's features."""
    x = np.asarray(q["x"], dtype=np.float32)
    p = np.clip(ranker.score(x).astype(np.float64), 1e-9, 1 - 1e-9)
    logit = np.log(p / (1 - p))
    final = orders(q, ranker)["after_model"]
    order = np.argsort(-final, kind="stable")
    # one row per dia id, at its best place (a record holds one turn in LoCoMo)
    dia: list[str] = []
    lo: list[float] = []
    for i in order:
        for key in q["keys"][i]:
            if key not in dia and key in turns:
                dia.append(key)
                lo.append(float(logit[i]))
    best = max(lo) if lo else 0.0
    rel = {d: v - best for d, v in zip(dia, lo, strict=True)}
    rank = {d: n for n, d in enumerate(dia)}
    pool = dia[:POOL]
    text = question.lower()
    names = first_names(speakers)
    named = [n in re.findall(r"[a-z]+", text) for n in names]
    months = {m for m in MONTHS if m in text}
    years = set(m.group(0) for m in YEAR.finditer(text))
    f: dict[str, list[float]] = defaultdict(list)
    for d in pool:
        t = turns[d]
        f["lo"].append(rel[d])
        f["lr"].append(float(np.log1p(rank[d])))
        who = names.index(t.speaker.split()[0].lower()) if t.speaker.split()[0].lower() \
            in names else -1
        if who >= 0 and named[who] and not named[1 - who]:
            f["spk"].append(1.0)
        elif who >= 0 and named[1 - who] and not named[who]:
            f["spk"].append(-1.0)
        else:
            f["spk"].append(0.0)
        near = [by_index.get(t.index + k) for k in (-2, -1, 1, 2)]
        near_rel = [rel[n.dia_id] for n in near
                    if n is not None and n.session == t.session and n.dia_id in rel]
        f["nb_max"].append(max(near_rel) if near_rel else FLOOR)
        f["nb_top"].append(float(sum(1 for n in near if n is not None and n.session == t.session
                                     and rank.get(n.dia_id, POOL) < 30)))
        prev, nxt = by_index.get(t.index - 1), by_index.get(t.index + 1)
        prev_ok = prev is not None and prev.session == t.session and prev.speaker != t.speaker
        f["prev_q"].append(1.0 if prev_ok and prev is not None and "?" in prev.text else 0.0)
        f["prev_lo"].append(rel.get(prev.dia_id, FLOOR) if prev_ok and prev is not None
                            else FLOOR)
        f["is_q"].append(1.0 if "?" in t.text else 0.0)
        next_ok = nxt is not None and nxt.session == t.session and nxt.speaker != t.speaker
        f["next_lo"].append(rel.get(nxt.dia_id, FLOOR) if next_ok and nxt is not None
                            else FLOOR)
        if months or years:
            hit = (not months or t.at.strftime("%B").lower() in months) and \
                (not years or str(t.at.year) in years)
            f["date"].append(1.0 if hit else -1.0)
        else:
            f["date"].append(0.0)
    label = np.array([1.0 if d in q["answers"] else 0.0 for d in pool])
    return {k: np.asarray(v) for k, v in f.items()}, dia, label


def recall_at(ranked: list[str], evidence: list[str], k: int) -> float:
    top = set(ranked[:k])
    return sum(1 for e in evidence if e in top) / len(evidence)


def read(features: Path, data_dir: Path) -> list[dict[str, Any]]:
    """Each LoCoMo question's pool rows (``rows``) from a ``--features`` file."""
    convs = {c.name: c for c in load_conversations(data_dir)}
    ranker = learned.load()
    data: list[dict[str, Any]] = []
    with features.open(encoding="utf-8") as fh:
        for line in fh:
            q = json.loads(line)
            if q.get("set") != "locomo" or not q["answers"] or not q["x"]:
                if q.get("set") == "locomo" and q["answers"]:
                    data.append({"group": q["group"], "split": q["split"], "feat": None,
                                 "dia": [], "label": np.zeros(0), "answers": q["answers"]})
                continue
            conv = convs[q["group"]]
            number = int(q["id"].rsplit(":", 1)[1])
            turns = {t.dia_id: t for t in conv.turns}
            by_index = {t.index: t for t in conv.turns}
            feat, dia, label = rows(q, ranker, turns, by_index, conv.speakers,
                                    conv.questions[number - 1].text)
            data.append({"group": q["group"], "split": q["split"], "feat": feat, "dia": dia,
                         "label": label, "answers": q["answers"],
                         "category": conv.questions[number - 1].category})
    return data


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--features", type=Path, required=True)
    parser.add_argument("--data", type=Path, required=True)
    parser.add_argument("--models", default="lr,trees")
    parser.add_argument("--sets", default=",".join(GROUPS))
    parser.add_argument("--categories", action="store_true",
                        help="the kept-aside figures by LoCoMo category too")
    parser.add_argument("--seed", type=int, default=0, help="the trees' seed")
    parser.add_argument("--iters", type=int, default=60, help="the trees' rounds")
    parser.add_argument("--cache", type=Path, help="keep the computed rows here (pickle)")
    parser.add_argument("--held", action="store_true",
                        help="also score the kept-aside pair (fitted on all five)")
    args = parser.parse_args()
    from sklearn.ensemble import HistGradientBoostingClassifier
    from sklearn.linear_model import LogisticRegression

    if args.cache and args.cache.exists():
        data = pickle.loads(args.cache.read_bytes())
    else:
        data = read(args.features, args.data)
        if args.cache:
            args.cache.write_bytes(pickle.dumps(data))
    tune_groups = sorted({d["group"] for d in data if d["split"] == "tune"})

    def matrix(items: list[dict[str, Any]], names: tuple[str, ...]) -> tuple[np.ndarray,
                                                                            np.ndarray]:
        xs = [np.stack([d["feat"][n] for n in names], axis=1) for d in items
              if d["feat"] is not None and d["label"].any()]
        ys = [d["label"] for d in items if d["feat"] is not None and d["label"].any()]
        return np.vstack(xs), np.concatenate(ys)

    def fit(kind: str, items: list[dict[str, Any]], names: tuple[str, ...]) -> Any:
        x, y = matrix(items, names)
        if kind == "lr":
            return LogisticRegression(C=1.0, max_iter=2000).fit(x, y)
        return HistGradientBoostingClassifier(max_depth=3, max_iter=args.iters, learning_rate=0.1,
                                              min_samples_leaf=40, random_state=args.seed).fit(x, y)

    def score(model: Any, d: dict[str, Any], names: tuple[str, ...]) -> list[str]:
        if d["feat"] is None:
            return []
        if model is None:
            return d["dia"]
        x = np.stack([d["feat"][n] for n in names], axis=1)
        s = model.decision_function(x)
        pool = [d["dia"][i] for i in np.argsort(-s, kind="stable")]
        return first_unique(pool + d["dia"][POOL:])

    def figures(items: list[dict[str, Any]], ranked: list[list[str]]) -> str:
        out = []
        for k in (1, 5, 10):
            out.append(100 * float(np.mean([recall_at(r, d["answers"], k)
                                            for d, r in zip(items, ranked, strict=True)])))
        return " / ".join(f"{v:.1f}" for v in out)

    def band(items: list[dict[str, Any]], ranked: list[list[str]]) -> str:
        """R@10 points of evidence the base put 11-30 that now sits within ten."""
        moved_in = moved_out = 0.0
        for d, r in zip(items, ranked, strict=True):
            for e in d["answers"]:
                was = d["dia"].index(e) if e in d["dia"] else 10**6
                now = r.index(e) if e in r else 10**6
                if was >= 10 and now < 10:
                    moved_in += 1 / len(d["answers"])
                if was < 10 and now >= 10:
                    moved_out += 1 / len(d["answers"])
        n = len(items)
        paired = []
        for k in (1, 10):
            up = sum(1 for d, r in zip(items, ranked, strict=True)
                     if recall_at(r, d["answers"], k) > recall_at(d["dia"], d["answers"], k))
            down = sum(1 for d, r in zip(items, ranked, strict=True)
                       if recall_at(r, d["answers"], k) < recall_at(d["dia"], d["answers"], k))
            paired.append(f"R@{k} +{up}/-{down}")
        return (f"+{100 * moved_in / n:.1f} / -{100 * moved_out / n:.1f}   "
                + ", ".join(paired) + " questions")

    tune = [d for d in data if d["split"] == "tune"]
    held = [d for d in data if d["split"] == "held"]
    print(f"tuning five ({len(tune)}), each conversation left out; R@1 / R@5 / R@10; "
          "R@10 points moved into / out of ten")
    print(f"  {'shipped order':22} {figures(tune, [d['dia'] for d in tune])}")
    for kind in args.models.split(","):
        for name in args.sets.split(","):
            names = GROUPS[name]
            ranked_by: dict[int, list[str]] = {}
            for g in tune_groups:
                model = fit(kind, [d for d in tune if d["group"] != g], names)
                for n, d in enumerate(tune):
                    if d["group"] == g:
                        ranked_by[n] = score(model, d, names)
            ranked = [ranked_by[n] for n in range(len(tune))]
            print(f"  {kind + ' ' + name:22} {figures(tune, ranked)}   {band(tune, ranked)}")
    if not args.held:
        return
    print(f"kept-aside pair ({len(held)}), fitted on all five tuning conversations")
    print(f"  {'shipped order':22} {figures(held, [d['dia'] for d in held])}")
    for kind in args.models.split(","):
        for name in args.sets.split(","):
            names = GROUPS[name]
            model = fit(kind, tune, names)
            ranked = [score(model, d, names) for d in held]
            print(f"  {kind + ' ' + name:22} {figures(held, ranked)}   {band(held, ranked)}")
            if args.categories:
                for cat in sorted({d.get("category", 0) for d in held}):
                    at = [n for n, d in enumerate(held) if d.get("category", 0) == cat]
                    items = [held[n] for n in at]
                    print(f"      category {cat} ({len(at)}): "
                          f"{figures(items, [items[n]['dia'] for n in range(len(at))])} -> "
                          f"{figures(items, [ranked[n] for n in at])}")
            if kind == "lr":
                print("      coef " + " ".join(f"{n} {c:+.2f}" for n, c in
                                               zip(names, model.coef_[0], strict=True)))


if __name__ == "__main__":
    main()
