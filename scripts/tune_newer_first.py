"""Pick ``RecallConfig.newer_first`` (recall.newer): replay the shipped ranker's order over the
memory sets' feature files, move each record that a newer one among the ten best says again
(raw e5 cosine >= the threshold) below it when the question asks about now, and print R@1 /
R@5 by question kind for each threshold: on the sets it is picked on and, apart, on the sets
it is checked on (``--check``, by name).

    for s in memory-ru memory-ru-2 ... memory-pl-13; do
        RECALL_RANKER=fusion wave bench memory --data bench/data/$s --features /tmp/f-$s.jsonl
    done
    .venv/bin/python scripts/tune_newer_first.py /tmp/f-memory-*.jsonl \
        --check memory-ru-11,memory-pl-11,memory-ru-12,memory-pl-12,memory-ru-13,memory-pl-13

The replay is the shipped trees and the attribute step (``train_ranker.scorer``), without MMR
and the entity step, which run after this one in the engine; the records' vectors are
embedded again from ``bench/data/<set>/facts.jsonl`` and their dates read there
(docs/benchmarks.md, "The newer record first").
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

import train_ranker as tr  # noqa: E402

from archive.embedder import Embedder  # noqa: E402
from wave_agent.recall.learned import FEATURES  # noqa: E402
from wave_agent.recall.newer import WINDOW, asks_now  # noqa: E402

THRESHOLDS = (0.88, 0.89, 0.90, 0.91, 0.92, 0.93)


def read_sets(names: set[str]) -> tuple[dict[tuple[str, str], tuple[np.datetime64, np.ndarray]],
                                         dict[tuple[str, str], tuple[str, str]]]:
    """Each fact's date and passage vector, each question's kind and text, by (set, id)."""
    embedder = Embedder()
    facts: dict[tuple[str, str], tuple[np.datetime64, np.ndarray]] = {}
    questions: dict[tuple[str, str], tuple[str, str]] = {}
    for name in sorted(names):
        folder = ROOT / "bench" / "data" / name
        rows = [json.loads(line) for line in (folder / "facts.jsonl").read_text().splitlines()
                if line.strip()]
        vectors = embedder.embed_sync([r["text"] for r in rows])
        for r, v in zip(rows, vectors, strict=True):
            facts[(name, r["id"])] = (np.datetime64(r["date"][:10]), v)
        for line in (folder / "questions.jsonl").read_text().splitlines():
            if line.strip():
                r = json.loads(line)
                questions[(name, r["id"])] = (r["kind"], r["text"])
    return facts, questions


def newer_first(q: dict[str, Any], s: np.ndarray, same: float, text: str,
                facts: dict[tuple[str, str], tuple[np.datetime64, np.ndarray]]) -> np.ndarray:
    """``s`` with ``recall.newer.newer_first`` applied to its ``WINDOW`` best."""
    x = q["x"]
    if x[0, FEATURES.index("preset_history")] or x[0, FEATURES.index("asked_past")] \
            or not asks_now(text):
        return s
    top = [i for i in np.argsort(-s, kind="stable")[:WINDOW]
           if q["keys"][i] and (q["set"], q["keys"][i][0]) in facts]
    said = [facts[(q["set"], q["keys"][i][0])] for i in top]
    below: dict[int, int] = {}
    for a in range(len(top)):
        for b in range(a + 1, len(top)):
            if said[b][0] > said[a][0] and float(said[a][1] @ said[b][1]) >= same:
                below[a] = b
    out = s.copy()
    for a, b in sorted(below.items(), key=lambda item: -item[1]):
        out[top[a]] = out[top[b]] - 1e-6
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("files", nargs="+", type=Path)
    parser.add_argument("--check", default="", help="sets held apart, comma-separated")
    args = parser.parse_args()
    check = {n for n in args.check.split(",") if n}
    questions = [q for q in tr.load(args.files) if q["set"].startswith("memory-")]
    facts, asked = read_sets({q["set"] for q in questions})
    score = tr.scorer(json.loads(tr.MODEL_PATH.read_text(encoding="utf-8")))
    base = [(q, np.asarray(score(q), dtype=np.float64)) for q in questions]
    for same in THRESHOLDS:
        rows: dict[tuple[str, str], list[tuple[dict[str, float], dict[str, float]]]] = \
            defaultdict(list)
        for q, s in base:
            kind, text = asked[(q["set"], q["id"])]
            moved = newer_first(q, s, same, text, facts)
            part = "checked on" if q["set"] in check else "picked on"
            pair = (tr.figures(q, np.argsort(-s, kind="stable")),
                    tr.figures(q, np.argsort(-moved, kind="stable")))
            for key in ((part, "all"), (part, kind),
                        (f"{part}, {'Polish' if '-pl' in q['set'] else 'Russian'}", "all")):
                rows[key].append(pair)
        print(f"threshold {same}")
        for (part, kind), pairs in sorted(rows.items()):
            before = [100 * np.mean([p[0][m] for p in pairs]) for m in ("R@1", "R@5")]
            after = [100 * np.mean([p[1][m] for p in pairs]) for m in ("R@1", "R@5")]
            print(f"  {part:22s} {kind:10s} n={len(pairs):4d}  {before[0]:5.1f} / {before[1]:5.1f}"
                  f" -> {after[0]:5.1f} / {after[1]:5.1f}"
                  f"  ({after[0] - before[0]:+.1f} / {after[1] - before[1]:+.1f})")


if __name__ == "__main__":
    main()
