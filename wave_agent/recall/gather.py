"""The reading stages of ``Recall.search``: everything it asks the stores, in three rounds.

1. ``ask_voices``: concurrently, the query is embedded once and the semantic voice searches
   the archive (and, for a dated question, the archive's records created in that period); the
   lexical voice searches Neo4j full-text, without the names of the user's speakers; the
   temporal voice lists recent records; the graph voice walks two hops from the entities the
   query names. Then the voices fuse once to find the strongest candidates (the seeds).
2. ``read_around``: concurrently, the text voices' candidates are read from the graph with the
   records said right before and after each (their context; the semantic voice's records are
   loaded by that same read), the graph voice walks from the seeds' entities too, and the rest
   of a relative's question ("что я обещал ?") finishes embedding.
3. ``read_vectors``: the stored vectors of the candidates and their neighbours, mostly from
   memory (nothing is embedded again); the graph voice's records are ordered by meaning.

Every read asks for the statuses the question searches (``Question.statuses``) and is
guarded: one that fails or times out is noted in ``Candidates.degraded`` and the search goes
on without it. ``Recall`` owns one ``Reader``: it holds the stores and the two caches a
search reuses (each person's speakers, stored vectors)."""

from __future__ import annotations

import asyncio
import logging
import time
from collections import OrderedDict
from collections.abc import Sequence
from typing import TYPE_CHECKING, Protocol

import numpy as np

from graph.models import Fact
from wave_agent.recall import adapter, fusion, kind, voices
from wave_agent.recall.candidates import Candidates
from wave_agent.recall.config import RecallConfig
from wave_agent.recall.presets import VOICES
from wave_agent.recall.question import without_names, without_polish_function_words

if TYPE_CHECKING:
    from archive.store import ArchiveStore
    from graph.store import GraphStore

log = logging.getLogger("wave.recall")


class QueryEmbedder(Protocol):
    """What recall asks of an embedder (``archive.embedder.Embedder``, or a benchmark's
    wrapper of it): the model's name and the vectors of queries."""

    @property
    def model_name(self) -> str: ...

    async def embed_query(self, texts: Sequence[str]) -> np.ndarray: ...


class VectorCache:
    """Stored vectors by (user, fact id), least recently used dropped first.

    Safe to keep: a fact's text never changes (a correction is a new fact), so neither does its
    vector under one model, and a Recall reads one archive (one model). A deleted fact's vector
    may linger here; it is never returned, because candidates come from the graph."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._items: OrderedDict[tuple[str, str], np.ndarray] = OrderedDict()

    def get_many(self, user_id: str, ids: Sequence[str]) -> dict[str, np.ndarray]:
        found = {}
        for fid in ids:
            vector = self._items.get((user_id, fid))
            if vector is not None:
                self._items.move_to_end((user_id, fid))
                found[fid] = vector
        return found

    def put_many(self, user_id: str, vectors: dict[str, np.ndarray]) -> None:
        if self.size <= 0:
            return
        for fid, vector in vectors.items():
            self._items[(user_id, fid)] = vector
            self._items.move_to_end((user_id, fid))
        while len(self._items) > self.size:
            self._items.popitem(last=False)


class Reader:
    """The three reading rounds of a search (module docstring), over one ``Candidates``."""

    def __init__(self, graph: GraphStore, archive: ArchiveStore | None, embedder: QueryEmbedder,
                 config: RecallConfig, archive_problem: str | None = None) -> None:
        self.graph = graph
        self.archive = archive
        self.embedder = embedder
        self.config = config
        self.archive_problem = archive_problem
        self._speakers: dict[str, tuple[float, list[str]]] = {}
        self._vectors = VectorCache(config.vector_cache)

    # -- round one: the voices -------------------------------------------------------------

    async def ask_voices(self, c: Candidates) -> None:
        """The four voices, concurrently; then every loaded record, each voice's ranking and
        the seeds (the candidates of a first fusion, strongest first)."""
        async with asyncio.TaskGroup() as group:
            group.create_task(self._semantic_voice(c))
            group.create_task(self._lexical_voice(c))
            group.create_task(self._temporal_voice(c))
            group.create_task(self._graph_voice(c))
        for result in c.results.values():
            c.facts.update(result.facts)
        c.rankings = {name: c.results[name].ids for name in VOICES if name in c.results}
        first, _ = fusion.weighted_rrf(c.rankings, c.question.preset.weights, self.config.rrf_k)
        c.seeds = sorted(first, key=lambda i: -first[i])

    async def _semantic_voice(self, c: Candidates) -> None:
        """The archive's nearest records to the widened query (and, for a dated question,
        its nearest created in the period); starts embedding the rest of a relative's
        question once the query's own embedding is done."""
        q, cfg = c.question, self.config
        if self.archive is None:
            c.degraded.reasons["semantic"] = self.archive_problem or "archive not open"
            return
        archive = self.archive

        async def go() -> voices.VoiceResult:
            asked = np.asarray((await self.embedder.embed_query([q.wide]))[0], dtype=np.float32)
            moved = cfg.query_adapter != "off" and adapter.reads(self.embedder.model_name)
            if moved and cfg.query_adapter == "auto":
                started = time.perf_counter()
                moved = await self._among_notes(c, asked)
                c.degraded.timings_ms["kind"] = (time.perf_counter() - started) * 1000
            c.map_moved = moved
            vector = adapter.adapt(self.embedder.model_name, asked) if moved else asked
            if moved and cfg.query_adapter in ("all", "auto"):
                c.cosine_map = adapter.cosine_map()
            result = await self._search(c, vector)
            if moved and cfg.query_adapter == "search":  # the features read the plain vector
                result.query_vector = asked
            return result

        c.results["semantic"] = await voices.guarded(
            "semantic", go, voices.VoiceResult(), cfg.voice_timeout_s, c.degraded)
        if not c.results["semantic"].ids and "semantic" not in c.degraded.reasons:
            await self._check_model_change(archive, q.user_id, c)

    async def _search(self, c: Candidates, vector: np.ndarray) -> voices.VoiceResult:
        """The archive's nearest records to ``vector`` (and in the question's period); starts
        embedding the rest of a relative's question."""
        q, cfg = c.question, self.config
        archive = self.archive
        assert archive is not None  # checked by the caller
        if q.rest:
            # embedded while the archive is searched and the graph read, not first
            future = asyncio.ensure_future(self._embed_adapted(c, q.rest))
            # a search cancelled before it is awaited must not log an unread error
            future.add_done_callback(lambda f: f.cancelled() or f.exception())
            c.rest_embedding = future
        if q.period is None:
            return await voices.semantic(archive, q.user_id, vector, q.statuses, cfg.depth)
        plain, dated = await asyncio.gather(
            voices.semantic(archive, q.user_id, vector, q.statuses, cfg.depth),
            voices.semantic(archive, q.user_id, vector, q.statuses, cfg.depth, q.period))
        c.results["dated-semantic"] = dated
        return plain

    async def _among_notes(self, c: Candidates, asked: np.ndarray) -> bool:
        """Whether the records plain e5 finds nearest the question are notes of the kind the
        query map was trained on (``recall.kind``), read from their stored vectors."""
        q, archive = c.question, self.archive
        assert archive is not None  # checked by the caller
        nearest = await voices.semantic(archive, q.user_id, asked, q.statuses, kind.NEAREST)
        stored = self._vectors.get_many(q.user_id, nearest.ids)
        missing = [i for i in nearest.ids if i not in stored]
        if missing:
            found = await archive.vectors(q.user_id, missing)
            self._vectors.put_many(q.user_id, found)
            stored.update(found)
        return kind.notes([stored[i] for i in nearest.ids if i in stored])

    async def _embed_adapted(self, c: Candidates, text: str) -> np.ndarray:
        """The rest of a relative's question, moved by the query map when the question was."""
        vector = np.asarray((await self.embedder.embed_query([text]))[0], dtype=np.float32)
        if c.map_moved:
            vector = adapter.adapt(self.embedder.model_name, vector)
        return vector[None, :]

    async def _lexical_voice(self, c: Candidates) -> None:
        """Neo4j full-text over the widened query without the user's speakers' names."""
        q, cfg = c.question, self.config

        async def go() -> voices.VoiceResult:
            # Every record of a speaker carries their name: as a query word it matches half
            # the conversation. Who said it counts through the speaker bonus.
            text = without_polish_function_words(
                without_names(q.wide, await self._speakers_of(q.user_id)))
            c.lexical_query = text
            return await voices.lexical(self.graph, q.user_id, text, q.statuses, cfg.depth)

        c.results["lexical"] = await voices.guarded(
            "lexical", go, voices.VoiceResult(), cfg.voice_timeout_s, c.degraded)

    async def _temporal_voice(self, c: Candidates) -> None:
        """The most recent records of the statuses searched."""
        q, cfg = c.question, self.config
        c.results["temporal"] = await voices.guarded(
            "temporal",
            lambda: voices.temporal(self.graph, q.user_id, q.statuses, cfg.temporal_depth),
            voices.VoiceResult(), cfg.voice_timeout_s, c.degraded)

    async def _graph_voice(self, c: Candidates) -> None:
        """Two hops from the entities the query names (and the relatives it names by role)."""
        q, cfg = c.question, self.config

        async def go() -> voices.VoiceResult:
            if c.named is not None:  # read once for this voice and the entity step
                ids = [e.id for e in await asyncio.shield(c.named)]
            else:
                ids = await voices.mentioned_entities(self.graph, q.user_id, q.text)
            c.query_entities.extend(i for i in ids if i not in c.query_entities)
            return await voices.graph_walk(self.graph, q.user_id, c.query_entities, q.statuses,
                                           cfg.graph_depth)

        c.results["graph"] = await voices.guarded(
            "graph", go, voices.VoiceResult(), cfg.voice_timeout_s, c.degraded)

    async def _check_model_change(self, archive: ArchiveStore, user_id: str, c: Candidates) -> None:
        """An empty semantic voice with another model's vectors on disk: say so, plainly
        (a changed EMBEDDING_MODEL needs `wave reindex`; never a silent mix or silent gap)."""
        try:
            others = await archive.other_models(user_id)
        except Exception as exc:  # the check is advice; the voice already answered
            log.debug("model-change check failed: %s", exc)
            return
        if others:
            c.degraded.reasons["semantic"] = (
                f"the archive holds vectors of another embedding model ({', '.join(others)}), "
                f"not of {self.embedder.model_name}: run `wave reindex`")

    async def _speakers_of(self, user_id: str) -> list[str]:
        """The user's speakers, cached for ``speakers_ttl_s`` (names change rarely)."""
        cached = self._speakers.get(user_id)
        if cached and time.monotonic() - cached[0] < self.config.speakers_ttl_s:
            return cached[1]
        names = [str(n) for n in await self.graph.speakers(user_id)]
        self._speakers[user_id] = (time.monotonic(), names)
        return names

    # -- round two: around the candidates --------------------------------------------------

    async def read_around(self, c: Candidates) -> None:
        """The text candidates' context, the walk from the seeds and the rest's embedding,
        concurrently; then each record's neighbours in time (``links``, both ways)."""
        deep = self.config.context_depth
        dated = c.results.get("dated-semantic", voices.VoiceResult())
        text_ids = [*c.rankings.get("lexical", [])[:deep], *c.rankings.get("semantic", [])[:deep],
                    *dated.ids[:deep]]
        async with asyncio.TaskGroup() as group:
            group.create_task(self._read_context(c, text_ids))
            group.create_task(self._walk_seeds(c))
            group.create_task(self._embed_rest(c))
        for seed, (seed_fact, near) in c.around.items():
            c.facts.setdefault(seed, seed_fact)
            for other in near:
                c.facts.setdefault(other.id, other)
                c.links.setdefault(seed, [])
                if other.id not in c.links[seed]:
                    c.links[seed].append(other.id)
                c.links.setdefault(other.id, [])
                if seed not in c.links[other.id]:
                    c.links[other.id].append(seed)

    async def _read_context(self, c: Candidates, ids: Sequence[str]) -> None:
        """One read for every text voice's candidates: on two cores the Neo4j round trips do
        not overlap with embedding in practice, so fewer of them is what is faster."""
        q, cfg = c.question, self.config
        wanted = list(dict.fromkeys(ids))[: cfg.context_seeds]
        if not wanted:
            return
        found: dict[str, tuple[Fact, list[Fact]]] = await voices.guarded(
            "context",
            lambda: self.graph.context_of(
                q.user_id, wanted, window_s=cfg.context_window_s,
                per_fact=cfg.context_per_seed, statuses=q.statuses),
            {}, cfg.voice_timeout_s, c.degraded)
        c.around.update(found)

    async def _walk_seeds(self, c: Candidates) -> None:
        """The graph voice once more, from the entities of the strongest seeds."""
        q, cfg = c.question, self.config
        strongest = c.seeds[: cfg.seeds]
        if not strongest:
            return

        async def go() -> voices.VoiceResult:
            entity_ids = await self.graph.entities_of(q.user_id, strongest)
            entity_ids = [e for e in entity_ids if e not in c.query_entities]
            return await voices.graph_walk(self.graph, q.user_id, entity_ids, q.statuses,
                                           cfg.graph_depth)

        c.seed_walk = await voices.guarded("graph-seeds", go, voices.VoiceResult(),
                                           cfg.voice_timeout_s, c.degraded)

    async def _embed_rest(self, c: Candidates) -> None:
        """Waits for the rest of a relative's question to be embedded (started in round one)."""
        embedding = c.rest_embedding
        if embedding is None:
            return
        found = await voices.guarded("rest", lambda: embedding, None,
                                     self.config.voice_timeout_s, c.degraded)
        if found is not None:
            c.rest_vector = found[0]

    # -- round three: the stored vectors ---------------------------------------------------

    async def read_vectors(self, c: Candidates) -> None:
        """The stored vectors of the pool (the seeds and every record's neighbours), for the
        context windows, the meaning factor and MMR; then the graph voice's records in order
        of the walk, ties broken by meaning."""
        q = c.question
        c.pool = [i for i in dict.fromkeys([*c.seeds, *c.links]) if i in c.facts]
        archive = self.archive
        if archive is not None and c.query_vector is not None and c.pool:
            c.vectors = self._vectors.get_many(q.user_id, c.pool)
            missing = [i for i in c.pool if i not in c.vectors]
            if missing:
                found: dict[str, np.ndarray] = await voices.guarded(
                    "vectors", lambda: archive.vectors(q.user_id, missing), {},
                    self.config.voice_timeout_s, c.degraded)
                self._vectors.put_many(q.user_id, found)
                c.vectors.update(found)
        c.fused_at = time.perf_counter()
        await self._order_graph_voice(c)

    async def _order_graph_voice(self, c: Candidates) -> None:
        """The graph voice's ranking: the walk from the query's entities, then from the seeds'.
        The walk scores the records about one entity alike and breaks ties by recency, which
        says nothing about the question: equal scores go by cosine with the query instead."""
        q, cfg = c.question, self.config
        c.facts.update(c.seed_walk.facts)
        graph_ids = list(c.rankings.get("graph", []))
        graph_ids += [i for i in c.seed_walk.ids if i not in graph_ids]
        query_vector = c.query_vector
        if cfg.graph_by_meaning and query_vector is not None and graph_ids:
            walked = {**c.seed_walk.scores, **c.results.get("graph", voices.VoiceResult()).scores}
            missing = [i for i in graph_ids if i not in c.vectors]
            archive = self.archive
            if missing and archive is not None:
                more: dict[str, np.ndarray] = await voices.guarded(
                    "vectors", lambda: archive.vectors(q.user_id, missing), {},
                    cfg.voice_timeout_s, c.degraded)
                self._vectors.put_many(q.user_id, more)
                c.vectors.update(more)
            vectors = c.vectors
            graph_ids = sorted(graph_ids, key=lambda i: (
                -round(walked.get(i, 0.0), 6),
                -(float(np.dot(vectors[i], query_vector)) if i in vectors else -1.0)))
        c.rankings["graph"] = graph_ids
