"""A fusion learned after the shipped trees, each LoCoMo conversation left out (issue 31,
h/recall24): does a second model over the candidates' voices, recency, speaker and session
move LoCoMo's evidence from ranks 11-30 into the first ten, for a conversation it never saw?

Input: the ``--features`` file of one ``wave bench locomo`` run (every candidate's features
and the turns it traces back to). For each conversation in turn, ``--rounds`` more trees
(Newton steps of depth 3 on the log-loss, as ``train_ranker.boost``) are fitted after the
shipped trees' log-odds on the other six conversations' questions, then the left-out
conversation's candidates are ordered by the result and spaced and decayed as the engine
does (``learned.after_model``). Besides the shipped trees' own features the new trees may
read (``--extra``) what the candidate's exchange (a LoCoMo session) holds: the best other
log-odds in it relative to the question's best, how many of the model's first ten it holds,
and the candidate's own rank by the shipped log-odds.

    PYTHONPATH=. python scripts/locomo_fusion_loco.py --features F.jsonl [--rounds 30 60] \
        [--extra none session] [--lme LME.features.jsonl ...]

Prints R@1 / R@5 / R@10 / MRR (LoCoMo's: the share of a question's evidence turns within k
unique turns) for the shipped order replayed and each variant, per conversation and over all
seven, and the paired count of questions up / down at R@10. The shipped trees were trained on
five of the seven conversations (all but conv-26 and conv-30, LoCoMo's kept-aside part), so
only those two are out of sample for the base as well as for the new trees.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import defaultdict
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

from wave_agent.recall import learned  # noqa: E402

EXTRA = ("session_best", "session_top10", "model_rr")


def load(path: Path, wanted: str = "locomo") -> list[dict[str, Any]]:
    ranker = learned.load()
    out = []
    for line in path.read_text(encoding="utf-8").splitlines():
        q = json.loads(line)
        if q.get("set") != wanted or not q["x"]:
            continue
        names = q["features"]
        x = np.zeros((len(q["x"]), len(learned.FEATURES)), dtype=np.float32)
        raw = np.asarray(q["x"], dtype=np.float32)
        for n, name in enumerate(names):
            if name in learned.FEATURES:
                x[:, learned.FEATURES.index(name)] = raw[:, n]
        xa = learned.derive(x)
        p = np.clip(ranker.score(x).astype(np.float64), 1e-9, 1 - 1e-9)
        logit = np.log(p / (1 - p))
        if ranker.asked:
            logit = logit + ranker.asked * x[:, learned.FEATURES.index("rr_asked")]
        sessions = [k[0].split(":")[0] if k else "" for k in q["keys"]]
        out.append({"id": q["id"], "group": q["group"], "answers": set(q["answers"]),
                    "keys": q["keys"], "x": xa, "base": logit, "sessions": sessions,
                    "extra": session_features(logit, sessions),
                    "fused": x[:, learned.FEATURES.index("fused")],
                    "decay": x[:, learned.FEATURES.index("decay")],
                    "someone": x[:, learned.FEATURES.index("someone_else")],
                    "language": q.get("language", "english"), "metric": q.get("metric"),
                    "answer_sessions": q.get("answer_sessions", [])})
    return out


def session_features(logit: np.ndarray, sessions: list[str]) -> np.ndarray:
    """Per candidate: the best other log-odds in its exchange minus the question's best;
    how many of the model's first ten share its exchange (itself left out); 1 / its rank."""
    n = len(logit)
    order = np.argsort(-logit, kind="stable")
    rank = np.empty(n)
    rank[order] = np.arange(1, n + 1)
    top = logit.max()
    first = set(order[:10].tolist())
    best: dict[str, list[float]] = defaultdict(list)
    for i, s in enumerate(sessions):
        best[s].append(float(logit[i]))
    out = np.zeros((n, len(EXTRA)), dtype=np.float32)
    for i, s in enumerate(sessions):
        others = sorted(best[s], reverse=True)
        own = float(logit[i])
        other = others[1] if others and others[0] == own and len(others) > 1 else \
            (others[0] if others and others[0] != own else None)
        out[i, 0] = (other - top) if (s and other is not None) else -20.0
        out[i, 1] = sum(1 for j in first if j != i and s and sessions[j] == s)
        out[i, 2] = 1.0 / rank[i]
    return out


def labels(q: dict[str, Any]) -> np.ndarray:
    return np.array([bool(q["answers"] & set(k)) for k in q["keys"]], dtype=np.int8)


def boost(train: list[dict[str, Any]], rounds: int, extra: bool, rate: float = 0.1,
          leaf: int = 40) -> list[Any]:
    from sklearn.tree import DecisionTreeRegressor

    xs, ys, ws, fs = [], [], [], []
    for q in train:
        y = labels(q)
        if not y.any():
            continue
        xs.append(np.hstack([q["x"], q["extra"]]) if extra else q["x"])
        ys.append(y)
        fs.append(q["base"])
        ws.append(np.full(len(y), 1.0 / len(y)))
    x, y, f, w = np.vstack(xs), np.concatenate(ys), np.concatenate(fs), np.concatenate(ws)
    w = w * len(xs) / w.sum()
    trees = []
    for _ in range(rounds):
        p = 1.0 / (1.0 + np.exp(-f))
        h = np.maximum(p * (1.0 - p), 1e-6)
        tree = DecisionTreeRegressor(max_depth=3, min_samples_leaf=leaf, random_state=0)
        tree.fit(x, (y - p) / h, sample_weight=w * h)
        f = f + rate * tree.predict(x)
        trees.append(tree)
    return trees


def final(q: dict[str, Any], logit: np.ndarray) -> np.ndarray:
    p = 1.0 / (1.0 + np.exp(-logit))
    ranker = learned.load()
    return learned.after_model(p, q["fused"], q["decay"], q["someone"],
                               ranker.weight_for(q["language"]), learned.OTHERS_FACTOR,
                               None, None, ranker.confidence)


def figures(q: dict[str, Any], score: np.ndarray) -> dict[str, float]:
    ranked: list[str] = []
    for i in np.argsort(-score, kind="stable"):
        for t in q["keys"][i]:
            if t not in ranked:
                ranked.append(t)
    ev = q["answers"]
    first = next((n for n, t in enumerate(ranked) if t in ev), None)
    out = {f"R@{k}": len(set(ranked[:k]) & ev) / len(ev) for k in (1, 5, 10)}
    out["MRR"] = 1.0 / (first + 1) if first is not None else 0.0
    return out


def lme_check(locomo: list[dict[str, Any]], lme: list[dict[str, Any]],
              args: argparse.Namespace) -> None:
    """LongMemEval's questions ordered by the shipped trees and by each variant's trees
    fitted on every LoCoMo question: what LoCoMo-trained trees would do to other chats."""
    from train_ranker import figures as lme_figures

    shown = ("turn_any@5", "turn_all@10", "NDCG@10", "R@1", "session_any@5")
    rows: dict[str, list[dict[str, float]]] = defaultdict(list)
    for q in lme:
        rows["shipped"].append(lme_figures(q, np.argsort(-final(q, q["base"]), kind="stable")))
    for extra in args.extra:
        for rounds in args.rounds:
            trees = boost(locomo, rounds, extra == "session")
            for q in lme:
                z = np.hstack([q["x"], q["extra"]]) if extra == "session" else q["x"]
                logit = q["base"] + 0.1 * sum(t.predict(z) for t in trees)
                rows[f"boost{rounds}-{extra}"].append(
                    lme_figures(q, np.argsort(-final(q, logit), kind="stable")))
    print(f"{'order':22} {'n':>3} " + " ".join(f"{m:>13}" for m in shown))
    for name, got in rows.items():
        print(f"{name:22} {len(got):3d} "
              + " ".join(f"{100 * float(np.mean([r[m] for r in got])):13.1f}" for m in shown))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--features", type=Path, nargs="+", required=True)
    parser.add_argument("--rounds", type=int, nargs="+", default=[30])
    parser.add_argument("--extra", nargs="+", default=["none", "session"],
                        choices=("none", "session"))
    parser.add_argument("--lme", type=Path, nargs="*", default=[],
                        help="LongMemEval feature files: also order their questions by trees "
                             "fitted on all seven conversations (no LoCoMo figures then)")
    args = parser.parse_args()
    questions = [q for p in args.features for q in load(p)]
    if args.lme:
        lme_check(questions, [q for p in args.lme for q in load(p, "longmemeval")], args)
        return
    groups = sorted({q["group"] for q in questions})
    per: dict[str, dict[str, list[dict[str, float]]]] = defaultdict(lambda: defaultdict(list))
    for q in questions:
        per["shipped"][q["group"]].append(figures(q, final(q, q["base"])))
    for extra in args.extra:
        for rounds in args.rounds:
            name = f"boost{rounds}-{extra}"
            for g in groups:
                trees = boost([q for q in questions if q["group"] != g], rounds,
                              extra == "session")
                for q in questions:
                    if q["group"] != g:
                        continue
                    z = np.hstack([q["x"], q["extra"]]) if extra == "session" else q["x"]
                    logit = q["base"] + 0.1 * sum(t.predict(z) for t in trees)
                    per[name][g].append(figures(q, final(q, logit)))
                print(f"  {name} {g} done", file=sys.stderr, flush=True)
    print(f"{'order':22} {'part':10} {'n':>5} {'R@1':>6} {'R@5':>6} {'R@10':>6} {'MRR':>6}"
          f" {'R@10 +/-':>9}")
    base = per["shipped"]
    for name, by in per.items():
        for part, gs in [("all seven", groups), ("kept aside", ["conv-26", "conv-30"]),
                         *[(g, [g]) for g in groups]]:
            rows = [r for g in gs for r in by[g]]
            ref = [r for g in gs for r in base[g]]
            up = sum(1 for a, b in zip(rows, ref, strict=True) if a["R@10"] > b["R@10"] + 1e-9)
            down = sum(1 for a, b in zip(rows, ref, strict=True) if a["R@10"] < b["R@10"] - 1e-9)
            m = {k: float(np.mean([r[k] for r in rows])) for k in rows[0]}
            print(f"{name:22} {part:10} {len(rows):5d} {100 * m['R@1']:6.1f} "
                  f"{100 * m['R@5']:6.1f} {100 * m['R@10']:6.1f} {m['MRR']:6.3f} "
                  f"{f'+{up}/-{down}':>9}")


if __name__ == "__main__":
    main()
