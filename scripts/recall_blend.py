"""Plain e5's cosine beside the learned order, weighed by a small model fitted leaving one memory
author out (round twenty-three, issue 31; docs/benchmarks.md).

Question asked: when Wave's first record is wrong and plain e5's right, is it the query map (the
moved question vector, which the semantic voice, the trees' cosine features and MMR read) that
moved the right record down? The trees never see the plain e5 cosine of a candidate when the map
is on. This script gives it back to them after the fact: over each question's kept candidates
(``wave bench memory --features``) it replays the shipped trees and ``after_model`` (as
``scripts/replay_steps.py`` does), then orders the candidates by a conditional logit (softmax
over each question's candidates) of a few columns: the shipped order's log score, the plain e5
cosine's gap from the best candidate's and its reciprocal rank among the candidates, the moved
cosine's gap, and those plain-cosine columns times how sure the trees are (their first two's
log-odds margin), so the weight on plain e5 is learned per question. The fitted order hands out
the shipped scores (MMR's relevance scale unchanged), then the newer-record step, MMR (λ 0.75)
and the attribute step run as in the engine (``replay_steps.Replay``).

Each author (memory-ru-N and memory-pl-N are one author) is scored by a model fitted on the other
authors only; the shipped order over the same candidates and the bench's own plain e5 rank are
paired with it question by question (exact sign test).

    python scripts/recall_blend.py /tmp/recall21 --tag base --cache /tmp/recall21/e5.npy
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import json
import sys
from math import comb
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

import replay_steps as rs  # noqa: E402
import train_ranker as tr  # noqa: E402

from wave_agent.bench.memory import load_set  # noqa: E402
from wave_agent.recall.learned import FEATURES, MODEL_PATH, LearnedRanker, after_model  # noqa: E402

COLUMNS = ("shipped", "plain_gap", "plain_rr", "moved_gap", "plain_gap_x_sure", "plain_rr_x_sure")


def embed(data: Path, names: list[str], cache: Path) -> dict[str, dict[str, np.ndarray]]:
    """Each set's facts and questions in plain e5 (``train_query_adapter._embed``), cached."""
    import train_query_adapter as qa

    sets: dict[str, dict[str, np.ndarray]] = {}
    if cache.is_file():
        sets = np.load(cache, allow_pickle=True).item()
    missing = [data / n for n in names if n not in sets]
    if missing:
        sets.update(asyncio.run(qa._embed(missing)))
        np.save(cache, np.asarray(sets, dtype=object), allow_pickle=True)
    return sets


def author(name: str) -> str:
    parts = name.split("-")
    return parts[2] if len(parts) > 2 else "1"


def sign_p(better: int, worse: int) -> float:
    n = better + worse
    if n == 0:
        return 1.0
    tail = sum(comb(n, i) for i in range(min(better, worse) + 1)) / 2 ** n
    return min(1.0, 2 * tail)


class Question:
    """One question's candidates: the shipped order's scores, the blend's columns, labels."""

    def __init__(self, q: dict[str, Any], shipped: np.ndarray, plain: np.ndarray,
                 replay: rs.Replay, dense: int, engine: int, kind: str) -> None:
        self.q, self.shipped, self.replay = q, shipped, replay
        self.labels = tr.labels(q)
        self.dense, self.engine, self.kind = dense, engine, kind
        self.language = q["language"]
        self.set = q["set"]
        x = q["x"]
        logs = np.log(np.maximum(shipped / shipped.max(), 1e-6))
        gap = plain - np.nanmax(plain)
        gap = np.where(np.isnan(gap), -1.0, gap)
        rank = np.empty(len(plain))
        rank[np.argsort(-np.nan_to_num(plain, nan=-9.0), kind="stable")] = np.arange(1, len(plain) + 1)
        rr = 1.0 / rank
        moved = x[:, FEATURES.index("cosine_gap")]
        top2 = np.sort(logs)[::-1][:2]
        sure = float(top2[0] - top2[1]) if len(top2) > 1 else 1.0
        self.cols = np.stack([logs, gap, rr, moved, gap * sure, rr * sure], axis=1)

    def order(self, w: np.ndarray) -> np.ndarray:
        """The blend's scores, as the shipped values handed out in the blend's order."""
        s = self.cols @ w
        out = np.empty(len(s))
        out[np.argsort(-s, kind="stable")] = np.sort(self.shipped)[::-1]
        return out

    def final_rank(self, scores: np.ndarray) -> int:
        moved = self.replay.newer(self.q, scores, 0.90)
        picked = self.replay.mmr(self.q, moved, 0.75)
        final = tr.attribute_step(lambda _q, s=picked: s)(self.q)
        return rs.first(self.labels, final)


def fit(questions: list[Question], l2: float) -> np.ndarray:
    """The conditional logit's weights (the first, the shipped order's, starts at 1)."""
    from scipy.optimize import minimize

    cases = [(qq.cols, qq.labels.astype(bool)) for qq in questions if qq.labels.any()]

    def loss(w: np.ndarray) -> tuple[float, np.ndarray]:
        total, grad = 0.0, np.zeros_like(w)
        for cols, pos in cases:
            s = cols @ w
            s = s - s.max()
            p = np.exp(s)
            p /= p.sum()
            total -= float(np.log(p[pos].sum() + 1e-12))
            # d/dw of -log sum_pos p = E_p[cols] - E_{p|pos}[cols]
            ppos = p * pos
            ppos /= ppos.sum() + 1e-12
            grad += p @ cols - ppos @ cols
        prior = np.zeros_like(w)
        prior[0] = 1.0
        total += l2 * float(((w - prior) ** 2).sum())
        grad += 2 * l2 * (w - prior)
        return total / len(cases), grad / len(cases)

    w0 = np.zeros(len(COLUMNS))
    w0[0] = 1.0
    return np.asarray(minimize(loss, w0, jac=True, method="L-BFGS-B").x)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("runs", type=Path)
    parser.add_argument("--tag", default="base")
    parser.add_argument("--cache", type=Path, required=True)
    parser.add_argument("--data", type=Path, default=ROOT / "bench" / "data")
    parser.add_argument("--l2", type=float, default=1.0)
    parser.add_argument("--columns", default=",".join(COLUMNS),
                        help="the columns the blend reads (the rest weigh 0)")
    args = parser.parse_args()
    ranker = LearnedRanker.from_json(json.loads(Path(MODEL_PATH).read_text(encoding="utf-8")))
    cols = [FEATURES.index(n) for n in ("fused", "decay", "someone_else", "rr_asked")]
    paths = sorted(p for p in args.runs.glob(f"{args.tag}-memory-*.features.jsonl")
                   if p.with_name(p.name.replace(".features.jsonl", ".details.json")).is_file())
    names = [p.name.removeprefix(f"{args.tag}-").removesuffix(".features.jsonl") for p in paths]
    vectors = embed(args.data, names, args.cache)
    questions: list[Question] = []
    for path, name in zip(paths, names, strict=True):
        replay = rs.Replay(args.data, name, vectors[name]["facts"])
        data = load_set(args.data / name)
        qindex = {q.id: i for i, q in enumerate(data.questions)}
        details = json.loads(path.with_name(f"{args.tag}-{name}.details.json").read_text(
            encoding="utf-8"))[0]
        ranks = {r["id"]: r for r in details["ranks"]}
        for q in tr.load([path]):
            x = q["x"]
            shipped = np.asarray(after_model(
                ranker.score(x), x[:, cols[0]], x[:, cols[1]], x[:, cols[2]],
                ranker.weight_for(q["language"]), tr.OTHERS, x[:, cols[3]], ranker.asked,
                ranker.confidence), dtype=np.float64)
            qv = vectors[name]["questions"][qindex[q["id"]]]
            plain = np.array([float(vectors[name]["facts"][replay.index[f]] @ qv)
                              if (f := replay.fact(q, i)) else np.nan
                              for i in range(len(x))])
            row = ranks[q["id"]]
            questions.append(Question(q, shipped, plain, replay, row["dense"] or 99,
                                      row["wave"] or 99, row.get("kind", "")))
    keep = np.array([c in args.columns.split(",") for c in COLUMNS])
    for qq in questions:
        qq.cols = qq.cols * keep
    authors = sorted({author(qq.set) for qq in questions}, key=int)
    base_rank: dict[int, int] = {}
    blend_rank: dict[int, int] = {}
    weights = {}
    for held in authors:
        train = [qq for qq in questions if author(qq.set) != held]
        w = fit(train, args.l2) * keep
        weights[held] = w
        for n, qq in enumerate(questions):
            if author(qq.set) == held:
                base_rank[n] = qq.final_rank(qq.shipped)
                blend_rank[n] = qq.final_rank(qq.order(w))
    print("weights by held-out author:", {a: np.round(w, 2).tolist() for a, w in weights.items()})
    print("columns:", COLUMNS)
    groups: dict[str, list[int]] = collections.defaultdict(list)
    for n, qq in enumerate(questions):
        groups[qq.language].append(n)
        groups[f"{qq.language} {qq.kind}"].append(n)
        groups[qq.set].append(n)
    agree = sum(base_rank[n] == qq.engine for n, qq in enumerate(questions))
    print(f"replayed shipped order = engine's rank on {agree} / {len(questions)} questions")
    for group, ns in sorted(groups.items()):
        line = [f"{group} ({len(ns)})"]
        for k in (1, 5):
            e5 = np.mean([questions[n].dense <= k for n in ns]) * 100
            base = np.mean([base_rank[n] <= k for n in ns]) * 100
            blend = np.mean([blend_rank[n] <= k for n in ns]) * 100
            up = sum(blend_rank[n] <= k < base_rank[n] for n in ns)
            down = sum(base_rank[n] <= k < blend_rank[n] for n in ns)
            up_e = sum(blend_rank[n] <= k < questions[n].dense for n in ns)
            down_e = sum(questions[n].dense <= k < blend_rank[n] for n in ns)
            line.append(f"R@{k} e5 {e5:.1f} shipped {base:.1f} blend {blend:.1f} "
                        f"(vs shipped +{up}/-{down} p {sign_p(up, down):.2f}; "
                        f"vs e5 +{up_e}/-{down_e} p {sign_p(up_e, down_e):.2f})")
        print(" | ".join(line))


if __name__ == "__main__":
    main()
