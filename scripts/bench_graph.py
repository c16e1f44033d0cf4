"""Benchmark the graph layer on a real Neo4j: fill one user's graph, then time the reads.

Fills one fresh user with N entities (default 2,000) and M facts (default 10,000; synthetic,
varied Russian and English text, each fact ABOUT 1-3 entities, co-mentioned entities
related), then reports write throughput and p50/p95 of the per-turn reads: full-text search,
two-hop neighbourhood, entities_in_text and resolve_entity. The user is deleted afterwards
unless --keep.

    .venv/bin/python scripts/bench_graph.py --uri bolt://127.0.0.1:17701

Not a test: it prints figures (record them in docs/benchmarks.md, "Graph").
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import statistics
import time
import uuid
from collections.abc import Awaitable, Callable
from datetime import timedelta
from typing import Any

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
from graph.store import GraphStore

FIRST = ["Игорь", "Марина", "Алексей", "Ольга", "Дмитрий", "Анна", "Сергей", "Елена", "Павел", "Наталья", "Михаил", "Татьяна", "Андрей", "Ирина", "Николай", "Светлана", "Виктор", "Юлия", "Артём", "Ксения", "John", "Mary", "Peter", "Kate", "Tom", "Anna", "Mark", "Julia", "Alex", "Nina"]
SYLLABLES = ["ва", "ле", "ри", "ко", "ма", "но", "ти", "ра", "су", "ге", "ло", "ди", "ка", "бо", "ни", "ту", "ше", "ля"]
LATIN = ["ka", "lo", "mi", "ra", "te", "no", "su", "vi", "de", "ba", "ri", "go"]
PLACES = ["Москва", "Казань", "Берлин", "Варшава", "Тбилиси", "Лиссабон", "Белград", "Ереван", "Алматы", "Прага", "Рига", "Вильнюс", "Сочи", "Самара", "Пермь", "London", "Paris", "Lisbon", "Warsaw", "Berlin"]
TOPICS = ["бег", "шахматы", "фотография", "кулинария", "джаз", "философия", "йога", "python", "rust", "gardening", "climbing", "chess", "photography", "investing", "history", "архитектура", "музыка", "кино"]
DAYS = ["понедельник", "вторник", "среду", "четверг", "пятницу", "субботу", "воскресенье"]

RU_TEMPLATES = (
    "{p} переехал в город {place}",
    "Встреча с {p} в {day} по проекту {proj}",
    "{p} работает в компании {org} над проектом {proj}",
    "Мне нравится {topic}, особенно по выходным",
    "Завтра созвон с {p} про {proj}, нужно подготовить отчёт",
    "{p} посоветовал книгу про {topic}",
    "Купил новые кроссовки за {n} рублей",
    "{p} и {p2} вместе учились в университете",
    "Отпуск планирую в городе {place} в {month} месяце",
    "Решил перейти в {org}, потому что там интереснее задачи",
)
EN_TEMPLATES = (
    "{p} moved to {place} in {year}",
    "Meeting with {p} about {proj} on Friday",
    "I prefer {topic} over watching TV in the evenings",
    "{org} hired {p} as a senior engineer",
    "{p} recommended a book about {topic}",
    "Deadline for {proj} is in {n} days",
    "{p} and {p2} are running the {proj} workshop together",
)


def _pseudo(rng: random.Random, parts: list[str], n: int) -> str:
    return "".join(rng.choice(parts) for _ in range(n)).capitalize()


def make_entities(rng: random.Random, user_id: str, count: int) -> list[Entity]:
    names: dict[str, EntityType] = {}
    kinds = [(EntityType.PERSON, 0.5), (EntityType.ORGANISATION, 0.15),
             (EntityType.PROJECT, 0.15), (EntityType.PLACE, 0.1), (EntityType.TOPIC, 0.1)]
    while len(names) < count:
        kind = rng.choices([k for k, _ in kinds], [w for _, w in kinds])[0]
        if kind is EntityType.PERSON:
            name = f"{rng.choice(FIRST)} {_pseudo(rng, SYLLABLES, 3)}ов"
        elif kind is EntityType.ORGANISATION:
            name = rng.choice([f"{_pseudo(rng, LATIN, 3)} Labs", f"Банк {_pseudo(rng, SYLLABLES, 3)}"])
        elif kind is EntityType.PROJECT:
            name = rng.choice([f"{_pseudo(rng, LATIN, 2)}{rng.randint(2, 99)}",
                               f"Проект {_pseudo(rng, SYLLABLES, 2)}"])
        elif kind is EntityType.PLACE:
            name = rng.choice(PLACES) + ("" if rng.random() < 0.02 else f" {_pseudo(rng, SYLLABLES, 2)}")
        else:
            name = f"{rng.choice(TOPICS)} {_pseudo(rng, LATIN, 2).lower()}"
        names.setdefault(name, kind)
    now = utcnow()
    return [Entity(new_id("e"), user_id, name, kind, created_at=now) for name, kind in names.items()]


def make_facts(rng: random.Random, user_id: str, count: int, entities: list[Entity]
               ) -> tuple[list[Fact], dict[str, list[str]]]:
    by_kind: dict[EntityType, list[Entity]] = {}
    for e in entities:
        by_kind.setdefault(e.type, []).append(e)
    facts: list[Fact] = []
    about: dict[str, list[str]] = {}
    now = utcnow()
    for i in range(count):
        used: list[Entity] = []

        def pick(kind: EntityType, used: list[Entity] = used) -> str:
            entity = rng.choice(by_kind[kind])
            used.append(entity)
            return entity.name

        template = rng.choice(RU_TEMPLATES if rng.random() < 0.65 else EN_TEMPLATES)
        values: dict[str, Any] = {}
        for key, kind in (("p", EntityType.PERSON), ("p2", EntityType.PERSON),
                          ("org", EntityType.ORGANISATION), ("proj", EntityType.PROJECT),
                          ("place", EntityType.PLACE), ("topic", EntityType.TOPIC)):
            if "{" + key + "}" in template:
                values[key] = pick(kind)
        values.update(day=rng.choice(DAYS), n=rng.randint(2, 900), year=rng.randint(2015, 2026),
                      month=rng.choice(["мае", "июне", "августе", "декабре"]))
        created = now - timedelta(minutes=rng.randint(0, 60 * 24 * 365))
        fact = Fact(
            id=new_id("f"), user_id=user_id, text=template.format(**values),
            type=rng.choice(list(FactType)), tier=rng.choice([Tier.OBSERVATION, Tier.FACT]),
            status=Status.ACTIVE if rng.random() < 0.85 else Status.SUPERSEDED,
            veracity=Veracity.STATED, confidence=1.0, created_at=created,
            last_confirmed_at=created, source_message_ids=(f"m-{i}",),
        )
        facts.append(fact)
        about[fact.id] = list(dict.fromkeys(e.id for e in used))
    return facts, about


def pct(samples: list[float]) -> str:
    q = statistics.quantiles(samples, n=100, method="inclusive")
    return f"p50 {q[49]:6.1f} ms  p95 {q[94]:6.1f} ms  max {max(samples):6.1f} ms"


async def timed(calls: list[Callable[[], Awaitable[Any]]]) -> tuple[list[float], list[Any]]:
    times: list[float] = []
    results: list[Any] = []
    for call in calls:
        start = time.perf_counter()
        results.append(await call())
        times.append((time.perf_counter() - start) * 1000)
    return times, results


async def purge(store: GraphStore, user_id: str) -> None:
    while True:
        records = await store._write(
            "MATCH (n) WHERE (n:Fact OR n:Entity OR n:EntityKey OR n:Proposal OR n:Conflict) "
            "AND n.user_id = $u WITH n LIMIT 2000 DETACH DELETE n RETURN count(*) AS c",
            u=user_id,
        )
        if not records or records[0]["c"] == 0:
            return


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--uri", default=os.environ.get("NEO4J_URI", "bolt://127.0.0.1:7687"))
    parser.add_argument("--facts", type=int, default=10_000)
    parser.add_argument("--entities", type=int, default=2_000)
    parser.add_argument("--queries", type=int, default=300)
    parser.add_argument("--batch", type=int, default=500)
    parser.add_argument("--singles", type=int, default=200,
                        help="of the facts, how many are written one call each (writer path)")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--keep", action="store_true", help="keep the bench user's data")
    args = parser.parse_args()

    rng = random.Random(args.seed)
    user_id = f"bench-{uuid.uuid4().hex[:8]}"
    store = await GraphStore.connect(args.uri, "neo4j", "wave-local")
    await store.ensure_schema()
    print(f"Neo4j {args.uri}; user {user_id}; {args.entities} entities, {args.facts} facts")
    try:
        entities = make_entities(rng, user_id, args.entities)
        facts, about = make_facts(rng, user_id, args.facts, entities)

        start = time.perf_counter()
        for i in range(0, len(entities), args.batch):
            await store.create_entities(entities[i : i + args.batch])
        took = time.perf_counter() - start
        print(f"entities: {len(entities)} in {took:.2f} s = {len(entities) / took:,.0f}/s "
              f"(create_entities, batches of {args.batch})")

        batched, singles = facts[: len(facts) - args.singles], facts[len(facts) - args.singles :]
        start = time.perf_counter()
        for i in range(0, len(batched), args.batch):
            await store.create_facts(batched[i : i + args.batch], about=about)
        took = time.perf_counter() - start
        print(f"facts:    {len(batched)} in {took:.2f} s = {len(batched) / took:,.0f}/s "
              f"(create_facts with ABOUT links, batches of {args.batch})")

        single_ms, _ = await timed([
            (lambda f=f: store.create_fact(f, about[f.id])) for f in singles
        ])
        print(f"create_fact one by one ({len(singles)}): {pct(single_ms)}  "
              f"= {len(singles) / (sum(single_ms) / 1000):,.0f}/s")

        relations = [
            Relation(user_id, ids[0], other, rng.choice(list(RelationType)), (fid,))
            for fid, ids in about.items() if len(ids) > 1 for other in ids[1:]
        ]
        start = time.perf_counter()
        stored = 0
        for i in range(0, len(relations), args.batch):
            stored += await store.relate_many(relations[i : i + args.batch])
        took = time.perf_counter() - start
        print(f"relations: {stored} in {took:.2f} s = {stored / took:,.0f}/s (relate_many)")

        # Warm-up, then the per-turn reads.
        sample = rng.sample(facts, min(args.queries, len(facts)))
        for f in sample[:20]:
            await store.fulltext_search(user_id, f.text)

        queries = []
        for f in sample:
            words = f.text.split()
            k = rng.randint(2, min(6, len(words)))
            start_at = rng.randint(0, len(words) - k)
            queries.append(" ".join(words[start_at : start_at + k]) + rng.choice(["", "?", " ли"]))
        ft_ms, ft_hits = await timed([
            (lambda q=q: store.fulltext_search(user_id, q, limit=20)) for q in queries
        ])
        print(f"fulltext_search (limit 20, {len(queries)} queries): {pct(ft_ms)}  "
              f"mean hits {statistics.mean(len(h) for h in ft_hits):.1f}")

        linked = [ids for ids in about.values() if ids]
        seeds = []
        for ids in rng.sample(linked, min(args.queries, len(linked))):
            seeds.append(rng.sample(ids, k=min(len(ids), rng.randint(1, 3))))
        nb_ms, nb_hits = await timed([
            (lambda s=s: store.neighbourhood(user_id, s, hops=2, limit=50)) for s in seeds
        ])
        print(f"neighbourhood (hops 2, limit 50, 1-3 seeds): {pct(nb_ms)}  "
              f"mean hits {statistics.mean(len(h) for h in nb_hits):.1f}")

        messages = [f"Слушай, вчера {f.text.lower()}, что думаешь об этом?" for f in sample]
        et_ms, et_hits = await timed([
            (lambda m=m: store.entities_in_text(user_id, m)) for m in messages
        ])
        print(f"entities_in_text ({args.entities} entities): {pct(et_ms)}  "
              f"mean found {statistics.mean(len(h) for h in et_hits):.1f}")

        names = [rng.choice(entities).name for _ in range(len(sample))]
        re_ms, _ = await timed([
            (lambda n=n: store.resolve_entity(user_id, n, create=False)) for n in names
        ])
        print(f"resolve_entity (existing, create=False): {pct(re_ms)}")

        turn_ms = [a + b + c for a, b, c in zip(ft_ms, nb_ms, et_ms, strict=False)]
        print(f"per-turn graph reads in sequence (entities_in_text + fulltext + neighbourhood): "
              f"{pct(turn_ms)}")
    finally:
        if not args.keep:
            await purge(store, user_id)
        await store.close()


if __name__ == "__main__":
    asyncio.run(main())
