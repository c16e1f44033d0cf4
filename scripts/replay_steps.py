"""Replay recall's steps after the model over a memory bench run, to say where each loss arises.

Input: the ``--details`` and ``--features`` files of ``wave bench memory`` for some sets
(``DIR/<tag>-<set>.details.json`` and ``DIR/<tag>-<set>.features.jsonl``) and the facts' e5
vectors from ``scripts/train_query_adapter.py``'s cache (``--cache``: the newer-record step and
MMR read them; the feature files do not keep them). The shipped trees and ``after_model`` score
each question's kept candidates (``train_ranker.scorer``'s recipe), then, as the engine runs
them, the newer-record step (``recall.newer``), MMR (``fusion.mmr``: pool 40, rescaled cosine,
copies at 0.7 unless said on another day or with other numbers) and the attribute step.

Prints, per language: (1) each of Wave's rank-1 losses to plain e5 and misses at 5 put at the
first stage that leaves the answer out (the trees, the attribute step, the steps after the
model, never a candidate); (2) the attribute step where it fires, the trees alone against the
trees then the step; (3) R@1 / R@5 over a grid of the newer-record threshold and MMR's λ (at
0.90 / 0.75 it gives the engine's own figures). Round twenty-one in docs/benchmarks.md.

    python scripts/replay_steps.py /tmp/recall19 --tag base --cache /tmp/recall19/cache.npy
"""

from __future__ import annotations

import argparse
import collections
import json
import re
import sys
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

import train_ranker as tr  # noqa: E402

from wave_agent.bench.memory import load_set  # noqa: E402
from wave_agent.recall.fusion import mmr  # noqa: E402
from wave_agent.recall.learned import FEATURES, MODEL_PATH, LearnedRanker, after_model  # noqa: E402
from wave_agent.recall.newer import LEAST_DAYS, WINDOW, asks_now  # noqa: E402

NUMBERS = re.compile(r"\d+")
FLOOR = 0.75  # e5's calibration floor (policy.calibration): MMR's cosines are rescaled by it


def first(labels: np.ndarray, scores: np.ndarray) -> int:
    hits = np.flatnonzero(labels[np.argsort(-scores, kind="stable")])
    return int(hits[0]) + 1 if len(hits) else 99


class Replay:
    def __init__(self, data_dir: Path, name: str, vectors: np.ndarray) -> None:
        data = load_set(data_dir / name)
        self.index = {f.id: i for i, f in enumerate(data.facts)}
        self.at = {f.id: f.at for f in data.facts}
        self.text = {f.id: f.text for f in data.facts}
        self.questions = {q.id: q for q in data.questions}
        self.vectors = vectors

    def fact(self, q: dict[str, Any], i: int) -> str | None:
        keys = q["keys"][i]
        return keys[0] if keys and keys[0] in self.index else None

    def cos(self, a: str, b: str) -> float:
        return float(self.vectors[self.index[a]] @ self.vectors[self.index[b]])

    def newer(self, q: dict[str, Any], s: np.ndarray, same: float | None) -> np.ndarray:
        x, s = q["x"], np.array(s, dtype=np.float64)
        past, history = FEATURES.index("asked_past"), FEATURES.index("preset_history")
        if same is None or x[0, past] or x[0, history] or not asks_now(
                self.questions[q["id"]].text):
            return s
        top = [i for i in np.argsort(-s, kind="stable")[:WINDOW] if self.fact(q, i)]
        below: dict[int, int] = {}
        for a in range(len(top)):
            for b in range(a + 1, len(top)):
                fa, fb = self.fact(q, top[a]), self.fact(q, top[b])
                assert fa is not None and fb is not None
                older = (self.at[fb] - self.at[fa]).total_seconds() >= LEAST_DAYS * 86400
                if older and self.cos(fa, fb) >= same:
                    below[a] = b
        for a, b in sorted(below.items(), key=lambda item: -item[1]):
            s[top[a]] = s[top[b]] - 1e-6
        return s

    def mmr(self, q: dict[str, Any], s: np.ndarray, lam: float | None) -> np.ndarray:
        if lam is None:
            return s
        ids = {str(i): f for i in range(len(s)) if (f := self.fact(q, i))}

        def distinct(a: str, b: str) -> bool:
            fa, fb = ids[a], ids[b]
            return self.at[fa].date() != self.at[fb].date() or sorted(
                NUMBERS.findall(self.text[fa])) != sorted(NUMBERS.findall(self.text[fb]))

        chosen = mmr({i: float(s[int(i)]) for i in ids}, 10,
                     lambda a, b: (self.cos(ids[a], ids[b]) - FLOOR) / (1 - FLOOR),
                     lam=lam, pool=40, duplicate=0.7, distinct=distinct)
        out = np.full(len(s), -1e9)
        for n, i in enumerate(chosen):
            out[int(i)] = 100.0 - n
        return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("runs", type=Path, help="the directory of the bench's files")
    parser.add_argument("--tag", default="base")
    parser.add_argument("--cache", type=Path, default=Path("/tmp/query_adapter_vectors.npy"))
    parser.add_argument("--data", type=Path, default=ROOT / "bench" / "data")
    args = parser.parse_args()
    ranker = LearnedRanker.from_json(json.loads(Path(MODEL_PATH).read_text(encoding="utf-8")))
    cols = [FEATURES.index(n) for n in ("fused", "decay", "someone_else", "rr_asked")]
    asked = cols[3]

    def trees(q: dict[str, Any]) -> np.ndarray:
        x = q["x"]
        return np.asarray(after_model(
            ranker.score(x), x[:, cols[0]], x[:, cols[1]], x[:, cols[2]],
            ranker.weight_for(q["language"]), tr.OTHERS, x[:, asked], ranker.asked,
            ranker.confidence), dtype=np.float64)

    cache = np.load(args.cache, allow_pickle=True).item()
    causes: dict[tuple[str, str], collections.Counter[str]] = collections.defaultdict(
        collections.Counter)
    fired: dict[str, np.ndarray] = collections.defaultdict(lambda: np.zeros(4))
    grid: dict[tuple[str, float | None, float | None], np.ndarray] = collections.defaultdict(
        lambda: np.zeros(3))
    for path in sorted(args.runs.glob(f"{args.tag}-memory-*.features.jsonl")):
        name = path.name.removeprefix(f"{args.tag}-").removesuffix(".features.jsonl")
        language = name.split("-")[1]
        replay = Replay(args.data, name, cache[name]["facts"])
        details = json.loads(path.with_name(f"{args.tag}-{name}.details.json").read_text(
            encoding="utf-8"))[0]
        ranks = {r["id"]: r for r in details["ranks"]}
        for q in tr.load([path]):
            labels = tr.labels(q)
            base = trees(q)
            alone = first(labels, base)
            stepped = first(labels, tr.attribute_step(lambda _q, s=base: s)(q))
            engine, dense = ranks[q["id"]]["wave"] or 99, ranks[q["id"]]["dense"] or 99
            for k, lost in ((1, engine > 1 and dense == 1), (5, engine > 5)):
                if lost:
                    where = ("never a candidate" if not labels.any() else "the trees"
                             if alone > k else "the attribute step" if stepped > k
                             else "after the model (newer record, MMR, entity)")
                    causes[(language, f"R@{k}")][where] += 1
            if (q["x"][:, asked] > 0).any():
                fired[language] += [1, alone == 1, stepped == 1, dense == 1]
            for same in (None, 0.86, 0.88, 0.90, 0.92, 0.95):
                moved = replay.newer(q, base, same)
                for lam in (None, 0.75, 0.85, 0.95, 1.0):
                    picked = replay.mmr(q, moved, lam)
                    final = tr.attribute_step(lambda _q, s=picked: s)(q)
                    r = first(labels, final)
                    grid[(language, same, lam)] += [1, r == 1, r <= 5]
    for (language, k), counter in sorted(causes.items()):
        print(f"{language} losses at {k}: {dict(counter)}")
    for language, (n, alone, stepped, dense) in sorted(fired.items()):
        print(f"{language} attribute step fires on {int(n)}: R@1 trees {100 * alone / n:.1f}, "
              f"trees then step {100 * stepped / n:.1f}, plain e5 {100 * dense / n:.1f}")
    for (language, same, lam), (n, r1, r5) in sorted(grid.items(), key=str):
        print(f"{language} newer {same} MMR λ {lam}: R@1 {100 * r1 / n:.1f} R@5 {100 * r5 / n:.1f}")


if __name__ == "__main__":
    main()
