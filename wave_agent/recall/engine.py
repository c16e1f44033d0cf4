"""``Recall``: one query, four voices, fused (DESIGN section 5; seed ``001``).

1. The query's intent picks a preset (voice weights, how strongly decay applies).
2. Concurrently: the query is embedded once and the semantic voice searches the archive; the
   lexical voice searches Neo4j full-text; the temporal voice lists recent active records;
   the graph voice walks two hops from the entities the query names.
   As soon as a text voice (lexical, semantic) answers, its candidates are read from the
   graph with the records said right before and after each (their context), while the
   other voices still run; the semantic voice's records are loaded by that same read.
3. Second round, concurrently: the graph voice also walks from the strongest seeds'
   entities, and the stored vectors of the candidates and their neighbours are read.
4. Weighted RRF over the voices; context borrowing from neighbours; each score scaled by
   the type's Weibull decay, the confidence and the status; MMR picks the final ``k``.

Each voice has a timeout; a failing one is dropped and noted in ``last_degraded``.
"""

from __future__ import annotations

import asyncio
import logging
import re
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

import numpy as np

from graph.models import Fact, Status, utcnow
from wave_agent.recall import decay, fusion, voices
from wave_agent.recall.presets import VOICES, Preset, resolve

log = logging.getLogger("wave.recall")

SELF_WEIGHT = 2.0


@dataclass(frozen=True, slots=True)
class RecallHit:
    fact: Fact
    score: float
    ranks: dict[str, int | None] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class RecallConfig:
    depth: int = 40            # candidates asked of each text voice
    temporal_depth: int = 20
    graph_depth: int = 30
    seeds: int = 3             # strongest candidates whose entities are walked (graph voice)
    context_window_s: float = 300.0
    context_per_seed: int = 2
    voice_timeout_s: float = 1.0
    mmr_pool: int = 40
    context_seeds: int = 80    # best text candidates loaded with their neighbours in time


class Recall:
    """Hybrid recall over the graph (system of record) and the archive (derived index)."""

    def __init__(
        self,
        graph: Any,
        archive: Any | None,
        embedder: Any,
        *,
        config: RecallConfig | None = None,
        clock: Callable[[], datetime] = utcnow,
        archive_problem: str | None = None,
    ) -> None:
        self.graph = graph
        self.archive = archive
        self.embedder = embedder
        self.config = config or RecallConfig()
        self.clock = clock
        self.archive_problem = archive_problem
        self.last_degraded = voices.Degraded()
        self.last_preset: Preset | None = None

    async def search(
        self,
        user_id: str,
        query: str,
        *,
        k: int = 5,
        history: bool = False,
        preset: Preset | str | None = None,
    ) -> list[RecallHit]:
        """The ``k`` best records for ``query``, best first; never raises for a failing voice."""
        chosen = resolve(preset, query)
        self.last_preset = chosen
        degraded = voices.Degraded()
        self.last_degraded = degraded
        if not query.strip() or k <= 0:
            return []
        cfg = self.config
        statuses = voices.statuses_for(history)
        timeout = cfg.voice_timeout_s
        started = time.perf_counter()

        results: dict[str, voices.VoiceResult] = {}
        query_entities: list[str] = []
        # Each text voice's candidates are loaded with their neighbours in time as soon as
        # that voice answers (the semantic one's while the others still run), not after all.
        around: dict[str, tuple[Fact, list[Fact]]] = {}
        asked: set[str] = set()

        async def fetch_context(step: str, ids: Sequence[str]) -> None:
            wanted = [i for i in ids if i not in asked][: cfg.context_seeds]
            if not wanted:
                return
            asked.update(wanted)
            found: dict[str, tuple[Fact, list[Fact]]] = await voices.guarded(
                step,
                lambda: self.graph.context_of(
                    user_id, wanted, window_s=cfg.context_window_s,
                    per_fact=cfg.context_per_seed, statuses=statuses),
                {}, timeout, degraded)
            around.update(found)

        async def run_semantic() -> None:
            if self.archive is None:
                degraded.reasons["semantic"] = self.archive_problem or "archive not open"
                return
            async def go() -> voices.VoiceResult:
                vector = (await self.embedder.embed([query]))[0]
                return await voices.semantic(self.archive, user_id, vector, statuses, cfg.depth)
            results["semantic"] = await voices.guarded(
                "semantic", go, voices.VoiceResult(), timeout, degraded)
            await fetch_context("context-semantic", results["semantic"].ids)

        async def run_lexical() -> None:
            results["lexical"] = await voices.guarded(
                "lexical", lambda: voices.lexical(self.graph, user_id, query, statuses, cfg.depth),
                voices.VoiceResult(), timeout, degraded)
            await fetch_context("context-lexical", results["lexical"].ids)

        async def run_temporal() -> None:
            results["temporal"] = await voices.guarded(
                "temporal",
                lambda: voices.temporal(self.graph, user_id, statuses, cfg.temporal_depth),
                voices.VoiceResult(), timeout, degraded)

        async def run_graph() -> None:
            async def go() -> voices.VoiceResult:
                ids = await voices.mentioned_entities(self.graph, user_id, query)
                query_entities.extend(ids)
                return await voices.graph_walk(self.graph, user_id, ids, statuses, cfg.graph_depth)
            results["graph"] = await voices.guarded(
                "graph", go, voices.VoiceResult(), timeout, degraded)

        async with asyncio.TaskGroup() as group:
            group.create_task(run_semantic())
            group.create_task(run_lexical())
            group.create_task(run_temporal())
            group.create_task(run_graph())

        facts: dict[str, Fact] = {}
        for result in results.values():
            facts.update(result.facts)
        rankings: dict[str, list[str]] = {
            name: results[name].ids for name in VOICES if name in results}
        first, _ = fusion.weighted_rrf(rankings, chosen.weights)
        seeds = sorted(first, key=lambda i: -first[i])
        lexical_scores = results["lexical"].scores if "lexical" in results else {}
        query_vector = results["semantic"].query_vector if "semantic" in results else None

        # The text candidates with the records said right before and after each (their
        # context); the semantic voice's candidates are loaded here too.
        links: dict[str, list[str]] = {}
        for seed, (seed_fact, near) in around.items():
            facts.setdefault(seed, seed_fact)
            for other in near:
                facts.setdefault(other.id, other)
                links.setdefault(seed, [])
                if other.id not in links[seed]:
                    links[seed].append(other.id)
                links.setdefault(other.id, [])
                if seed not in links[other.id]:
                    links[other.id].append(seed)

        # Second round: walk from the strongest seeds' entities.
        seed_walk = voices.VoiceResult()

        async def walk_seeds() -> None:
            nonlocal seed_walk
            strongest = seeds[: cfg.seeds]
            if not strongest:
                return

            async def go() -> voices.VoiceResult:
                entity_ids = await self.graph.entities_of(user_id, strongest)
                entity_ids = [e for e in entity_ids if e not in query_entities]
                return await voices.graph_walk(self.graph, user_id, entity_ids, statuses,
                                               cfg.graph_depth)
            seed_walk = await voices.guarded("graph-seeds", go, voices.VoiceResult(), timeout,
                                             degraded)

        # Concurrently with that walk: the stored vectors of the candidates and their
        # neighbours (context windows and MMR); nothing is embedded again.
        pool = [i for i in dict.fromkeys([*seeds, *links]) if i in facts]
        vectors: dict[str, np.ndarray] = {}
        archive = self.archive

        async def fetch_vectors() -> None:
            nonlocal vectors
            if archive is not None and query_vector is not None and pool:
                vectors = await voices.guarded(
                    "vectors", lambda: archive.vectors(user_id, pool), {}, timeout, degraded)

        async with asyncio.TaskGroup() as group:
            group.create_task(walk_seeds())
            group.create_task(fetch_vectors())

        facts.update(seed_walk.facts)
        graph_ids = list(rankings.get("graph", []))
        graph_ids += [i for i in seed_walk.ids if i not in graph_ids]
        rankings["graph"] = graph_ids
        rankings.update(context_rankings(pool, links, facts, lexical_scores, vectors,
                                         query_vector, cfg.depth))
        scores, ranks = fusion.weighted_rrf(rankings, chosen.weights)

        now = self.clock()
        allowed = set(statuses)
        named = named_speakers(query, {f.speaker for f in facts.values() if f.speaker})
        final: dict[str, float] = {}
        for fid, score in scores.items():
            fact = facts.get(fid)
            if fact is None or fact.status not in allowed or fact.user_id != user_id:
                continue
            factor = decay.record_factor(fact, now, chosen.decay_strength)
            if fact.speaker and fact.speaker.casefold() in named:
                factor *= 1.0 + chosen.speaker_bonus
            final[fid] = score * factor

        def similarity(a: str, b: str) -> float:
            va, vb = vectors.get(a), vectors.get(b)
            if va is not None and vb is not None:
                return float(np.dot(va, vb))
            return fusion.token_similarity(facts[a].text, facts[b].text)

        chosen_ids = fusion.mmr(final, k, similarity, lam=chosen.mmr_lambda, pool=cfg.mmr_pool)
        degraded.timings_ms["total"] = (time.perf_counter() - started) * 1000
        if degraded:
            log.info("recall for %s answered without %s", user_id, ", ".join(degraded.reasons))
        return [
            RecallHit(
                fact=facts[fid],
                score=round(final[fid], 6),
                ranks={voice: ranks.get(fid, {}).get(voice) for voice in VOICES},
            )
            for fid in chosen_ids
        ]


def named_speakers(query: str, speakers: set[str]) -> set[str]:
    """The speakers (casefolded) whose name occurs in the query as a word."""
    found = set()
    for speaker in speakers:
        if re.search(rf"(?<!\w){re.escape(speaker)}(?!\w)", query, re.IGNORECASE):
            found.add(speaker.casefold())
    return found


def context_rankings(
    pool: Sequence[str],
    links: dict[str, list[str]],
    facts: dict[str, Fact],
    lexical_scores: dict[str, float],
    vectors: dict[str, np.ndarray],
    query_vector: np.ndarray | None,
    depth: int,
) -> dict[str, list[str]]:
    """Rank records by their context window (the record with those said around it).

    Lexical: the sum of the window's full-text scores. Semantic: the query's cosine with the
    window's vector, the length-weighted sum of its records' stored vectors, normalised (the
    embedding of a concatenation is close to the length-weighted mean of its parts). The record
    itself counts ``SELF_WEIGHT`` times its context."""
    lexical: dict[str, float] = {}
    semantic: dict[str, float] = {}
    for fid in pool:
        window = [fid, *links.get(fid, ())]
        total = sum(lexical_scores.get(m, 0.0) * (SELF_WEIGHT if m == fid else 1.0)
                    for m in window)
        if total > 0:
            lexical[fid] = total
        if query_vector is None:
            continue
        parts = [(m, vectors[m]) for m in window if m in vectors]
        if not parts or parts[0][0] != fid:
            continue
        summed = np.zeros_like(parts[0][1])
        for member, vec in parts:
            fact = facts.get(member)
            weight = float(len(fact.text.split()) if fact else 1)
            summed += vec * weight * (SELF_WEIGHT if member == fid else 1.0)
        norm = float(np.linalg.norm(summed))
        if norm > 0:
            semantic[fid] = float(np.dot(summed, query_vector)) / norm
    return {
        "context_lexical": sorted(lexical, key=lambda i: -lexical[i])[:depth],
        "context_semantic": sorted(semantic, key=lambda i: -semantic[i])[:depth],
    }


def hit_json(hit: RecallHit) -> dict[str, Any]:
    """The shape ``wave recall --json`` prints for one record."""
    fact = hit.fact
    return {
        "id": fact.id,
        "text": fact.text,
        "score": hit.score,
        "tier": fact.tier.value,
        "status": fact.status.value,
        "type": fact.type.value,
        "created_at": fact.created_at.isoformat(),
        "ranks": dict(hit.ranks),
    }


def provenance(hits: Sequence[RecallHit]) -> list[list[str]]:
    return [list(h.fact.source_message_ids) for h in hits]


__all__ = ["Recall", "RecallConfig", "RecallHit", "Status", "hit_json", "provenance"]
