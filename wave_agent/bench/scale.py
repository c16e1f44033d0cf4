"""``wave bench scale``: the semantic archive from 10k to 1M records, local mode against a server.

For each size (records of one person) and backend it builds a fresh archive in a scratch
directory (Qdrant local mode, or a Qdrant server started from the binary on a free loopback
port with its own storage), writes the records in batches through ``ArchiveStore.upsert``,
then measures what a person would notice:

- **write rate**: records per second in batch (1,000 per call, vectors given);
- **filtered search p50/p95**: ``ArchiveStore.search(user, query, limit=10,
  statuses=("active",))``, the recall's semantic read (user scope + status filter);
- **reopen**: local: close the store, open it again, first search answered (local mode loads
  every point); server: stop the server process, start it on the same storage, first search
  answered;
- **index**: server only, the seconds after the last write until Qdrant's optimizer has built
  the per-tenant HNSW index (collection status green); searches are timed after it (before
  it, a search scans the unindexed segments: 268 / 384 ms p50 / p95 at 100k in a first run);
- **memory**: resident memory of what holds the vectors (this process for local mode, the
  server process otherwise), read from ``/proc``.

The "people" row writes ``per_person`` records for each of ``people`` people into the same
archive and searches random people.

**What is generated, what is reused.** Every record has its own text (Russian 50%, English
35%, Polish 15%; short notes, sentences, and paragraphs of a few hundred characters), id,
status (80% active, 15% superseded, 5% archived) and creation time over two years. Embedding
a million texts would take hours on two cores, so vectors are reused: a pool of real
embeddings (``pool`` generated texts through the configured model; dimension from the
embedder) is embedded once, and each record's vector is a pool vector plus small Gaussian
noise (norm ~0.3 before normalising), so no two points are identical and the neighbourhood
structure is that of real sentences. Queries are real embeddings of real questions.

A benchmark, not a test: it prints figures; nothing asserts on them.
"""

from __future__ import annotations

import asyncio
import os
import random
import tempfile
import time
import uuid
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from archive.models import ArchiveRecord
from archive.store import ArchiveStore

if TYPE_CHECKING:
    from archive.embedder import Embedder

BATCH = 1_000
NOISE = 0.3
STATUSES = ("active", "superseded", "archived")
STATUS_P = (0.8, 0.15, 0.05)
Progress = Callable[[str, int, int], None]

RU = ("Я пью {t} каждое утро", "Встреча с {n} в {c} перенесена на {d}",
      "{n} посоветовал мне {t}, и я попробовал это в {c}",
      "Аренда квартиры в {c} стоит {p} евро в месяц, я думаю о переезде",
      "Сегодня долго говорили с {n} о работе: проект в {c} затягивается, сроки сдвигаются на "
      "{d}, бюджет вырос до {p} евро, и я не уверен, что хочу продолжать в том же духе")
EN = ("I like {t}", "Met {n} in {c} on {d}", "{n} recommended {t} to me when we were in {c}",
      "Paid {p} euros for the flat in {c}; moving there on {d} if the job works out",
      "Long talk with {n} about the move to {c}: the offer is {p} euros, the team is small, "
      "the start date is {d}, and I still have to decide whether {t} fits around it")
PL = ("Lubię {t}", "Spotkanie z {n} w {c} przełożone na {d}",
      "{n} polecił mi {t}; w {c} kosztowało to {p} złotych",
      "Rozmawiałem z {n} o pracy w {c}: oferta {p} złotych, start {d}, trzeba zdecydować")
NAMES = ("Анна", "Игорь", "Ola", "Tom", "Marta", "Павел", "Lena", "Kuba", "Саша", "Nina")
CITIES = ("Казани", "Berlin", "Warszawie", "Lisbon", "Тбилиси", "Oslo", "Gdańsku", "Porto")
THINGS = ("зелёный чай", "jazz", "bieganie", "chess", "суши", "Rust", "górskie wędrówki",
          "film cameras", "настольные игры", "sourdough", "rower", "opera")
DAYS = ("пятницу", "Monday", "3 June", "15 maja", "следующую среду", "the weekend")
QUERIES = ("где сейчас живёт Игорь?", "что я пью по утрам?", "сколько стоит аренда в Берлине?",
           "what did Anna recommend?", "how much was the flat in Lisbon?",
           "kiedy jest spotkanie z Olą?", "what do I think about the move?",
           "что посоветовал Павел?", "czy lubię bieganie?", "when did I meet Tom in Oslo?",
           "какой бюджет у проекта в Казани?", "which board games did I want to try?")


@dataclass
class ScaleRow:
    backend: str
    scenario: str
    records: int
    write_per_s: float
    search_p50_ms: float
    search_p95_ms: float
    reopen_s: float
    memory_mb: float
    index_s: float = 0.0
    note: str = ""


def texts(count: int, seed: int) -> Iterator[str]:
    """Distinct record texts: a realistic mix of languages and lengths."""
    rng = random.Random(seed)
    for i in range(count):
        roll = rng.random()
        pool = RU if roll < 0.5 else EN if roll < 0.85 else PL
        length = rng.random()
        template = pool[0 if length < 0.25 else -1 if length > 0.85 else rng.randrange(1, len(pool) - 1)]
        yield template.format(n=rng.choice(NAMES), c=rng.choice(CITIES), t=rng.choice(THINGS),
                              d=rng.choice(DAYS), p=rng.randint(5, 5000)) + f" (#{i})"


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))] if ordered else 0.0


def rss_mb(pid: int) -> float:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


class VectorPool:
    """Real embeddings of generated texts; records reuse them with a little noise."""

    def __init__(self, embedder: Embedder, size: int) -> None:
        self.vectors = embedder.embed_sync(list(texts(size, seed=99)))
        self.queries = embedder.embed_sync(list(QUERIES))
        self.dim = int(self.vectors.shape[1])

    def batch(self, rng: np.random.Generator, n: int) -> np.ndarray:
        picks = self.vectors[rng.integers(0, len(self.vectors), n)]
        noisy = picks + rng.standard_normal(picks.shape).astype(np.float32) * (NOISE / np.sqrt(self.dim))
        normed: np.ndarray = noisy / np.linalg.norm(noisy, axis=1, keepdims=True)
        return normed


def records(pool: VectorPool, count: int, seed: int) -> Iterator[list[ArchiveRecord]]:
    rng = np.random.default_rng(seed)
    start = datetime(2024, 12, 1, tzinfo=UTC)
    source = texts(count, seed)
    for offset in range(0, count, BATCH):
        n = min(BATCH, count - offset)
        vectors = pool.batch(rng, n)
        statuses = rng.choice(len(STATUSES), size=n, p=STATUS_P)
        minutes = rng.integers(0, 2 * 365 * 24 * 60, n)
        yield [ArchiveRecord(fact_id=f"f-{seed}-{offset + i}", text=next(source), type="event",
                             tier="observation", status=STATUSES[int(statuses[i])],
                             created_at=start + timedelta(minutes=int(minutes[i])),
                             vector=vectors[i]) for i in range(n)]


class Backend:
    """A fresh archive of one kind under ``root``; ``reopen`` measures a restart."""

    def __init__(self, kind: str, root: Path, dim: int, qdrant_bin: Path | None,
                 grpc: bool = True) -> None:
        self.kind, self.root, self.dim, self.qdrant_bin = kind, root, dim, qdrant_bin
        self.grpc = grpc
        self.server: Any = None
        self.store = self._open()

    def _open(self) -> ArchiveStore:
        if self.kind == "local":
            return ArchiveStore.local(self.root / "qdrant", model_name="bench-scale", dim=self.dim)
        from wave_agent.infra import localqdrant

        if self.server is None:
            assert self.qdrant_bin is not None
            self.server = localqdrant.start(self.root / "server", binary=self.qdrant_bin)
        return ArchiveStore.server(self.server.url, model_name="bench-scale", dim=self.dim,
                                   timeout_s=120,
                                   grpc_port=self.server.grpc_port if self.grpc else None)

    async def settle(self, deadline_s: float = 900.0) -> tuple[float, bool]:
        """Server: wait until Qdrant's optimizer has indexed what was written (status green);
        a search before that scans unindexed segments. Returns the seconds waited and whether
        the collection turned green before ``deadline_s``."""
        if self.server is None:
            return 0.0, True
        from qdrant_client import QdrantClient, models

        from archive.layout import base_collection

        client = QdrantClient(url=self.server.url, timeout=60, check_compatibility=False)
        started = time.perf_counter()
        green = False
        try:
            while time.perf_counter() - started < deadline_s:
                info = await asyncio.to_thread(client.get_collection,
                                               base_collection("bench-scale", self.dim))
                if info.status == models.CollectionStatus.GREEN:
                    green = True
                    break
                await asyncio.sleep(1.0)
        finally:
            client.close()
        return time.perf_counter() - started, green

    def memory_mb(self) -> float:
        return rss_mb(self.server.pid if self.server else os.getpid())

    async def reopen(self, user: str, query: np.ndarray) -> float:
        await self.store.close()
        started = time.perf_counter()
        if self.server is not None:
            self.server.stop()
            self.server = None
        self.store = self._open()
        await self.store.search(user, query, limit=10)
        return time.perf_counter() - started

    async def close(self) -> None:
        await self.store.close()
        if self.server is not None:
            self.server.stop()


async def _write(store: ArchiveStore, user: str, pool: VectorPool, count: int, seed: int,
                 tick: Callable[[int], None]) -> float:
    spent = 0.0
    done = 0
    for batch in records(pool, count, seed):
        started = time.perf_counter()
        await store.upsert(user, batch)
        spent += time.perf_counter() - started
        done += len(batch)
        tick(done)
    return count / spent if spent else 0.0


async def _search(store: ArchiveStore, users: list[str], pool: VectorPool, runs: int) -> list[float]:
    rng = random.Random(5)
    for q in pool.queries[:3]:  # warm up
        await store.search(users[0], q, limit=10)
    samples = []
    for i in range(runs):
        started = time.perf_counter()
        await store.search(rng.choice(users), pool.queries[i % len(pool.queries)], limit=10,
                           statuses=("active",))
        samples.append((time.perf_counter() - started) * 1000)
    return samples


async def measure(kind: str, pool: VectorPool, *, people: int, per_person: int, queries: int,
                  qdrant_bin: Path | None, progress: Progress, scratch: Path,
                  grpc: bool = True, index_wait_s: float = 900.0) -> ScaleRow:
    scenario = "one person" if people == 1 else f"{people} people"
    total = people * per_person
    label = f"{kind} {scenario} {total:,}"
    root = Path(tempfile.mkdtemp(prefix=f"scale-{kind}-", dir=scratch))
    baseline = rss_mb(os.getpid())
    backend = Backend(kind, root, pool.dim, qdrant_bin, grpc)
    try:
        users = [f"scale-{uuid.uuid4().hex[:8]}" for _ in range(people)]
        spent = 0.0
        for n, user in enumerate(users):
            started = time.perf_counter()

            def tick(done: int, before: int = n * per_person) -> None:
                progress(label, before + done, total)

            await _write(backend.store, user, pool, per_person, seed=n + 1, tick=tick)
            spent += time.perf_counter() - started
        index_s, green = await backend.settle(index_wait_s)
        samples = await _search(backend.store, users, pool, queries)
        memory = backend.memory_mb() - (baseline if kind == "local" else 0.0)
        reopen = await backend.reopen(users[0], pool.queries[0])
    finally:
        await backend.close()
    if kind == "server":
        kind = "server gRPC" if grpc else "server REST"
    return ScaleRow(kind, scenario, total, round(total / spent, 1) if spent else 0.0,
                    round(pct(samples, 0.5), 2), round(pct(samples, 0.95), 2), round(reopen, 2),
                    round(memory, 1), round(index_s, 1),
                    "" if green else f"not green after {index_wait_s:.0f} s: part scanned")


def as_json(rows: list[ScaleRow]) -> list[dict[str, Any]]:
    return [asdict(r) for r in rows]


def run_sync(coro: Any) -> Any:
    return asyncio.run(coro)
