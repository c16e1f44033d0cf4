"""``Recall``: one query, four voices (five when it names a date), fused (DESIGN section 5;
seed ``001``).

1. The query's intent picks a preset (voice weights, how strongly decay applies); a date or
   period it names ("on 3 June, 2023", "в мае", "last week": ``when.query_span``) opens the
   dated voice. A relative it names by role ("сыну") joins it by name ("(Игорь)"), and the
   rest of it ("что я обещал ?") is embedded too; clipped words join in full ("велосипед").
2. Concurrently: the query is embedded once and the semantic voice searches the archive (and,
   for a dated question, the archive's records created in that period); the lexical voice
   searches Neo4j full-text, without the names of the user's speakers; the temporal voice
   lists recent active records; the graph voice walks two hops from the entities the query
   names. As soon as a text voice (lexical, semantic) answers, its candidates are read from
   the graph with the records said right before and after each (their context), while the
   other voices still run; the semantic voice's records are loaded by that same read.
3. Second round, concurrently: the graph voice also walks from the strongest seeds'
   entities, and the stored vectors of the candidates and their neighbours are read.
4. Weighted RRF over the voices (and the rest of a relative's question); context borrowing
   from neighbours; each score scaled by the type's Weibull decay, the confidence and the
   status, by the record's episode (where the best candidates cluster) and, for event
   records, by how much they say; for a question about the person, records about someone
   else count less; then by how far each is from the question in meaning against the best;
   MMR picks the final ``k``.

Each voice has a timeout; a failing one is dropped and noted in ``last_degraded``."""

from __future__ import annotations

import asyncio
import functools
import logging
import re
import time
from collections import OrderedDict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta, tzinfo
from typing import Any

import numpy as np

from graph import kin
from graph.entities import content_stems
from graph.models import Fact, FactType, Status, utcnow
from graph.stemming import language_of, stem
from wave_agent.policy import calibration
from wave_agent.policy.quantities import numbers
from wave_agent.recall import colloquial, decay, fusion, voices, when
from wave_agent.recall.presets import VOICES, Preset, resolve

log = logging.getLogger("wave.recall")

SELF_WEIGHT = 2.0


@dataclass(frozen=True, slots=True)
class RecallHit:
    fact: Fact
    score: float
    ranks: dict[str, int | None] = field(default_factory=dict)


class RecallResult(list[RecallHit]):
    """The hits of one ``search``, best first (a list), with how that call went: ``degraded``
    (voices or steps that failed or timed out, and timings), ``preset``, ``span`` (the period
    the question named). Each call's own: two people's concurrent searches cannot overwrite
    each other's, as attributes on the shared ``Recall`` could."""

    def __init__(self, hits: Sequence[RecallHit] = (), *, degraded: voices.Degraded,
                 preset: Preset | None, span: when.Span | None = None) -> None:
        super().__init__(hits)
        self.degraded = degraded
        self.preset = preset
        self.span = span

    @property
    def hits(self) -> list[RecallHit]:
        return list(self)


@dataclass(frozen=True, slots=True)
class RecallConfig:
    depth: int = 60            # candidates asked of each text voice
    temporal_depth: int = 20
    graph_depth: int = 30
    seeds: int = 3             # strongest candidates whose entities are walked (graph voice)
    context_window_s: float = 300.0
    context_per_seed: int = 2
    voice_timeout_s: float = 1.0
    mmr_pool: int = 40
    context_seeds: int = 180   # text candidates loaded with their neighbours in time
    # Of each text voice's candidates (lexical, semantic, dated), the first this many are
    # read with their context: 40 against all 60, LoCoMo R@10 76.5 -> 76.7, memory-ru level
    # (30: LoCoMo 77.1, memory-ru one question less); the read is a third shorter.
    context_depth: int = 40
    rrf_k: int = 30            # rank constant: lower lets a voice's first places count more
    # A question that names a date ("on 3 June", "в мае") also searches the records created
    # in that period; people talk about a day's events over the following days too.
    dated_after_days: float = 7.0
    # Episodes (a day's conversation): records of the episodes where the best candidates
    # cluster are lifted, x (1 + weight / (1 + the episode's rank)).
    episode_pool: int = 40
    episode_weight: float = 0.5
    # Event records (what was said) run from "hi!" to a story; the more a record says, the
    # likelier it holds the answer, and both BM25 and cosine normalise length away:
    # x ((words + 1) / EVENT_WORDS) ** info_prior.
    info_prior: float = 0.2
    # A full-text hit counts by how much of the query it covers: x (share of the query's
    # content stems found in the record, or in its context window) ** lexical_coverage.
    # BM25 puts a record matching one common word ("зовут", "стоит") first when nothing
    # matches the rest, and rank fusion would give that first place a full vote.
    lexical_coverage: float = 1.0
    # The graph walk scores the records about one entity alike (all 1.0) and breaks ties by
    # recency, which says nothing about the question: records of equal walk score are ordered
    # by their cosine with the query instead.
    graph_by_meaning: bool = True
    # Two records with other numbers are never copies for MMR, however alike ("karnet
    # kosztuje 150 zł" / "karnet kosztuje teraz 180 zł": one is a change of the other, and
    # the copy rule put the current price after everything else).
    copies_keep_numbers: bool = True
    # Records said on different days are never copies for MMR: the write path merges a
    # statement said again into the record it repeats (a confirmation), so two alike records
    # days apart are what happened next ("обещал маме починить кран" / "починил наконец кран",
    # "одолжил Олегу 30 тысяч" / "Олег вернул долг"), not a paraphrase to skip.
    copies_same_day: bool = True
    # Each score x exp(meaning_weight * (the record's cosine with the question - the best
    # candidate's)), the cosine of the record in its context window (see context_rankings;
    # a lone record's is its own) on MiniLM's scale (calibration.rescale). Rank fusion gives a
    # first place in any voice a full vote; a record far from the question in meaning should
    # not ride one to the top. 1.0: +3 questions of memory-ru at R@5, LoCoMo level; 2.0 gave
    # memory-pl one more question and LoCoMo 0.4 R@10 less, 5.0 cost LoCoMo 6 points of R@5
    # (a conversation turn says less on its own than a stated fact; docs/benchmarks.md).
    meaning_weight: float = 1.0
    # A question about the person themself ("на что у меня аллергия?") scales the records
    # about someone else ("У Сони аллергия на арахис", graph.kin.about_someone_else) by this.
    others_factor: float = 0.7
    # A question naming a relative by role is asked once more without them ("чем болела
    # дочь?" -> "чем болела?"): the candidates ranked by their cosine with that are one more
    # voice of this weight. The relative's name brings every record about her, and the
    # record that says who she is ("Дочке Соне пять лет") matches the question best; what
    # the question asks about her is in the rest.
    relative_rest_weight: float = 1.0
    # Clipped words are asked in full too ("за велик?" -> "велосипед"; colloquial.expand).
    colloquial: bool = True
    speakers_ttl_s: float = 300.0
    vector_cache: int = 50_000  # stored vectors kept in memory (~1.5 KB each at 384-d)


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
        tz: tzinfo = UTC,
    ) -> None:
        """``tz``: the person's time zone: "yesterday" and "on 3 June" are their days."""
        self.tz = tz
        self.graph = graph
        self.archive = archive
        self.embedder = embedder
        self.config = config or RecallConfig()
        self.clock = clock
        self.archive_problem = archive_problem
        self.last_degraded = voices.Degraded()
        self.last_preset: Preset | None = None
        self.last_span: when.Span | None = None
        self._speakers: dict[str, tuple[float, list[str]]] = {}
        self._vectors = VectorCache(self.config.vector_cache)

    async def _check_model_change(self, archive: Any, user_id: str, degraded: Any) -> None:
        """An empty semantic voice with another model's vectors on disk: say so, plainly
        (a changed EMBEDDING_MODEL needs `wave reindex`; never a silent mix or silent gap)."""
        try:
            others = await archive.other_models(user_id)
        except Exception as exc:  # the check is advice; the voice already answered
            log.debug("model-change check failed: %s", exc)
            return
        if others:
            degraded.reasons["semantic"] = (
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

    async def warm_up(self, user_id: str, queries: Sequence[str]) -> list[float]:
        """Ask each of ``queries`` once and forget the answers; each one's milliseconds.

        A process's first searches on a fresh Neo4j compile the query plans and warm the JIT:
        the first took ~800 ms and the next ten a median 80-120 ms against ~50 ms after
        (docs/benchmarks.md, "Recall speed"). Benchmarks warm up before they time."""
        took = []
        for query in queries:
            started = time.perf_counter()
            await self.search(user_id, query, k=1)
            took.append((time.perf_counter() - started) * 1000)
        return took

    async def search(
        self,
        user_id: str,
        query: str,
        *,
        k: int = 5,
        history: bool = False,
        preset: Preset | str | None = None,
    ) -> RecallResult:
        """The ``k`` best records for ``query``, best first; never raises for a failing voice.

        How the call went is on the result (``degraded``, ``preset``, ``span``); the
        ``last_*`` attributes only repeat the latest call of the process (another person's,
        under concurrency): read the result."""
        chosen = resolve(preset, query)
        self.last_preset = chosen
        degraded = voices.Degraded()
        self.last_degraded = degraded
        if not query.strip() or k <= 0:
            return RecallResult(degraded=degraded, preset=chosen)
        cfg = self.config
        statuses = voices.statuses_for(history)
        timeout = cfg.voice_timeout_s
        started = time.perf_counter()
        span = when.query_span(query, self.clock(), self.tz)
        self.last_span = span
        period = None if span is None else (
            span.start, span.end + timedelta(days=cfg.dated_after_days))

        # A question about "сына" is a question about Igor too, when the memory knows the son
        # is Igor ("Сыну Игорю девять лет"): his name joins the text voices' query, and his
        # entity the graph walk. Asked only when the query names a role (one indexed read).
        relatives: list[Any] = []
        asked = kin.roles_asked(query)
        if asked:
            relatives = await voices.guarded(
                "relatives", lambda: voices.relatives(self.graph, user_id, asked), [],
                timeout, degraded)
        wide = kin.expand(query, list(dict.fromkeys(e.name for e in relatives)))
        if cfg.colloquial:
            wide = colloquial.expand(wide)
        rest = without_roles(query) if relatives and cfg.relative_rest_weight > 0 else ""
        if not _WORD.search(rest):
            rest = ""  # "сын?" alone: nothing is asked about him beyond who he is
        rest_vector: list[np.ndarray] = []
        rest_embedding: list[asyncio.Future[np.ndarray]] = []

        results: dict[str, voices.VoiceResult] = {}
        query_entities: list[str] = [e.id for e in relatives]
        around: dict[str, tuple[Fact, list[Fact]]] = {}
        lexical_query = [wide]  # the query as the lexical voice asked it (speakers left out)

        async def fetch_context(ids: Sequence[str]) -> None:
            # One read for every text voice's candidates: on two cores the Neo4j round trips
            # do not overlap with embedding in practice, so fewer of them is what is faster.
            wanted = list(dict.fromkeys(ids))[: cfg.context_seeds]
            if not wanted:
                return
            found: dict[str, tuple[Fact, list[Fact]]] = await voices.guarded(
                "context",
                lambda: self.graph.context_of(
                    user_id, wanted, window_s=cfg.context_window_s,
                    per_fact=cfg.context_per_seed, statuses=statuses),
                {}, timeout, degraded)
            around.update(found)

        async def run_semantic() -> None:
            if self.archive is None:
                degraded.reasons["semantic"] = self.archive_problem or "archive not open"
                return
            archive = self.archive

            async def go() -> voices.VoiceResult:
                vector = (await self.embedder.embed_query([wide]))[0]
                if rest:
                    # embedded while the archive is searched and the graph read, not first
                    future = asyncio.ensure_future(self.embedder.embed_query([rest]))
                    # a search cancelled before it is awaited must not log an unread error
                    future.add_done_callback(lambda f: f.cancelled() or f.exception())
                    rest_embedding.append(future)
                if period is None:
                    return await voices.semantic(archive, user_id, vector, statuses, cfg.depth)
                plain, dated = await asyncio.gather(
                    voices.semantic(archive, user_id, vector, statuses, cfg.depth),
                    voices.semantic(archive, user_id, vector, statuses, cfg.depth, period))
                results["dated-semantic"] = dated
                return plain
            results["semantic"] = await voices.guarded(
                "semantic", go, voices.VoiceResult(), timeout, degraded)
            if not results["semantic"].ids and "semantic" not in degraded.reasons:
                await self._check_model_change(archive, user_id, degraded)

        async def run_lexical() -> None:
            async def go() -> voices.VoiceResult:
                # Every record of a speaker carries their name: as a query word it matches
                # half the conversation. Who said it counts through the speaker bonus.
                text = without_names(wide, await self._speakers_of(user_id))
                lexical_query[0] = text
                return await voices.lexical(self.graph, user_id, text, statuses, cfg.depth)
            results["lexical"] = await voices.guarded(
                "lexical", go, voices.VoiceResult(), timeout, degraded)

        async def run_temporal() -> None:
            results["temporal"] = await voices.guarded(
                "temporal",
                lambda: voices.temporal(self.graph, user_id, statuses, cfg.temporal_depth),
                voices.VoiceResult(), timeout, degraded)

        async def run_graph() -> None:
            async def go() -> voices.VoiceResult:
                ids = await voices.mentioned_entities(self.graph, user_id, query)
                query_entities.extend(i for i in ids if i not in query_entities)
                return await voices.graph_walk(self.graph, user_id, query_entities, statuses,
                                               cfg.graph_depth)
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
        first, _ = fusion.weighted_rrf(rankings, chosen.weights, cfg.rrf_k)
        seeds = sorted(first, key=lambda i: -first[i])
        lexical_scores = results["lexical"].scores if "lexical" in results else {}
        query_vector = results["semantic"].query_vector if "semantic" in results else None

        # Second round, concurrently: the text candidates with the records said right before
        # and after each (their context; the semantic voice's records are loaded by the same
        # read), and the walk from the strongest seeds' entities.
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

        deep = cfg.context_depth
        text_ids = [*rankings.get("lexical", [])[:deep], *rankings.get("semantic", [])[:deep],
                    *results.get("dated-semantic", voices.VoiceResult()).ids[:deep]]
        async def embed_rest() -> None:
            if rest_embedding:
                found = await voices.guarded("rest", lambda: rest_embedding[0], None, timeout,
                                             degraded)
                if found is not None:
                    rest_vector.append(found[0])

        async with asyncio.TaskGroup() as group:
            group.create_task(fetch_context(text_ids))
            group.create_task(walk_seeds())
            group.create_task(embed_rest())

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

        # Third: the stored vectors of the candidates and their neighbours (context windows
        # and MMR), mostly from memory; nothing is embedded again.
        pool = [i for i in dict.fromkeys([*seeds, *links]) if i in facts]
        vectors: dict[str, np.ndarray] = {}
        archive = self.archive

        async def fetch_vectors() -> None:
            nonlocal vectors
            if archive is None or query_vector is None or not pool:
                return
            vectors = self._vectors.get_many(user_id, pool)
            missing = [i for i in pool if i not in vectors]
            if missing:
                found: dict[str, np.ndarray] = await voices.guarded(
                    "vectors", lambda: archive.vectors(user_id, missing), {}, timeout, degraded)
                self._vectors.put_many(user_id, found)
                vectors.update(found)

        await fetch_vectors()
        fused_at = time.perf_counter()

        facts.update(seed_walk.facts)
        graph_ids = list(rankings.get("graph", []))
        graph_ids += [i for i in seed_walk.ids if i not in graph_ids]
        if cfg.graph_by_meaning and query_vector is not None and graph_ids:
            walked = {**seed_walk.scores, **results.get("graph", voices.VoiceResult()).scores}
            missing = [i for i in graph_ids if i not in vectors]
            if missing and archive is not None:
                more: dict[str, np.ndarray] = await voices.guarded(
                    "vectors", lambda: archive.vectors(user_id, missing), {}, timeout, degraded)
                self._vectors.put_many(user_id, more)
                vectors.update(more)
            graph_ids = sorted(graph_ids, key=lambda i: (
                -round(walked.get(i, 0.0), 6),
                -(float(np.dot(vectors[i], query_vector)) if i in vectors else -1.0)))
        rankings["graph"] = graph_ids
        in_context: dict[str, float] = {}
        rankings.update(context_rankings(pool, links, facts, lexical_scores, vectors,
                                         query_vector, cfg.depth, in_context))
        if period is not None:
            rankings["dated"] = dated_ranking(
                period, facts, rankings.get("lexical", []),
                results.get("dated-semantic", voices.VoiceResult()).ids, cfg.depth)
        weights: Mapping[str, float] = chosen.weights
        if rest_vector:
            asked_rest = rest_vector[0]
            ranked = sorted((i for i in pool if i in vectors),
                            key=lambda i: -float(np.dot(vectors[i], asked_rest)))
            rankings["rest"] = ranked[:cfg.depth]
            weights = {**weights, "rest": cfg.relative_rest_weight}
        scale = None
        if cfg.lexical_coverage > 0:
            # The role and the relatives' names are one person: "дочь" and "Соня" count once.
            person = [frozenset(content_stems(" ".join(
                [*(w for w in _WORD.findall(query) if kin.role_of(w)),
                 *(e.name for e in relatives)]), language_of(query)))] if relatives else []
            scale = coverage_scale(lexical_query[0], rankings, links, facts,
                                   cfg.lexical_coverage, person)
        scores, ranks = fusion.weighted_rrf(rankings, weights, cfg.rrf_k, scale)

        now = self.clock()
        allowed = set(statuses)
        named = named_speakers(query, {f.speaker for f in facts.values() if f.speaker})
        about_self = cfg.others_factor != 1.0 and not relatives and kin.asks_about_self(query)
        lifted = episode_factors(scores, facts, cfg.episode_pool, cfg.episode_weight)
        final: dict[str, float] = {}
        for fid, score in scores.items():
            fact = facts.get(fid)
            if fact is None or fact.status not in allowed or fact.user_id != user_id:
                continue
            factor = decay.record_factor(fact, now, chosen.decay_strength)
            if fact.exchange_ids:
                # A turn of a conversation: the day's talk and how much the turn says count.
                # An imported record (no exchange) stands alone: neither applies to it.
                factor *= lifted.get(episode_of(fact), 1.0)
                if fact.type is FactType.EVENT:
                    factor *= information(fact.text, cfg.info_prior)
            if fact.speaker and fact.speaker.casefold() in named:
                factor *= 1.0 + chosen.speaker_bonus
            if about_self and kin.about_someone_else(fact.text):
                factor *= cfg.others_factor
            final[fid] = score * factor

        cal = calibration.of(self.embedder)
        if cfg.meaning_weight > 0 and query_vector is not None and final:
            closeness: dict[str, float] = {}
            for fid in final:
                if fid in in_context:
                    closeness[fid] = cal.rescale(in_context[fid])
                elif fid in vectors:
                    closeness[fid] = cal.rescale(float(np.dot(vectors[fid], query_vector)))
            if closeness:
                best, worst = max(closeness.values()), min(closeness.values())
                for fid in final:  # a record with no vector counts as the farthest
                    final[fid] *= float(np.exp(
                        cfg.meaning_weight * (closeness.get(fid, worst) - best)))

        def similarity(a: str, b: str) -> float:
            va, vb = vectors.get(a), vectors.get(b)
            if va is not None and vb is not None:
                return cal.rescale(float(np.dot(va, vb)))  # MMR's scale is MiniLM's
            return fusion.token_similarity(facts[a].text, facts[b].text)

        said: dict[str, tuple[str, ...]] = {}

        def distinct(a: str, b: str) -> bool:
            """Never copies, however alike: another day's record, or other numbers."""
            if cfg.copies_same_day and (
                    facts[a].created_at.date() != facts[b].created_at.date()):
                return True
            if not cfg.copies_keep_numbers:
                return False
            for fid in (a, b):
                if fid not in said:
                    said[fid] = tuple(sorted(numbers(facts[fid].text, dates=False)))
            return said[a] != said[b]

        chosen_ids = fusion.mmr(final, k, similarity, lam=chosen.mmr_lambda, pool=cfg.mmr_pool,
                                duplicate=cal.mmr_duplicate, distinct=distinct)
        degraded.timings_ms["fusion"] = (time.perf_counter() - fused_at) * 1000
        degraded.timings_ms["total"] = (time.perf_counter() - started) * 1000
        if degraded:
            log.info("recall for %s answered without %s", user_id, ", ".join(degraded.reasons))
        return RecallResult([
            RecallHit(
                fact=facts[fid],
                score=round(final[fid], 6),
                ranks={voice: ranks.get(fid, {}).get(voice) for voice in VOICES},
            )
            for fid in chosen_ids
        ], degraded=degraded, preset=chosen, span=span)


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


def _stop_stems() -> frozenset[str]:
    """Stems of the stop words of the languages recall stems (Russian, English), as
    ``content_stems`` stems them: question words and pronouns say nothing about the answer."""
    from bm25s.stopwords import STOPWORDS_EN_PLUS, STOPWORDS_RUSSIAN

    questions = ["сколько", "почему", "каком", "какие", "какого", "какую", "каких",
                 "which", "whose"]
    polish = ["ile", "jak", "jaki", "jaka", "jakie", "kiedy", "gdzie", "kto", "co", "czy",
              "dlaczego"]
    # a Polish question's words are stemmed in Polish (``text_stems``), any other's per word
    return frozenset({stem(w) for w in (*STOPWORDS_RUSSIAN, *STOPWORDS_EN_PLUS, *questions,
                                        *polish)} | {stem(w, "polish") for w in polish})


STOP_STEMS = _stop_stems()
EVENT_WORDS = 20  # a typical chat message; the information factor is 1 there
_WORD = re.compile(r"\w+", re.UNICODE)


# What recall derives from a record's text (its words, its content stems) depends on the
# text alone, and the same records come back query after query: kept per text, a changed or
# deleted record cannot be served stale.
TEXT_CACHE = 20_000


@functools.lru_cache(maxsize=TEXT_CACHE)
def word_count(text: str) -> int:
    """How many words (``\\w+``) ``text`` has."""
    return len(_WORD.findall(text))


@functools.lru_cache(maxsize=TEXT_CACHE)
def space_words(text: str) -> int:
    """How many whitespace-separated parts ``text`` has (the context windows' weights)."""
    return len(text.split())


@functools.lru_cache(maxsize=TEXT_CACHE)
def text_stems(text: str) -> frozenset[str]:
    """The content stems of ``text`` in its own language, as a set: stemmed as the writer's
    duplicate check stems it (``graph.stemming``), so a question and a record meet."""
    return frozenset(content_stems(text, language_of(text)))


def information(text: str, strength: float) -> float:
    """``((words + 1) / EVENT_WORDS) ** strength``: how much an event record says."""
    return float(((word_count(text) + 1) / EVENT_WORDS) ** strength)


def episode_of(fact: Fact) -> str:
    """The episode a record belongs to: its day's conversation."""
    return fact.episode_date or fact.created_at.date().isoformat()


def episode_factors(scores: dict[str, float], facts: dict[str, Fact], pool: int,
                    weight: float) -> dict[str, float]:
    """Lift per episode: the best ``pool`` candidates' scores summed by episode, ranked;
    an answer is usually said where other relevant things were said. Only conversation
    turns (records with an exchange) make up episodes."""
    if weight <= 0:
        return {}
    mass: dict[str, float] = {}
    for fid in sorted(scores, key=lambda i: -scores[i])[:pool]:
        fact = facts.get(fid)
        if fact is not None and fact.exchange_ids:
            key = episode_of(fact)
            mass[key] = mass.get(key, 0.0) + scores[fid]
    ordered = sorted(mass, key=lambda e: -mass[e])
    return {episode: 1.0 + weight / (1 + rank) for rank, episode in enumerate(ordered)}


def dated_ranking(period: tuple[datetime, datetime], facts: dict[str, Fact],
                  lexical: Sequence[str], semantic: Sequence[str], depth: int) -> list[str]:
    """The records created in ``period``: the lexical voice's in-period candidates and the
    archive's in-period nearest, fused by plain RRF."""
    start, end = period

    def inside(fid: str) -> bool:
        fact = facts.get(fid)
        return fact is not None and start <= fact.created_at < end

    fused, _ = fusion.weighted_rrf(
        {"lexical": [i for i in lexical if inside(i)], "semantic": [i for i in semantic if inside(i)]},
        {"lexical": 1.0, "semantic": 1.0})
    return sorted(fused, key=lambda i: -fused[i])[:depth]


def coverage_scale(query: str, rankings: dict[str, list[str]], links: dict[str, list[str]],
                   facts: dict[str, Fact], power: float,
                   one: Sequence[frozenset[str]] = ()) -> dict[str, dict[str, float]]:
    """Per full-text voice, each record's share of the query's content stems it covers
    (``lexical``: the record; ``context_lexical``: the record with its context window), to
    the ``power``. A record the index matched covers at least one stem.

    The stems of each set in ``one`` count as one: "дочь" and "Соня" in "чем болела дочь?
    (Соня)" are one person, and the record that says who she is ("Дочке Соне пять лет")
    covers no more of the question than one that says what happened to her."""
    wanted = set(text_stems(query)) - STOP_STEMS
    if len(wanted) < 2:
        return {}
    group_of: dict[str, str] = {}
    for stems in one:
        inside = sorted(stems & wanted)
        for s in inside:
            group_of[s] = inside[0]
    concepts = len({group_of.get(s, s) for s in wanted})
    if concepts < 2:
        return {}
    def stems_of(fid: str) -> frozenset[str]:
        fact = facts.get(fid)
        return text_stems(fact.text) if fact is not None else frozenset()

    out: dict[str, dict[str, float]] = {}
    for voice in ("lexical", "context_lexical"):
        factors: dict[str, float] = {}
        for fid in rankings.get(voice, ()):
            found = stems_of(fid) & wanted
            if voice == "context_lexical":
                for other in links.get(fid, ()):
                    found |= stems_of(other) & wanted
            covered = len({group_of.get(s, s) for s in found})
            factors[fid] = (max(1, covered) / concepts) ** power
        out[voice] = factors
    return out


def without_roles(query: str) -> str:
    """``query`` without the words that name a relative by role: "чем болела дочь?" ->
    "чем болела ?"."""
    return re.sub(r"[^\W\d_]+", lambda m: "" if kin.role_of(m.group(0)) else m.group(0),
                  query)


def without_names(query: str, names: Sequence[str]) -> str:
    """``query`` without the given names (and their possessive); unchanged if nothing else
    would be left."""
    text = query
    for name in names:
        text = re.sub(rf"(?<!\w){re.escape(name)}(?:'s|’s)?(?!\w)", " ", text, flags=re.IGNORECASE)
    return text if _WORD.search(text) else query


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
    cosines: dict[str, float] | None = None,
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
            weight = float(space_words(fact.text) if fact else 1)
            summed += vec * weight * (SELF_WEIGHT if member == fid else 1.0)
        norm = float(np.linalg.norm(summed))
        if norm > 0:
            semantic[fid] = float(np.dot(summed, query_vector)) / norm
    if cosines is not None:
        cosines.update(semantic)
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


__all__ = ["Recall", "RecallConfig", "RecallHit", "RecallResult", "Status", "hit_json", "provenance"]
