"""Write-path figures: the similarity thresholds on the measured RU/EN pairs, the latency of
one ``Writer.remember`` and the throughput of ``remember_many`` (the LoCoMo replay's path).

Real Neo4j (NEO4J_URI, e.g. `wave services up`), Qdrant local in a temporary directory, the
default embedding model (EMBEDDING_MODEL). The batch throughput is measured on Russian and on
English synthetic statements. Usage:

    NEO4J_URI=bolt://127.0.0.1:7687 .venv/bin/python scripts/bench_write_path.py [--n 100] [--batch 2000]
    ... scripts/bench_write_path.py --imports-only   # the number-change check and a priced import
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import tempfile
import time
import uuid
from collections import Counter
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "unit" / "policy"))

from archive.embedder import Embedder  # noqa: E402
from archive.store import ArchiveStore  # noqa: E402
from graph.store import GraphStore  # noqa: E402
from wave_agent.policy import similarity  # noqa: E402
from wave_agent.policy.judge import judge, needs_residual, residuals  # noqa: E402
from wave_agent.write.archive_sync import ArchiveSync  # noqa: E402
from wave_agent.write.writer import MemoryItem, Writer  # noqa: E402

SUBJECTS = ["Igor", "Anna", "the pilot", "the billing service", "my sister", "Oleg", "the office"]
VERBS = ["likes", "moved to", "mentioned", "decided on", "visited", "talked about", "bought"]
OBJECTS = ["Berlin", "jazz", "Postgres", "a new car", "the support group", "tea", "a painting"]
WHEN = ["in spring", "last winter", "with Maria", "after the trip", "before lunch", "at work",
        "in Kazan"]


SUBJECTS_RU = ["Игорь", "Анна", "Пилотный проект", "Сервис оплаты", "Моя сестра", "Олег",
               "Офис"]
VERBS_RU = ["любит", "переехал в", "упоминал", "выбрал", "посетил", "обсуждал", "купил"]
OBJECTS_RU = ["Берлин", "джаз", "Postgres", "новую машину", "группу поддержки", "зелёный чай",
              "картину"]
WHEN_RU = ["весной", "прошлой зимой", "с Марией", "после поездки", "перед обедом", "на работе",
           "в Казани"]


def synthetic(i: int, *, russian: bool = False) -> str:
    """Distinct statements without numbers (numbers would make them supersession candidates)."""
    subjects, verbs, objects, when = ((SUBJECTS_RU, VERBS_RU, OBJECTS_RU, WHEN_RU) if russian
                                      else (SUBJECTS, VERBS, OBJECTS, WHEN))
    return (f"{subjects[i % 7]} {verbs[(i // 7) % 7]} {objects[(i // 49) % 7]} "
            f"{when[(i // 343) % 7]}")


def thresholds(embedder: Embedder) -> None:
    from hygiene_pairs import NON, NUMBER_CHANGE, OPPOSITE, PARA, SWAPPED

    print("== similarity on the measured pairs (cosine / stemmed Jaccard / combined -> verdict)")
    for name, pairs in (("paraphrase", PARA), ("different", NON), ("negation", OPPOSITE),
                        ("number change", NUMBER_CHANGE), ("swapped word", SWAPPED)):
        sims = []
        for a, b in pairs:
            v = embedder.embed_sync([a, b])
            cos = float(v[0] @ v[1])
            residual = None
            if needs_residual(a, b):
                r = embedder.embed_sync(list(residuals(a, b)))
                residual = float(r[0] @ r[1])
            verdict = judge(a, b, cos, residual)
            sims.append(verdict.similarity)
            lang = "ru" if similarity.is_cyrillic(a) else "en"
            rest = f"{residual:.2f}" if residual is not None else "  - "
            print(f"  {name:13} {lang} cos={cos:.2f} lex={similarity.lexical(a, b):.2f} "
                  f"sim={verdict.similarity:.2f} leftover={rest} -> "
                  f"{verdict.relation.value:13} {a} | {b}")
        print(f"  {name}: combined similarity min {min(sims):.2f}, max {max(sims):.2f}")


async def timings(uri: str, n: int, batch: int, embedder: Embedder) -> None:
    graph = await GraphStore.connect(uri, "neo4j", "x")
    await graph.ensure_schema()
    with tempfile.TemporaryDirectory() as tmp:
        archive = ArchiveStore.local(Path(tmp) / "qdrant", model_name=embedder.model_name,
                                     dim=embedder.dim)
        writer = Writer(graph, ArchiveSync(embedder, archive))
        user = f"bench-{uuid.uuid4().hex[:8]}"
        await writer.remember(user, "warm-up record")
        took: list[float] = []
        outcomes: Counter[str] = Counter()
        for i in range(n):
            start = time.perf_counter()
            result = await writer.remember(user, synthetic(i), exchange_id=f"x{i}")
            took.append((time.perf_counter() - start) * 1000)
            outcomes[result.status.value] += 1
        took.sort()
        print(f"== remember(): {n} distinct facts, one user, growing from 1 to {n} records")
        print(f"  outcomes: {dict(outcomes)} (a 'confirmed' here is a false merge of two "
              "different synthetic statements)")
        print(f"  median {statistics.median(took):.1f} ms, p95 {took[int(0.95 * (n - 1))]:.1f} ms, "
              f"max {took[-1]:.1f} ms")
        confirm = []
        for i in range(min(n, 20)):
            start = time.perf_counter()
            result = await writer.remember(user, synthetic(i) + ".", exchange_id=f"y{i}")
            confirm.append((time.perf_counter() - start) * 1000)
            assert result.status.value == "confirmed", result.as_json()
        print(f"  confirmation of a repeat: median {statistics.median(confirm):.1f} ms")

        for russian in (True, False):
            user2 = f"bench-{uuid.uuid4().hex[:8]}"
            items = [MemoryItem(synthetic(i, russian=russian), exchange_id=f"s{i // 20}")
                     for i in range(batch)]
            start = time.perf_counter()
            results = await writer.remember_many(user2, items)
            took_s = time.perf_counter() - start
            created = sum(1 for r in results if r.status.value == "created")
            print(f"== remember_many(), {'Russian' if russian else 'English'}: {batch} records "
                  f"in one call: {took_s:.1f} s ({batch / took_s:.0f} records/s), "
                  f"{created} created")
            await writer.erase_user(user2)
        await writer.erase_user(user)
        await archive.close()
    await graph.close()


async def locomo_through_remember(uri: str, data: Path, embedder: Embedder) -> None:
    """Every turn of the first LoCoMo conversation through ``remember`` (the turn's path), to
    count what the hygiene does on real chat: confirmations, proposals, conflicts, quarantine."""
    from wave_agent.bench.locomo import record_text
    from wave_agent.bench.locomo_data import load_conversations

    conversation = load_conversations(data, limit=1)[0]
    graph = await GraphStore.connect(uri, "neo4j", "x")
    with tempfile.TemporaryDirectory() as tmp:
        archive = ArchiveStore.local(Path(tmp) / "qdrant", model_name=embedder.model_name,
                                     dim=embedder.dim)
        writer = Writer(graph, ArchiveSync(embedder, archive))
        user = f"bench-{uuid.uuid4().hex[:8]}"
        outcomes: Counter[str] = Counter()
        start = time.perf_counter()
        for turn in conversation.turns:
            result = await writer.remember(user, record_text(turn), created_at=turn.at,
                                           exchange_id=f"s{turn.session}")
            outcomes[result.status.value] += 1
            if result.status.value != "created":
                old = result.similar_to.text[:90] if result.similar_to else ""
                print(f"  {result.status.value} {result.similarity}: {old!r} <- "
                      f"{record_text(turn)[:90]!r}")
        took = time.perf_counter() - start
        print(f"== LoCoMo {conversation.name} through remember(): {len(conversation.turns)} turns "
              f"in {took:.0f} s: {dict(outcomes)}, conflicts {await graph.count_conflicts(user)}")
        await archive.close()
    await graph.close()


PRICED = ["Аренда квартиры на {s}", "Абонемент в бассейн у {s}", "Пилотный проект для {s}",
          "Страховка машины {s}", "Репетитор по английскому для {s}", "Czynsz za mieszkanie {s}",
          "The gym membership of {s}"]
PEOPLE = ["Игоря", "Анны", "Олега", "Маши", "Лены", "Кости", "Саши", "Оли", "Тани", "Димы"]


SYLLABLES = ["ка", "ро", "ми", "ле", "ту", "на", "ви", "зо"]


def priced(i: int, version: int) -> str:
    """Russian-first statements with numbers: subject ``i`` (a made-up name, "проект Каромиле",
    so every subject is its own) re-stated with a new price for each ``version``; all share
    "стоит", "рублей", "месяц" and one of seven templates."""
    word = "".join(SYLLABLES[(i >> shift) & 7] for shift in (0, 3, 6, 9)).capitalize()
    subject = PRICED[i % 7].format(s=f"{PEOPLE[(i // 7) % 10]} {word}")
    return f"{subject} стоит {40 + 5 * version + i % 13} 000 рублей в месяц"


def number_check_cost(existing_n: int, batch: int, every: int = 2) -> None:
    """The number-change check of ``remember_many`` alone (pure, no services): an import of
    ``batch`` records, one in ``every`` with a price, against ``existing_n`` active records
    (as many with prices). Its cost grows with (new prices) x (records in force that share
    their frequent words: "стоит", "рублей"), so every=2 is the hard case."""
    from datetime import timedelta

    from graph.models import Fact, FactType, Status, Tier, Veracity, new_id, utcnow
    from wave_agent.policy.batch_changes import number_changes

    def fact(text: str, k: int) -> Fact:
        when = utcnow() + timedelta(minutes=k)
        return Fact(id=new_id("f"), user_id="u", text=text, type=FactType.EVENT,
                    tier=Tier.OBSERVATION, status=Status.ACTIVE, veracity=Veracity.IMPORTED,
                    confidence=0.6, created_at=when, last_confirmed_at=when)

    existing = [fact(synthetic(i % 2401) if i % every else priced(i, 0), i)
                for i in range(existing_n)]
    new = [fact(synthetic((i + 1) % 2401) if i % every else priced(i, 1), i)
           for i in range(batch)]
    start = time.perf_counter()
    changes = number_changes(existing, new)
    took = time.perf_counter() - start
    print(f"== number-change check of remember_many: {batch} new (1 in {every} with a price) "
          f"against {existing_n} active: {took * 1000:.0f} ms ({batch / took:,.0f} records/s), "
          f"{len(changes)} proposals")


async def priced_import(uri: str, batch: int, embedder: Embedder) -> None:
    """``remember_many`` of ``batch`` records, half of them prices, into a user that already
    has the first version of half of those prices: each of those becomes a proposal."""
    graph = await GraphStore.connect(uri, "neo4j", "x")
    await graph.ensure_schema()
    with tempfile.TemporaryDirectory() as tmp:
        archive = ArchiveStore.local(Path(tmp) / "qdrant", model_name=embedder.model_name,
                                     dim=embedder.dim)
        writer = Writer(graph, ArchiveSync(embedder, archive))
        user = f"bench-{uuid.uuid4().hex[:8]}"
        await writer.remember_many(user, [MemoryItem(priced(i, 0)) for i in range(0, batch, 4)])
        items = [MemoryItem(synthetic(i) if i % 2 else priced(i, 1), exchange_id=f"s{i // 20}")
                 for i in range(batch)]
        start = time.perf_counter()
        results = await writer.remember_many(user, items)
        took_s = time.perf_counter() - start
        outcomes = Counter(r.status.value for r in results)
        print(f"== remember_many(): {batch} records, half with prices, in one call: {took_s:.1f} s "
              f"({batch / took_s:.0f} records/s), {dict(outcomes)}")
        await writer.erase_user(user)
        await archive.close()
    await graph.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--n", type=int, default=100)
    parser.add_argument("--batch", type=int, default=2000, help="at most 2401 distinct texts")
    parser.add_argument("--locomo", type=Path, default=None,
                        help="also replay the first LoCoMo conversation in DIR through remember()")
    parser.add_argument("--imports-only", action="store_true",
                        help="only the import path: the number-change check and a priced import")
    args = parser.parse_args()
    uri = os.environ.get("NEO4J_URI", "bolt://127.0.0.1:7687")
    number_check_cost(10_000, args.batch, every=10)
    number_check_cost(10_000, args.batch, every=2)
    embedder = Embedder()
    embedder.load_sync()
    if args.imports_only:
        asyncio.run(priced_import(uri, args.batch, embedder))
        return
    thresholds(embedder)
    asyncio.run(timings(uri, args.n, args.batch, embedder))
    if args.locomo is not None:
        asyncio.run(locomo_through_remember(uri, args.locomo, embedder))


if __name__ == "__main__":
    main()
