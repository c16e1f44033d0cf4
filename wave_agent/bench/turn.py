"""``wave bench turn``: p50/p95 of everything the turn does before the model call.

For each size (facts for one user) it loads that many distinct facts through the writer's
batch path (``remember_many``), opens a session with a few exchanges in its window, and times
``TurnService.prepare`` (session, cached base, auto-recall, composition) over varied messages:

- ``cached``: a normal turn, the session's base cached (the common case);
- ``refreshed``: a turn right after a write (the post-processor invalidated the notes, so the
  core blocks and notes are read again);
- ``session start``: the first turn of a session (snapshot, episodes, blocks, notes).

A benchmark, not a test: it prints figures; nothing asserts on them.
"""

from __future__ import annotations

import random
import statistics
import time
import uuid
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, Any

from wave_agent.conversation.composer import Exchange
from wave_agent.settings import Settings

if TYPE_CHECKING:
    from wave_agent.conversation.turn import TurnService
    from wave_agent.services import Services

NAMES = ["Anna", "Igor", "Ola", "Tom", "Marta", "Pavel", "Lena", "Kuba", "Sasha", "Nina"]
CITIES = ["Berlin", "Lisbon", "Warsaw", "Tbilisi", "Oslo", "Riga", "Porto", "Kyoto", "Quito"]
THINGS = ["green tea", "jazz", "running", "chess", "sushi", "Rust", "hiking", "film cameras",
          "board games", "sourdough", "cycling", "Python", "opera", "climbing", "podcasts"]
RU = ["Пользователь любит {t}", "Встреча с {n} в {c} стоила {p} евро",
      "Пользователь обещал {n} позвонить до пятницы", "Аренда в городе {c} стоит {p} евро"]
EN = ["The user met {n} in {c} and paid {p} euros for dinner",
      "The user prefers {t} over most things (note {i})",
      "{n} recommended {t} to the user in {c}",
      "The user decided to spend {p} euros on {t}",
      "The user's friend {n} moved to {c} in year {y}"]
QUERIES = ["where does Igor live now?", "what do I like to drink in the morning?",
           "сколько стоит аренда в Берлине?", "remind me what Anna recommended",
           "how much did I pay for dinner in Lisbon?", "что я обещал Павлу?",
           "which board games did I want to try?", "when did Ola move to Oslo?",
           "what did I decide about film cameras?", "кто посоветовал мне джаз?",
           "tell me about my running plans", "what was the price of the sushi place?"]


@dataclass(frozen=True, slots=True)
class Figures:
    facts: int
    scenario: str
    runs: int
    p50_ms: float
    p95_ms: float
    max_ms: float
    recall_p50_ms: float
    recall_p95_ms: float
    spent_chars_p50: float
    failed_sections: int


def fact_texts(count: int, seed: int = 7) -> list[str]:
    rng = random.Random(seed)
    texts: list[str] = []
    for i in range(count):
        template = rng.choice(RU if i % 4 == 0 else EN)
        texts.append(template.format(
            n=rng.choice(NAMES), c=rng.choice(CITIES), t=rng.choice(THINGS),
            p=rng.randint(5, 5000), i=i, y=rng.randint(1990, 2026)) + f" #{i}")
    return texts


def _pct(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))
    return ordered[index]


async def _load(services: Services, user_id: str, count: int) -> None:
    from graph.models import FactType, Veracity
    from wave_agent.write.writer import MemoryItem

    writer = await services.writer()
    texts = fact_texts(count)
    start = datetime.now(UTC) - timedelta(days=400)
    for offset in range(0, count, 1000):
        items = [
            MemoryItem(text, type=FactType.EVENT, veracity=Veracity.STATED,
                       created_at=start + timedelta(minutes=5 * (offset + i)))
            for i, text in enumerate(texts[offset:offset + 1000])
        ]
        await writer.remember_many(user_id, items)


async def _measure(turns: Any, user_id: str, runs: int, *, refresh: bool,
                   session_start: bool, count: int, scenario: str,
                   embedder: Any = None) -> Figures:
    """``runs`` turns of the 12 questions in turn. With ``embedder``, its cache is emptied
    before each, so every turn embeds its message as a new message is (a person rarely sends
    the same text twice); without, a repeated question's embedding is served from memory."""
    totals: list[float] = []
    recalls: list[float] = []
    spent: list[float] = []
    failed = 0
    for i in range(runs):
        if refresh:
            turns.memory_changed(user_id)
        if session_start:
            await turns.reset(user_id)
        query = QUERIES[i % len(QUERIES)]
        if embedder is not None:
            embedder.forget_cached()
        started = time.perf_counter()
        composition, timings = await turns.prepare_timed(user_id, query)
        totals.append((time.perf_counter() - started) * 1000)
        recalls.append(timings.get("excerpts", 0.0))
        spent.append(composition.spent_chars)
        failed += sum(1 for layer in composition.layers if "timed out" in layer.note
                      or "Error" in layer.note)
        current = turns.sessions.log.current(user_id)
        if session_start and current is not None:  # the next session start has one to end
            turns.sessions.log.add(current.id, user_id,
                                   Exchange(f"x-b{uuid.uuid4().hex[:8]}", query, "ok"))
    return Figures(count, scenario, runs, _pct(totals, 0.5), _pct(totals, 0.95), max(totals),
                   _pct(recalls, 0.5), _pct(recalls, 0.95), statistics.median(spent), failed)


async def bench_turn(settings: Settings, sizes: list[int], *, turns: int = 60) -> list[Figures]:
    from wave_agent.services import Services

    results: list[Figures] = []
    async with Services(settings, autostart_neo4j=True) as services:
        service = await services.turns()
        await service.warm_up()
        for count in sizes:
            user_id = f"bench-turn-{count}-{uuid.uuid4().hex[:6]}"
            await _load(services, user_id, count)
            results.extend(await measure_turns(services, service, user_id, count, turns))
            # The bench user must not stay in the person's stores: besides the clutter, its
            # records would count in the full-text index's statistics for everyone.
            await (await services.writer()).erase_user(user_id)
    return results


async def measure_turns(services: Services, service: TurnService, user_id: str, count: int,
                        turns: int) -> list[Figures]:
    """The three kinds of turn for a person whose ``count`` facts are loaded: a session with a
    few exchanges in its window (as in a conversation), five warm-up turns (model, page cache,
    query plans), then ``cached``, ``refreshed`` and ``session start``; every measured message
    is new to the embedder."""
    await service.prepare(user_id, "hello there, how are you?")
    session = service.sessions.log.current(user_id)
    assert session is not None
    for i in range(6):
        service.sessions.log.add(session.id, user_id, Exchange(
            f"x-w{i}-{uuid.uuid4().hex[:6]}", QUERIES[i], f"an answer about {THINGS[i]}"))
    for _ in range(5):
        await service.prepare(user_id, QUERIES[0])
    new = services.embedder()
    return [
        await _measure(service, user_id, turns, refresh=False, session_start=False,
                       count=count, scenario="cached", embedder=new),
        await _measure(service, user_id, max(10, turns // 2), refresh=True,
                       session_start=False, count=count, scenario="refreshed", embedder=new),
        await _measure(service, user_id, max(5, turns // 6), refresh=False,
                       session_start=True, count=count, scenario="session start", embedder=new),
    ]


def render(figures: list[Figures]) -> str:
    lines = [
        "| facts | turn | runs | p50 ms | p95 ms | max ms | recall p50 | recall p95 | chars spent p50 | failed sections |",
        "|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for f in figures:
        lines.append(
            f"| {f.facts:,} | {f.scenario} | {f.runs} | {f.p50_ms:.1f} | {f.p95_ms:.1f} | "
            f"{f.max_ms:.1f} | {f.recall_p50_ms:.1f} | {f.recall_p95_ms:.1f} | "
            f"{f.spent_chars_p50:,.0f} | {f.failed_sections} |"
        )
    return "\n".join(lines)
