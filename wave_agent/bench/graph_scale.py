"""The graph side of ``wave bench scale``: Neo4j full-text and two-hop reads at a size.

For one fresh person it loads ``count`` facts in bulk through the real schema (``GraphStore``:
``ensure_schema``, ``create_entities``, ``create_facts`` with ABOUT links, ``relate_many``: the
same nodes, relationships and indexes the writer makes), then times the two per-turn graph
reads recall makes: ``fulltext_search`` (limit 20, active facts) and ``neighbourhood`` (two
hops from 1-3 seed entities, limit 50). The person is deleted afterwards.

**What is generated, what is reused.** Fact texts are ``wave_agent.bench.scale.texts`` (the
same generated RU/EN/PL texts the archive rows store); entities are ``count / 5`` (at most
20,000) generated names; each fact is ABOUT 1-3 of them and co-mentioned entities are related,
as in ``scripts/bench_graph.py``. Statuses 85% active, 15% superseded. Full-text queries are
2-6 consecutive words of stored texts; nothing is embedded (the graph holds no vectors).

A benchmark, not a test: it prints figures; nothing asserts on them.
"""

from __future__ import annotations

import random
import time
import uuid
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from functools import partial
from typing import TYPE_CHECKING, Any

from wave_agent.bench.scale import CITIES, NAMES, THINGS, pct, texts

if TYPE_CHECKING:
    from graph.store import GraphStore

BATCH = 1_000
MAX_ENTITIES = 20_000
Progress = Callable[[str, int, int], None]


@dataclass
class GraphRow:
    facts: int
    entities: int
    relations: int
    load_per_s: float
    fulltext_p50_ms: float
    fulltext_p95_ms: float
    two_hop_p50_ms: float
    two_hop_p95_ms: float
    fulltext_hits: float
    two_hop_hits: float


async def load_graph(store: GraphStore, user_id: str, count: int, *, seed: int = 11,
                     progress: Progress | None = None) -> tuple[list[Any], dict[str, list[str]],
                                                                int]:
    """``count`` facts of ``user_id`` in bulk; returns (facts, fact id -> entity ids, relations)."""
    from graph.models import (
        Entity,
        EntityType,
        Fact,
        FactType,
        Relation,
        RelationType,
        Status,
        Tier,
        Veracity,
        new_id,
    )

    rng = random.Random(seed)
    kinds = list(EntityType)
    n_entities = max(50, min(count // 5, MAX_ENTITIES))
    entities = [Entity(new_id("e"), user_id,
                       f"{rng.choice(NAMES + CITIES + THINGS)} {i}", rng.choice(kinds))
                for i in range(n_entities)]
    for i in range(0, len(entities), BATCH):
        await store.create_entities(entities[i:i + BATCH])
    ids = [e.id for e in entities]
    start = datetime(2024, 12, 1, tzinfo=UTC)
    facts: list[Fact] = []
    about: dict[str, list[str]] = {}
    relations = 0
    source = texts(count, seed)
    for offset in range(0, count, BATCH):
        chunk: list[Fact] = []
        for i in range(min(BATCH, count - offset)):
            created = start + timedelta(minutes=rng.randrange(2 * 365 * 24 * 60))
            fact = Fact(id=new_id("f"), user_id=user_id, text=next(source),
                        type=rng.choice(list(FactType)), tier=Tier.OBSERVATION,
                        status=Status.ACTIVE if rng.random() < 0.85 else Status.SUPERSEDED,
                        veracity=Veracity.STATED, confidence=1.0, created_at=created,
                        last_confirmed_at=created, source_message_ids=(f"m-{offset + i}",))
            chunk.append(fact)
            about[fact.id] = rng.sample(ids, rng.randint(1, 3))
        await store.create_facts(chunk, about=about)
        links = [Relation(user_id, about[f.id][0], other, rng.choice(list(RelationType)), (f.id,))
                 for f in chunk if len(about[f.id]) > 1 for other in about[f.id][1:]]
        relations += await store.relate_many(links)
        facts.extend(chunk)
        if progress:
            progress(f"graph {count:,}", offset + len(chunk), count)
    return facts, about, relations


async def purge(store: GraphStore, user_id: str) -> None:
    """Delete the bench person (batches, so a big graph does not need one huge transaction)."""
    while True:
        records = await store._write(
            "MATCH (n) WHERE (n:Fact OR n:Entity OR n:EntityKey) AND n.user_id = $u "
            "WITH n LIMIT 5000 DETACH DELETE n RETURN count(*) AS c", u=user_id)
        if not records or records[0]["c"] == 0:
            return


async def _timed(calls: list[Callable[[], Awaitable[list[Any]]]]) -> tuple[list[float], float]:
    samples: list[float] = []
    hits = 0
    for call in calls:
        started = time.perf_counter()
        hits += len(await call())
        samples.append((time.perf_counter() - started) * 1000)
    return samples, hits / max(1, len(calls))


async def measure_graph(store: GraphStore, count: int, *, queries: int = 100,
                        progress: Progress | None = None) -> GraphRow:
    user_id = f"scale-graph-{uuid.uuid4().hex[:8]}"
    rng = random.Random(count)
    try:
        started = time.perf_counter()
        facts, about, relations = await load_graph(store, user_id, count, progress=progress)
        spent = time.perf_counter() - started
        sample = rng.sample(facts, min(queries, len(facts)))
        phrases = []
        for fact in sample:
            words = fact.text.split()
            k = rng.randint(2, min(6, len(words)))
            at = rng.randint(0, len(words) - k)
            phrases.append(" ".join(words[at:at + k]))
        seeds = [rng.sample(about[f.id], rng.randint(1, len(about[f.id]))) for f in sample]
        for phrase in phrases[:10]:  # warm-up: query plans, page cache
            await store.fulltext_search(user_id, phrase)
        for ids in seeds[:10]:
            await store.neighbourhood(user_id, ids, hops=2, limit=50)
        ft, ft_hits = await _timed([partial(store.fulltext_search, user_id, p, limit=20)
                                    for p in phrases])
        nb, nb_hits = await _timed([partial(store.neighbourhood, user_id, s, hops=2, limit=50)
                                    for s in seeds])
    finally:
        await purge(store, user_id)
    return GraphRow(count, max(50, min(count // 5, MAX_ENTITIES)), relations,
                    round(count / spent, 1) if spent else 0.0,
                    round(pct(ft, 0.5), 2), round(pct(ft, 0.95), 2),
                    round(pct(nb, 0.5), 2), round(pct(nb, 0.95), 2),
                    round(ft_hits, 1), round(nb_hits, 1))
