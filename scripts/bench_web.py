"""Benchmark the memory page's server time at N records (default 10,000) on a real Neo4j.

Fills one fresh user's graph with N facts (the graph store's batch write, as bench_graph.py:
the page only reads the graph for these pages) about 500 entities with relations, then times
the pages in process through the ASGI app (server time: routing, graph reads, templates; no
network, no browser): the records page (first page, a page deep in the list, a filter), a
record page, the entity page and its two-hop graph JSON. The user is deleted afterwards.

    NEO4J_URI=bolt://127.0.0.1:7687 .venv/bin/python scripts/bench_web.py --records 10000

Not a test: it prints figures (recorded in docs/benchmarks.md, "The memory page").
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import statistics
import tempfile
import time
import uuid
from datetime import timedelta
from pathlib import Path

import httpx

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
    utcnow,
)
from wave_agent.app.page_auth import login_url
from wave_agent.services import Services
from wave_agent.settings import Settings
from wave_agent.web.app import build_app

NAMES = ["Игорь", "Марина", "Ольга", "Анна", "Павел", "Kate", "John", "Zofia", "Marek", "Ирина"]


async def fill(services: Services, user_id: str, n: int) -> tuple[str, str]:
    graph = await services.graph()
    rnd = random.Random(7)
    now = utcnow()
    entities = [Entity(new_id("e"), user_id, f"{NAMES[i % len(NAMES)]} {i}", EntityType.PERSON)
                for i in range(500)]
    await graph.create_entities(entities)
    await graph.relate_many(Relation(user_id, entities[i].id, entities[(i * 7 + 1) % 500].id,
                                     RelationType.KNOWS) for i in range(500))
    tiers, statuses = list(Tier), [Status.ACTIVE] * 8 + [Status.SUPERSEDED, Status.ARCHIVED]
    batch: list[Fact] = []
    about: dict[str, list[Entity]] = {}
    for i in range(n):
        fact = Fact(new_id("f"), user_id, f"{NAMES[i % 10]} рассказала про поездку номер {i}: "
                    + "подробности " * rnd.randint(1, 20), rnd.choice(list(FactType)),
                    rnd.choice(tiers), rnd.choice(statuses), Veracity.STATED, 1.0,
                    now - timedelta(hours=i), now - timedelta(hours=i))
        batch.append(fact)
        about[fact.id] = [entities[rnd.randrange(500)], entities[0]] if i % 20 == 0 \
            else [entities[rnd.randrange(500)]]
        if len(batch) == 1000:
            await graph.create_facts(batch, about=about)
            batch, about = [], {}
    if batch:
        await graph.create_facts(batch, about=about)
    some = await graph.list_facts(user_id, limit=1)
    return some[0].id, entities[0].id


async def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--records", type=int, default=10_000)
    parser.add_argument("--runs", type=int, default=30)
    args = parser.parse_args()
    uri = os.environ.get("NEO4J_URI", "bolt://127.0.0.1:7687")
    user_id = f"bench-web-{uuid.uuid4().hex[:8]}"
    settings = Settings(_env_file=None, data_dir=Path(tempfile.mkdtemp()), neo4j_uri=uri)  # type: ignore[call-arg]
    async with Services(settings) as services:
        started = time.perf_counter()
        fact_id, entity_id = await fill(services, user_id, args.records)
        print(f"filled {args.records} records in {time.perf_counter() - started:.1f} s")
        app, web = build_app(services)
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://page") as client:
            login = login_url("http://page", web.secret, user_id, once=False)
            await client.get(login.removeprefix("http://page"))
            pages = {
                "records, page 1": "/records",
                f"records, page {args.records // 100}": f"/records?page={args.records // 100}",
                "records, tier=fact": "/records?tier=fact",
                "a record": f"/records/{fact_id}",
                "entity page": f"/entities/{entity_id}",
                "entity graph JSON (2 hops)": f"/entities/{entity_id}/graph.json",
            }
            print(f"{'page':32} {'p50 ms':>8} {'p95 ms':>8}")
            for name, path in pages.items():
                times = []
                for _ in range(args.runs):
                    t0 = time.perf_counter()
                    response = await client.get(path)
                    times.append((time.perf_counter() - t0) * 1000)
                    assert response.status_code == 200, (path, response.status_code)
                times.sort()
                print(f"{name:32} {statistics.median(times):8.1f} "
                      f"{times[int(0.95 * (len(times) - 1))]:8.1f}")
        await (await services.graph()).purge_user(user_id)


if __name__ == "__main__":
    asyncio.run(main())
