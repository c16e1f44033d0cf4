"""Benchmark maintenance and health on the real stores: one user with N synthetic records
(default 1,000: varied English texts, ages spread over two years, some states, some
paraphrase groups), then time a dry-run pass, a real pass, a second (idempotent) pass and
the health report. Also prints the paraphrase/unrelated similarity figures behind the
generalisation threshold (``maintenance.groups``).

    .venv/bin/python scripts/bench_maintenance.py --uri bolt://127.0.0.1:17709 --n 1000

Not a test: it prints figures (record them in docs/benchmarks.md, "Maintenance").
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import os
import random
import tempfile
import time
import uuid
from datetime import timedelta
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")

from graph.models import FactType, utcnow
from wave_agent.ops.health import health_report
from wave_agent.ops.maintenance.runner import run_maintenance
from wave_agent.policy import calibration
from wave_agent.services import Services
from wave_agent.settings import Settings
from wave_agent.write.writer import MemoryItem

SUBJECTS = ["Igor", "Anna", "the user", "his sister", "the landlord", "the team", "Marek",
            "the client", "his doctor", "the neighbour"]
VERBS = ["likes", "dislikes", "talks about", "worries about", "plans", "bought", "visited",
         "recommended", "cancelled", "finished"]
OBJECTS = ["jazz concerts", "the new office", "a trip to Krakow", "the garden", "a bicycle",
           "the quarterly report", "sourdough bread", "the dentist appointment", "chess lessons",
           "a mortgage", "the old car", "yoga classes", "a book about Rome", "the wedding"]
PARAPHRASE_SETS = [
    ("Igor always pays in advance", "With Igor we work on prepayment",
     "Igor prefers to pay upfront before work starts"),
    ("The user prefers green tea in the morning", "In the mornings he drinks green tea",
     "He likes starting the day with a cup of green tea"),
]
UNRELATED = ["The user lives in Berlin", "Anna works at Google", "The user has a dog named Rex",
             "The pilot project costs 150 thousand", "He is tired today",
             "He plans to run a marathon in May", "The user dislikes meetings before noon"]


def items(n: int, rng: random.Random) -> list[MemoryItem]:
    now = utcnow()
    out: list[MemoryItem] = []
    combos = list(itertools.product(SUBJECTS, VERBS, OBJECTS))
    rng.shuffle(combos)
    for i, (s, v, o) in enumerate(combos[:n]):
        age = rng.uniform(0, 730)
        kind = FactType.STATE if i % 10 == 0 else None
        valid = now - timedelta(days=1) if i % 20 == 0 else None
        out.append(MemoryItem(f"{s[0].upper()}{s[1:]} {v} {o}", type=kind,
                              created_at=now - timedelta(days=age), valid_until=valid,
                              exchange_id=f"x-{i % 400}"))
    for group in PARAPHRASE_SETS:
        for j, text in enumerate(group):
            out.append(MemoryItem(text, created_at=now - timedelta(days=3 + 7 * j)))
    return out


async def similarity_figures(services: Services) -> None:
    embedder = services.embedder()
    facts_text = [t for g in PARAPHRASE_SETS for t in g] + UNRELATED
    label = {t: i for i, g in enumerate(PARAPHRASE_SETS) for t in g}
    vectors = await embedder.embed(facts_text)
    same, diff = [], []
    from wave_agent.policy import judge

    for i, j in itertools.combinations(range(len(facts_text)), 2):
        a, b = facts_text[i], facts_text[j]
        score = judge.similarity_of(a, b, float(vectors[i] @ vectors[j]),
                                    calibration.of(embedder))
        (same if a in label and label.get(a) == label.get(b) else diff).append(score)
    print(f"paraphrase pairs: n={len(same)} min={min(same):.3f} max={max(same):.3f}; "
          f"other pairs: n={len(diff)} max={max(diff):.3f}; "
          f"threshold {calibration.of(embedder).paraphrase_min_en}")


async def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--uri", required=True)
    parser.add_argument("--n", type=int, default=1000)
    args = parser.parse_args()
    rng = random.Random(7)
    user = f"bench-maint-{uuid.uuid4().hex[:8]}"
    with tempfile.TemporaryDirectory() as tmp:
        settings = Settings(_env_file=None, data_dir=Path(tmp), neo4j_uri=args.uri)  # type: ignore[call-arg]
        async with Services(settings) as services:
            services.embedder().load_sync()
            await similarity_figures(services)
            writer = await services.writer()
            started = time.perf_counter()
            await writer.remember_many(user, items(args.n, rng))
            print(f"seeded {args.n + 6} records in {time.perf_counter() - started:.1f}s")
            for label, dry in (("dry run", True), ("real pass", False), ("second pass", False)):
                started = time.perf_counter()
                reports = await run_maintenance(services, dry_run=dry, user_ids=[user])
                took = time.perf_counter() - started
                print(f"{label}: {took:.1f}s; " + "; ".join(r.summary() for r in reports))
            started = time.perf_counter()
            report = await health_report(services, user)
            print(f"health: {time.perf_counter() - started:.1f}s; contradictions "
                  f"{report.contradictions}; clusters "
                  f"{len(report.users[0].near_duplicate_clusters)}")
            graph = await services.graph()
            for fact in await graph.list_facts(user):
                await writer.delete(user, fact.id)
            for p in await graph.list_proposals(user, status=None):
                await graph._write("MATCH (n:Proposal {id: $id}) DETACH DELETE n", id=p.id)


if __name__ == "__main__":
    asyncio.run(main())
