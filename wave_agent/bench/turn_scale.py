"""The pre-LLM turn at scale on a Qdrant server (``wave bench scale --turn N``).

``wave bench turn`` loads its facts through the writer, which embeds every text: 100k texts
are hours of the embedding model on two cores. Here one fresh person gets ``count`` facts in
bulk instead: the graph through the real schema (``wave_agent.bench.graph_scale.load_graph``:
facts, entities, ABOUT links, relations) and the archive through ``ArchiveStore.upsert`` (the
records' fact ids, texts, types, statuses and times; vectors reused from ``VectorPool``, real
embeddings plus noise, see ``wave_agent.bench.scale``). The turn service then runs exactly as
in ``wave bench turn`` (``wave_agent.bench.turn``: a session with six exchanges in its
window, five warm-up turns, then the ``cached``, ``refreshed`` and ``session start`` turns
timed through ``TurnService.prepare``). The archive is a Qdrant server (``QDRANT_URL``/
``QDRANT_GRPC_PORT`` of the settings given); the bench waits for its index (status green)
before timing. The person is erased afterwards.

What differs from a person who wrote 100k facts: vectors are near copies of 2,000 real
embeddings (so semantic hits are less specific than real ones), and no core blocks or
episodes beyond the session. A benchmark, not a test.
"""

from __future__ import annotations

import asyncio
import time
import uuid
from typing import TYPE_CHECKING, Any

import numpy as np

from archive.models import ArchiveRecord
from wave_agent.bench.graph_scale import Progress, load_graph
from wave_agent.bench.scale import VectorPool
from wave_agent.settings import Settings

if TYPE_CHECKING:
    from wave_agent.bench.turn import Figures
    from wave_agent.services import Services


async def _index_green(settings: Settings, deadline_s: float) -> float:
    from qdrant_client import QdrantClient, models

    from archive.layout import PREFIX

    client = QdrantClient(url=settings.qdrant_url, api_key=settings.qdrant_api_key, timeout=60,
                          check_compatibility=False)
    started = time.perf_counter()
    try:
        while time.perf_counter() - started < deadline_s:
            names = [c.name for c in client.get_collections().collections]
            ours = [n for n in names if n.startswith(PREFIX + "__")]
            if all(client.get_collection(n).status == models.CollectionStatus.GREEN
                   for n in ours):
                break
            await asyncio.sleep(1.0)
    finally:
        client.close()
    return time.perf_counter() - started


async def bench_turn_at_scale(settings: Settings, count: int, *, turns: int = 60,
                              pool_size: int = 2_000, progress: Progress | None = None
                              ) -> tuple[list[Figures], dict[str, Any]]:
    from wave_agent.bench.turn import QUERIES, measure_turns
    from wave_agent.services import Services

    info: dict[str, Any] = {}
    async with Services(settings, autostart_neo4j=True) as services:
        graph = await services.graph()
        archive = await services.archive()
        pool = VectorPool(services.embedder(), pool_size)
        service = await services.turns()
        await service.warm_up()
        user_id = f"bench-turn-scale-{uuid.uuid4().hex[:6]}"
        try:
            started = time.perf_counter()
            facts, _, _ = await load_graph(graph, user_id, count, progress=progress)
            info["graph_load_s"] = round(time.perf_counter() - started, 1)
            rng = np.random.default_rng(3)
            started = time.perf_counter()
            for offset in range(0, len(facts), 1_000):
                chunk = facts[offset:offset + 1_000]
                vectors = pool.batch(rng, len(chunk))
                await archive.upsert(user_id, [
                    ArchiveRecord(fact_id=f.id, text=f.text, type=str(f.type), tier=str(f.tier),
                                  status=str(f.status), created_at=f.created_at,
                                  last_confirmed_at=f.last_confirmed_at, vector=vectors[i])
                    for i, f in enumerate(chunk)])
                if progress:
                    progress(f"archive {count:,}", offset + len(chunk), count)
            info["archive_load_s"] = round(time.perf_counter() - started, 1)
            info["index_wait_s"] = round(await _index_green(settings, 1_800), 1)
            figures = await measure_turns(services, service, user_id, count, turns)
            try:  # an extra view: it must not cost the figures above
                info["recall_voices_ms"] = await _voice_timings(services, user_id, QUERIES)
            except Exception as exc:
                info["recall_voices_ms"] = {}
                info["recall_voices_error"] = f"{type(exc).__name__}: {exc}"
        finally:
            await (await services.writer()).erase_user(user_id)
    return figures, info


async def _voice_timings(services: Services, user_id: str, queries: list[str]) -> dict[str, Any]:
    """Where recall's time goes: p50/p95 ms of each voice (``RecallResult.degraded``) over two
    rounds of the questions, called directly as the turn's auto-recall does."""
    from wave_agent.bench.scale import pct

    recall = await services.recall()
    seen: dict[str, list[float]] = {}
    for query in queries * 2:
        services.embedder().forget_cached()  # a new message: the semantic voice embeds it
        result = await recall.search(user_id, query, k=8)  # as the turn asks
        for name, ms in result.degraded.timings_ms.items():
            seen.setdefault(name, []).append(ms)
    return {name: [round(pct(v, 0.5), 1), round(pct(v, 0.95), 1)] for name, v in seen.items()}
