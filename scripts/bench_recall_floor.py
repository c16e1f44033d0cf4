"""How much of the LoCoMo latency target the issue's own voices leave for everything else.

    NEO4J_URI=bolt://127.0.0.1:<port> .venv/bin/python scripts/bench_recall_floor.py \
        [--data /work/shared/data/locomo] [--conversation conv-41] [--rounds 2]

Replays one LoCoMo conversation (as ``wave bench locomo`` does: ``"<speaker>: <text>"``, event,
dated by its session) into a fresh user, the archive in a temporary directory. Then, per
question, interleaved, each path timed end to end (every query text made unique per path and
round, so no embedding cache answers):

- ``dense``: the dense baseline (its own embedder instance, query embedding + numpy cosine);
- ``floor sequential``: the least any recall with the issue's voices must do: embed the query,
  Qdrant top 60, Neo4j full-text top 60, one after the other, nothing fused;
- ``floor concurrent``: the same with the embedding and the full-text read concurrent, the
  embedding in a thread (as Wave does) and in a separate process (no shared interpreter lock);
- ``Wave Recall.search``: the whole recall (k=10).

Prints a table with p50, p95 and p95 over the dense baseline's p95. The user is deleted after.
"""

from __future__ import annotations

import argparse
import asyncio
import concurrent.futures as cf
import multiprocessing as mp
import os
import tempfile
import time
from collections.abc import Awaitable
from datetime import timedelta
from pathlib import Path
from typing import Any

import numpy as np

_model: Any = None


def _start_worker() -> None:
    global _model
    from archive.embedder import Embedder

    _model = Embedder("all-MiniLM-L6-v2")
    _model.embed_sync(["warm up"])


def _encode(texts: list[str]) -> np.ndarray:
    return _model.embed_sync(texts)  # type: ignore[no-any-return]


async def main(data: Path, name: str, rounds: int) -> None:
    from archive.embedder import Embedder
    from graph.models import FactType, Veracity
    from wave_agent.bench.locomo import record_text, turn_times
    from wave_agent.bench.locomo_data import load_conversations
    from wave_agent.recall import Recall
    from wave_agent.services import Services
    from wave_agent.settings import Settings
    from wave_agent.write.writer import MemoryItem

    conversation = next(c for c in load_conversations(data) if c.name == name)
    loop = asyncio.get_running_loop()
    worker = cf.ProcessPoolExecutor(1, mp_context=mp.get_context("spawn"),
                                    initializer=_start_worker)
    await loop.run_in_executor(worker, _encode, ["warm up"])
    with tempfile.TemporaryDirectory(prefix="wave-floor-") as scratch:
        settings = Settings(_env_file=None, data_dir=Path(scratch) / "data",
                            qdrant_path=Path(scratch) / "qdrant",
                            neo4j_uri=os.environ["NEO4J_URI"])
        async with Services(settings) as services:
            graph = await services.graph()
            archive = await services.archive()
            embedder = services.embedder()
            writer = await services.writer()
            dense_embedder = Embedder(settings.embedding_model)
            await embedder.embed(["warm up"])
            await dense_embedder.embed(["warm up"])

            user = f"bench-floor-{name}-{os.getpid()}"
            times = turn_times(conversation.turns)
            items = [
                MemoryItem(text=record_text(t), type=FactType.EVENT, veracity=Veracity.STATED,
                           created_at=at, speaker=t.speaker, source_message_ids=(t.dia_id,),
                           exchange_id=f"{name}:s{t.session}",
                           episode_date=t.at.date().isoformat())
                for t, at in zip(conversation.turns, times, strict=True)
            ]
            print(f"replaying {len(items)} turns of {name}...", flush=True)
            for start in range(0, len(items), 100):
                await writer.remember_many(user, items[start:start + 100])
            turn_vectors = await dense_embedder.embed([record_text(t) for t in conversation.turns])
            clock = max(times) + timedelta(hours=1)
            recall = Recall(graph, archive, embedder, clock=lambda: clock)

            timings: dict[str, list[float]] = {}

            async def timed(label: str, work: Awaitable[Any]) -> None:
                # ``work`` has not run yet: a coroutine (or a gather's tasks) starts at await
                started = time.perf_counter()
                await work
                timings.setdefault(label, []).append((time.perf_counter() - started) * 1000)

            async def semantic_in_thread(text: str) -> None:
                vector = (await embedder.embed([text]))[0]
                await archive.search(user, vector, limit=60, statuses=("active",))

            async def semantic_in_process(text: str) -> None:
                vector = (await loop.run_in_executor(worker, _encode, [text]))[0]
                await archive.search(user, vector, limit=60, statuses=("active",))

            async def dense(text: str) -> None:
                vector = (await dense_embedder.embed([text]))[0]
                np.argsort(-(turn_vectors @ vector))[:10]

            async def sequential(text: str) -> None:
                await semantic_in_thread(text)
                await graph.fulltext_search(user, text, limit=60)

            for round_ in range(1, rounds + 1):
                for question in conversation.questions:
                    q = question.text
                    await timed("dense (embed + numpy)", dense(q + " " * round_))
                    await timed("floor sequential (embed, Qdrant, full-text)",
                                sequential(q + " ." * round_))
                    await timed("floor concurrent, embedding in a thread", asyncio.gather(
                        semantic_in_thread(q + " ," * round_),
                        graph.fulltext_search(user, q, limit=60)))
                    await timed("floor concurrent, embedding in a process", asyncio.gather(
                        semantic_in_process(q + " ;" * round_),
                        graph.fulltext_search(user, q, limit=60)))
                    await timed("Wave Recall.search (k=10)",
                                recall.search(user, q + " !" * round_, k=10))

            for fact in await graph.list_facts(user):
                await writer.delete(user, fact.id)
    worker.shutdown()

    def pct(values: list[float], p: int) -> float:
        return round(float(np.percentile(values, p)), 1)

    base = pct(timings["dense (embed + numpy)"], 95)
    print(f"\n{name}: {len(conversation.questions)} questions x {rounds} rounds, interleaved")
    print("| path | p50 ms | p95 ms | p95 / dense p95 |\n|---|---|---|---|")
    for label, values in timings.items():
        print(f"| {label} | {pct(values, 50)} | {pct(values, 95)} | {pct(values, 95) / base:.2f} |")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", type=Path, default=Path("/work/shared/data/locomo"))
    parser.add_argument("--conversation", default="conv-41")
    parser.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args()
    asyncio.run(main(args.data, args.conversation, args.rounds))
