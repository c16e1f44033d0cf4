"""Benchmark the semantic archive: upsert throughput and search latency for one user.

    .venv/bin/python scripts/bench_archive.py [--sizes 1000,10000,50000] [--queries 50]
                                              [--url http://host:6333] [--json]

For each size: a fresh store (local mode in a temporary directory unless --url), one user,
records with synthetic clustered unit vectors (384-d, like the bundled model's; 80% active,
15% superseded next to an active successor, 5% archived), upserted in batches of 500. Then
search latency p50/p95 through ``ArchiveStore.search`` with no status filter, the default
``("active",)``, the history set, and a rare status alone (``("archived",)``, which exercises the
exact fallback), plus, for comparison, Qdrant's own payload filter called directly, and the
time to reopen the directory, and how fast a second store on the held directory is refused. Finally one short query embedded by the bundled model, uncached
and cached. Prints a table (or JSON).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import tempfile
import time
import uuid
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np

from archive.errors import ArchiveLocked
from archive.models import ArchiveRecord
from archive.store import ArchiveStore

DIM = 384
MODEL = "bench-synthetic-384"
BATCH = 500
HISTORY = ("active", "superseded", "archived")


def synthetic(n: int, rng: np.random.Generator) -> tuple[np.ndarray, list[str]]:
    centres = rng.standard_normal((max(8, n // 50), DIM)).astype(np.float32)
    vectors = centres[rng.integers(0, len(centres), n)] + 0.6 * rng.standard_normal(
        (n, DIM)
    ).astype(np.float32)
    statuses = rng.choice(["active", "superseded", "archived"], size=n, p=[0.8, 0.15, 0.05])
    for i in np.flatnonzero(statuses == "superseded"):
        # A superseded record sits next to the record that replaced it.
        vectors[i] = vectors[(i + 1) % n] + 0.1 * rng.standard_normal(DIM).astype(np.float32)
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    return vectors, [str(s) for s in statuses]


def pct(samples: list[float], q: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


async def timed(fn: Callable[[], Awaitable[Any]], reps: int) -> dict[str, float]:
    await fn()  # warm
    samples = []
    for _ in range(reps):
        start = time.perf_counter()
        await fn()
        samples.append((time.perf_counter() - start) * 1000)
    return {"p50": round(statistics.median(samples), 1), "p95": round(pct(samples, 0.95), 1)}


def open_store(args: argparse.Namespace, path: Path) -> ArchiveStore:
    if args.url:
        return ArchiveStore.server(args.url, api_key=args.api_key, model_name=MODEL, dim=DIM)
    return ArchiveStore.local(path, model_name=MODEL, dim=DIM)


async def bench_size(args: argparse.Namespace, n: int, root: Path) -> dict[str, Any]:
    from qdrant_client import QdrantClient, models

    rng = np.random.default_rng(n)
    vectors, statuses = synthetic(n, rng)
    user = f"bench-{uuid.uuid4().hex[:8]}"
    path = root / f"qdrant-{n}"
    store = open_store(args, path)
    now = datetime.now(UTC).timestamp()
    records = [
        ArchiveRecord(
            fact_id=f"f-{i}", text=f"synthetic fact {i}", type="event", tier="fact",
            status=statuses[i], created_at=now - i, vector=vectors[i],
        )
        for i in range(n)
    ]
    start = time.perf_counter()
    for s in range(0, n, BATCH):
        await store.upsert(user, records[s : s + BATCH])
    upsert_s = time.perf_counter() - start
    assert await store.count(user) == n

    queries = rng.standard_normal((args.queries, DIM)).astype(np.float32)
    queries = 0.5 * queries / np.linalg.norm(queries, axis=1, keepdims=True)
    queries += vectors[rng.integers(0, n, args.queries)]
    cycle = iter(range(10**9))

    def q() -> np.ndarray:
        return queries[next(cycle) % len(queries)]

    out: dict[str, Any] = {"records": n, "upsert_per_s": round(n / upsert_s)}
    reps = args.queries
    out["search_all"] = await timed(lambda: store.search(user, q(), limit=10, statuses=None), reps)
    out["search_active"] = await timed(lambda: store.search(user, q(), limit=10), reps)
    out["search_history"] = await timed(
        lambda: store.search(user, q(), limit=10, statuses=HISTORY), reps
    )
    rare_reps = max(5, reps // 5)
    out["search_rare"] = await timed(
        lambda: store.search(user, q(), limit=10, statuses=("archived",)), rare_reps
    )
    collection = store.layout.collection(user)
    native = store.layout.scope(user, ("active",)) or models.Filter()

    async def qdrant_filter() -> None:
        query = q().tolist()
        await store._run(  # the alternative design: Qdrant's payload filter in local mode
            lambda c: c.query_points(collection, query=query, query_filter=native, limit=10)
        )

    out["qdrant_filter_active"] = await timed(qdrant_filter, rare_reps)
    start = time.perf_counter()
    assert len(await store.fact_ids(user)) == n
    out["fact_ids_s"] = round(time.perf_counter() - start, 2)
    if not args.url:
        # A second process-local store on the held directory: how fast it is refused.
        start = time.perf_counter()
        try:
            await open_store(args, path).open()
        except ArchiveLocked:
            out["locked_refusal_ms"] = round((time.perf_counter() - start) * 1000, 1)
        # The same refusal straight from qdrant-client, which loads every point first.
        start = time.perf_counter()
        try:
            QdrantClient(path=str(path))
        except RuntimeError:
            out["raw_client_refusal_ms"] = round((time.perf_counter() - start) * 1000, 1)
    await store.close()
    if not args.url:
        start = time.perf_counter()
        reopened = open_store(args, path)
        await reopened.open()
        out["reopen_s"] = round(time.perf_counter() - start, 2)
        await reopened.close()
    else:
        cleanup = open_store(args, path)
        await cleanup.drop_user(user)
        await cleanup.close()
    return out


async def bench_embedder(reps: int) -> dict[str, Any]:
    from archive.embedder import Embedder

    embedder = Embedder()
    start = time.perf_counter()
    await embedder.load()
    load_s = time.perf_counter() - start
    texts = iter(f"Что я говорил про встречу с Игорем в пятницу? {i}" for i in range(10**9))
    uncached = await timed(lambda: embedder.embed([next(texts)]), reps)
    cached = await timed(lambda: embedder.embed(["Что я говорил про встречу с Игорем?"]), reps)
    return {"load_s": round(load_s, 1), "query_uncached": uncached, "query_cached": cached}


def table(results: list[dict[str, Any]]) -> str:
    cols = ["search_all", "search_active", "search_history", "search_rare", "qdrant_filter_active"]
    head = (
        "| records | upsert/s | " + " | ".join(f"{c} p50/p95 ms" for c in cols)
        + " | fact_ids s | reopen s | locked refusal ms (raw client) |"
    )
    rows = [head, "|" + "---|" * (len(cols) + 5)]
    for r in results:
        cells = [f"{r[c]['p50']} / {r[c]['p95']}" for c in cols]
        rows.append(
            f"| {r['records']:,} | {r['upsert_per_s']:,} | " + " | ".join(cells)
            + f" | {r['fact_ids_s']} | {r.get('reopen_s', '-')} | {r.get('locked_refusal_ms', '-')}"
            + f" ({r.get('raw_client_refusal_ms', '-')}) |"
        )
    return "\n".join(rows)


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="1000,10000,50000")
    parser.add_argument("--queries", type=int, default=50)
    parser.add_argument("--url", default=None, help="a Qdrant server instead of local mode")
    parser.add_argument("--api-key", default=None)
    parser.add_argument("--no-embed", action="store_true", help="skip the embedder figures")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    sizes = [int(s) for s in args.sizes.split(",") if s.strip()]
    load_before = os.getloadavg()[0]
    with tempfile.TemporaryDirectory(prefix="wave-bench-archive-") as tmp:
        results = [await bench_size(args, n, Path(tmp)) for n in sizes]
    embed = None if args.no_embed else await bench_embedder(args.queries)
    load = f"{load_before:.1f} -> {os.getloadavg()[0]:.1f}"
    if args.json:
        print(json.dumps({"mode": "server" if args.url else "local", "sizes": results,
                          "embedder": embed, "load_average": load}, indent=2))
        return
    print(f"mode: {'server ' + args.url if args.url else 'local'}; limit 10; "
          f"{args.queries} queries per figure; load average {load} on {os.cpu_count()} cores")
    print(table(results))
    if embed:
        print(f"embedder: load {embed['load_s']} s; one query uncached p50/p95 "
              f"{embed['query_uncached']['p50']}/{embed['query_uncached']['p95']} ms, cached "
              f"{embed['query_cached']['p50']}/{embed['query_cached']['p95']} ms")


if __name__ == "__main__":
    import warnings

    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    # Qdrant advises a server past 20,000 points per collection; measuring that is the point.
    warnings.filterwarnings("ignore", message="Local mode is not recommended")
    asyncio.run(main())
