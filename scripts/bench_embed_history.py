"""Embedding one LongMemEval history the way the writer does, on one torch thread and on two.

Usage: ``PYTHONPATH=. python scripts/bench_embed_history.py [--questions 2] [--threads 1,2,auto]``

Each question's turns are cut into the writer's pieces (``MAX_FACT_CHARS``), tokenised as the
torch path does, and embedded as passages in the writer's batch size, once per thread setting.
Prints records, tokens, tokenising time, and for each setting the wall and CPU seconds and
tokens per wall second, with the one-minute load average before and after: figures taken
while other processes hold the cores are not quiet-machine figures. ``auto`` is what an import
uses (``archive.embedder.bulk_threads``: the cores the machine leaves idle).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

DATA = Path(os.environ.get("WAVE_LME_DATA", "/work/shared/data/longmemeval/longmemeval_s_dev60.json"))


def main() -> int:
    import torch

    from archive.e5 import E5Model
    from archive.embedder import BATCH_SIZE, CPU_THREADS, bulk_threads
    from wave_agent.policy.edge_input import pieces
    from wave_agent.write.writer import MAX_FACT_CHARS

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=DATA)
    parser.add_argument("--questions", type=int, default=1)
    parser.add_argument("--threads", default="1,auto")
    args = parser.parse_args()
    if not args.data.exists():
        sys.stderr.write(f"no LongMemEval file at {args.data}: give --data FILE\n")
        return 2
    items = json.loads(args.data.read_text(encoding="utf-8"))[: args.questions]
    model = E5Model()
    model._load_weights()
    for item in items:
        texts = [p for session in item["haystack_sessions"] for turn in session
                 for p in pieces(turn["content"], MAX_FACT_CHARS)]
        started = time.perf_counter()
        tokens = sum(len(model.token_ids(t, query=False)) for t in texts)
        tokenise = time.perf_counter() - started
        print(f"{item['question_id']}: {len(texts)} records, {tokens} tokens, "
              f"tokenising {tokenise:.1f} s")
        for setting in args.threads.split(","):
            load = os.getloadavg()[0]
            threads = bulk_threads(CPU_THREADS) if setting == "auto" else int(setting)
            torch.set_num_threads(threads)
            wall, cpu = time.perf_counter(), time.process_time()
            model.encode(texts, query=False, batch_size=BATCH_SIZE)
            wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
            print(f"  threads {setting} ({threads}): wall {wall:.1f} s, cpu {cpu:.1f} s, "
                  f"{tokens / wall:.0f} tokens/s, load {load:.1f} -> {os.getloadavg()[0]:.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
