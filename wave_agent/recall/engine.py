"""``Recall``: one query, four voices (five when it names a date), fused (DESIGN section 5;
seed ``001``).

``search`` runs named stages over one ``Candidates`` object, each filling in what the next
one reads:

1. ``question.understand``: the preset (voice weights, decay, the statuses it searches), the
   period the query names, the relatives it names by role, the query widened.
2. ``ask_voices`` (``gather``): the semantic, lexical, temporal and graph voices, concurrently;
   a first fusion picks the seeds.
3. ``read_around`` (``gather``): the text candidates' context windows, the walk from the
   seeds' entities, the rest of a relative's question embedded, concurrently.
4. ``read_vectors`` (``gather``): the stored vectors of the candidates and their neighbours;
   the graph voice ordered by meaning.
5. ``ranking.rank``: the context, dated and rest rankings; weighted RRF over every voice.
6. ``ranking.weigh``: decay, confidence, status, episode, information, speaker, the person or
   someone else, closeness in meaning.
7. ``learned.rerank`` (``RecallConfig.ranker == "learned"``, the default): gradient-boosted
   trees over every voice's rank and score and what ``weigh`` found put the candidates in
   order; over an assistant's chat history (records said by ``assistant``) the records' e5
   cosine weighs in (``RecallConfig.assistant_cosine``, ``learned.with_cosine``).
   ``context`` (``RecallConfig.context_stage``, on by default since h/locomo40): over a chat between people
   (``context.between_people``) small trees reorder the learned order's first 40 by what
   surrounds each turn (the other speaker's question before it, its reply's and its
   neighbours' scores).
8. ``newer.newer_first`` (``RecallConfig.newer_first``; e5 only): a question about now puts
   a record below a newer one among the ten best that says the same thing again.
   ``ranking.diversify``: MMR picks the final ``k`` (its copy rule: ``mmr_copies``,
   ``copies_same_day``, ``copies_one_speaker``).
9. ``about`` (``RecallConfig.entity_first``): an entity question puts the records about that
   entity first.
10. ``asked`` (``RecallConfig.attribute_first``): a question about an attribute ("где я
    сейчас живу?", "какой был мой старый номер?"): the records that state its value, read from the graph, join the candidates
    before step 4 (the ``asked`` ranking; ``_join_asked``). A learned ranker that weighs that
    ranking (``rr_asked``: a fitted weight, or its trees read it) orders them with the rest
    and this step is skipped; otherwise it
    puts them first (current ones;
    for a question about the past the replaced ones, then the current; recall's own first
    stays first when it is one of the current ones). The question's e5
    vector is read before step 1 (the semantic voice's embedding of it then comes from the
    embedder's cache), and a question about the past of an attribute searches with the
    ``history`` preset.
11. ``older`` (``RecallConfig.replaced_first``): with the ``history`` preset, each chosen
    record that replaced another is preceded by the record it replaced (``recall.older``; ``_replaced_first``).

Each voice has a timeout; a failing one is dropped and noted in the result's ``degraded``."""

from __future__ import annotations

import asyncio
import functools
import logging
import time
from collections.abc import Callable, Sequence
from dataclasses import replace
from datetime import UTC, datetime, tzinfo
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from graph import kin
from graph.models import Entity, Fact, ScoredFact, Status, utcnow
from wave_agent.policy import calibration
from wave_agent.recall import (
    about,
    asked,
    context,
    kind,
    learned,
    newer,
    older,
    order,
    question,
    ranking,
    stated,
    voices,
)
from wave_agent.recall.candidates import Candidates
from wave_agent.recall.config import RecallConfig
from wave_agent.recall.gather import QueryEmbedder, Reader
from wave_agent.recall.presets import HISTORY, TEMPORAL, VOICES, Preset, resolve
from wave_agent.recall.result import RecallHit, RecallResult

if TYPE_CHECKING:
    from archive.store import ArchiveStore
    from graph.store import GraphStore

log = logging.getLogger("wave.recall")


class Recall:
    """Hybrid recall over the graph (system of record) and the archive (derived index).

    One per process, shared by every chat: it holds the stores and, through its ``Reader``,
    two caches (the people's speakers, stored vectors); everything about one search lives in that search's
    ``Candidates`` and comes back on its ``RecallResult``."""

    def __init__(
        self,
        graph: GraphStore,
        archive: ArchiveStore | None,
        embedder: QueryEmbedder,
        *,
        config: RecallConfig | None = None,
        clock: Callable[[], datetime] = utcnow,
        archive_problem: str | None = None,
        tz: tzinfo = UTC,
        observer: Callable[[Candidates, list[str], np.ndarray], None] | None = None,
        context_observer: Callable[[Candidates, list[str], dict[str, np.ndarray],
                                    dict[str, tuple[str | None, str | None]]], None]
        | None = None,
    ) -> None:
        """``tz``: the person's time zone: "yesterday" and "on 3 June" are their days.
        ``observer``: called with each search's candidates and their learned-ranker features
        before the final pick (the benchmarks keep them to train the ranker on).
        ``context_observer``: called, over a chat between people, with the learned order's first
        ``context.POOL`` ids, the context stage's features of them and each one's turn before
        and after as the search read them, whether or not the stage is on (the benchmarks
        keep them to fit the stage on the engine's own rows)."""
        self.tz = tz
        self.graph = graph
        self.archive = archive
        self.embedder = embedder
        self.config = config or RecallConfig()
        self.clock = clock
        self.archive_problem = archive_problem
        self.reader = Reader(graph, archive, embedder, self.config, archive_problem)
        self.observer = observer
        self.context_observer = context_observer
        self.ranker = learned.load() if self.config.ranker == "learned" else None

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

        ``preset``: a name or a ``Preset``; by default the query's intent picks one, and a
        history question ("сколько стоила аренда раньше?") searches replaced and archived
        records too. ``history``: search those whatever the preset (the memory page). How the
        call went is on the result (``degraded``, ``preset``, ``span``, ``statuses``)."""
        chosen = resolve(preset, query)
        degraded = voices.Degraded()
        if not query.strip() or k <= 0:
            return RecallResult(degraded=degraded, preset=chosen,
                                statuses=chosen.searched(history))
        started = time.perf_counter()
        # Started now, read while the question is embedded (the relatives a role names) and
        # while the voices are asked (the entities the query names, for the graph voice and
        # the entity step; those the entity step asks about and their records): the same
        # reads as one after the other, off the critical path.
        relatives_read = voices.shared(question.read_relatives(
            self.graph, user_id, query, self.config, degraded)) if kin.roles_asked(query) \
            else None
        wants, past, now, share = await self._asked(query, degraded)
        if wants is None and past and preset is None and chosen is not TEMPORAL:
            # a question about a past value the attribute head does not name ("а сколько стоил
            # зал в Нижнем?" once 3200 was replaced by 4500): asked as history, replaced
            # records searched too and no decay, as a past reading with an attribute is. A
            # question about when something happened ("когда я ездила в Казань?") is read in
            # the past too but asks for a date, not a replaced value: it keeps its dated preset
            chosen = HISTORY
        stating_read: asyncio.Future[list[Fact]] | None = None
        if wants is not None:
            if chosen is HISTORY:
                wants = replace(wants, past=True)  # "раньше" read by the preset's words
            # read beside the voices, waited for where its records are used (the asked
            # ranking after the second round), or here for a when-question about the past
            stating_read = voices.shared(self._stating(user_id, degraded))
            if wants.past and preset is None and (chosen is not TEMPORAL or any(
                    f.status is not Status.ACTIVE for f in asked.first(
                        wants, query, await stating_read))):
                # "где я жила раньше?": the replaced records are searched too, whether or not
                # a replaced record states the asked attribute (a change the surface checks
                # made, or a value the reader did not see, left none that does: round
                # twenty-one found month 17's "сколько мы платили за бассейн в Нижнем?"
                # asked of the records in force only). A when-question keeps its dated
                # preset unless the asked attribute has a replaced value
                chosen = HISTORY
        understood = await question.understand(
            self.graph, user_id, query, k=k, preset=chosen, history=history, now=self.clock(),
            tz=self.tz, config=self.config, degraded=degraded, relatives_read=relatives_read)
        c = Candidates(understood, degraded, started, lexical_query=understood.wide,
                       query_entities=[e.id for e in understood.relatives], asked=wants,
                       asked_share=share if share and stated.about_person(
                           query, share, understood.relatives) else None)
        c.named = voices.shared(voices.named(self.graph, user_id, query))
        about_read = voices.shared(self._about_read(c)) if self.config.entity_first else None
        await self.reader.ask_voices(c)
        await self.reader.read_around(c)
        stating = await stating_read if stating_read is not None else []
        found = asked.first(wants, query, stating, understood.relatives,
                            endings=self.config.endings_first) if wants else []
        if found:
            self._join_asked(c, found)
        await self.reader.read_vectors(c)
        cal = calibration.of(self.embedder)
        ranking.rank(c, self.config)
        ranking.weigh(c, self.config, self.clock(), cal)
        if self.ranker is not None or self.observer is not None:
            wanted = None if self.observer is not None or self.ranker is None \
                else self.ranker.names
            ids, x = learned.features(c, self.clock(), cal, c.coverage, wanted)
            if self.observer is not None:
                self.observer(c, ids, x)
            if self.ranker is not None:
                p = learned.rerank(c, self.ranker, x, ids, self.config.others_factor,
                                   self.config.assistant_cosine, self.config.stated_weight)
                self._e5_order(c, ids, x)
                if (self.config.context_stage or self.context_observer is not None) \
                        and not c.e5_ordered:
                    self._context_stage(c, ids, p)
        if self.config.newer_first is not None and self.embedder.model_name == asked.READS:
            newer.newer_first(c, self.clock(), self.config.newer_first)
        ranking.diversify(c, self.config, cal)
        if about_read is not None:
            seeds, found_about = await about_read
            if seeds:
                self._about(c, found_about)
        if (self.config.attribute_first and found and wants is not None
                and not self._ranker_weighs_asked() and self._gate_keeps(wants, now)):
            self._attribute_first(c, wants, found)
        if self.config.replaced_first and c.question.preset is HISTORY:
            await self._replaced_first(c)
        return self._result(c)

    async def _replaced_first(self, c: Candidates) -> None:
        """A question about the past: each chosen record that replaced another comes right
        after the record it replaced (``recall.older``), loaded from the graph when no voice
        found it; a graph that does not answer leaves the order as it was."""
        q = c.question
        for _ in range(older.DEPTH):
            missing = older.wanted(c.chosen, c.facts)
            if not missing:
                break
            nothing: list[Fact] = []
            loaded = await voices.guarded(
                "replaced", functools.partial(self.graph.get_facts, q.user_id, missing),
                nothing, self.config.voice_timeout_s, c.degraded)
            if not loaded:
                break
            for fact in loaded:
                c.facts.setdefault(fact.id, fact)
        chosen = older.replaced_first(c.chosen, c.facts, q.k)
        for i, fid in enumerate(chosen):
            if fid not in c.final or fid not in c.chosen:
                after = next((c.final[x] for x in chosen[i + 1:] if x in c.final), 0.0)
                c.final[fid] = after + 1e-6
        c.chosen = chosen

    def _context_stage(self, c: Candidates, ids: list[str], p: np.ndarray) -> None:
        """``RecallConfig.context_stage``: over a chat between people (``context.between_people``)
        the learned order's first ``context.POOL`` reordered by what surrounds each turn. With
        the stage off, only the ``context_observer`` is handed the features."""
        on = self.config.context_stage
        model = self.config.context_model
        stage = context.load(Path(model)) if model else context.load()
        if (on and stage is None) or not ids:
            return
        started = time.perf_counter()
        order = sorted(ids, key=lambda fid: -c.final[fid])
        pool = [c.facts[fid] for fid in order[: context.POOL]]
        vectors = [c.vectors[fid] for fid in order[: kind.NEAREST] if fid in c.vectors]
        if not context.between_people(pool, vectors):
            return
        q = np.clip(np.asarray(p, dtype=np.float64), 1e-9, 1 - 1e-9)
        logit = dict(zip(ids, np.log(q / (1 - q)).tolist(), strict=True))
        links: dict[str, tuple[str | None, str | None]] = {}
        feats = context.features(order, logit, c.facts, links)
        if self.context_observer is not None:
            self.context_observer(c, order[: context.POOL], feats, links)
        if not on or stage is None:
            return
        scores = stage.score(feats)
        c.final.update(context.reorder(order, c.final, scores))
        c.context_ordered = True
        c.degraded.timings_ms["context-stage"] = (time.perf_counter() - started) * 1000

    def _e5_order(self, c: Candidates, ids: list[str], x: np.ndarray) -> None:
        """``RecallConfig.e5_order``: the learned values handed out in e5's order when it is
        "on", or "auto" and ``recall.order`` finds e5's order likelier to serve this pool."""
        mode = self.config.e5_order
        if mode == "off" or not ids or (mode == "auto"
                                        and not order.prefers_e5(order.pool_of(x))):
            return
        values = order.e5_first(np.asarray([c.final[i] for i in ids]),
                                x[:, learned.FEATURES.index("cosine")])
        for fid, v in zip(ids, values, strict=True):
            c.final[fid] = float(v)
        c.e5_ordered = True

    def _ranker_weighs_asked(self) -> bool:
        """Whether the learned ranker weighs the attribute step's verdict (``rr_asked``,
        ``LearnedRanker.weighs_asked``): then its order stands and the step does not
        override it."""
        return self.ranker is not None and self.ranker.weighs_asked

    @staticmethod
    def _join_asked(c: Candidates, found: list[Fact]) -> None:
        """The records that state the asked attribute's value join the candidates, in the
        order ``asked.first`` gives (the ``asked`` ranking: no vote in the fusion, a feature
        of the learned ranker), whether or not a voice found them; their vectors are read
        with the pool's."""
        for fact in found:
            c.facts.setdefault(fact.id, fact)
        c.rankings["asked"] = [f.id for f in found]
        c.seeds = [*c.seeds, *(f.id for f in found if f.id not in c.seeds)]

    def _gate_keeps(self, wants: asked.Asked, now: float | None) -> bool:
        """``RecallConfig.attribute_now_gate``: whether the attribute step's override runs for
        this question: always for a past value, or with the gate off or unreadable; else only
        where the gate reads the question as about now."""
        least = self.config.attribute_now_gate
        return least is None or wants.past or now is None or now >= least

    async def _asked(self, query: str, degraded: voices.Degraded
                     ) -> tuple[asked.Asked | None, bool, float | None,
                                dict[str, float] | None]:
        """The attribute the question asks for (``recall.asked``), from its e5 query vector
        (the semantic voice embeds the same text: the embedder's cache answers it then),
        whether the past head reads it as asking for a past value, and how likely the
        now/stable gate reads it as about now (``asked.p_now``), and the head's whole reading
        (``stated.asked_share``: what the ranker's ``stated`` weight reads)."""
        if asked.model() is None or self.embedder.model_name != asked.READS:
            return None, False, None, None

        async def embed() -> np.ndarray | None:
            vectors: np.ndarray = await self.embedder.embed_query([query])
            return np.asarray(vectors[0])

        vector = await voices.guarded("asked", embed, None, self.config.voice_timeout_s,
                                      degraded)
        heads = self.config.attribute_model
        return (asked.read(self.embedder.model_name, vector, self.config.attribute_threshold,
                           Path(heads) if heads else None),
                asked.asks_past(self.embedder.model_name, vector),
                asked.p_now(self.embedder.model_name, vector),
                stated.asked_share(vector, self.embedder.model_name,
                                   Path(heads) if heads else None))

    async def _stating(self, user_id: str, degraded: voices.Degraded) -> list[Fact]:
        """The person's records that state attribute values, replaced ones too: they also say
        which values a record in force holds only by having replaced them (``asked.first``)."""
        nothing: list[Fact] = []
        return await voices.guarded(
            "attribute", lambda: self.graph.attribute_facts(
                user_id, (Status.ACTIVE, Status.SUPERSEDED)),
            nothing, self.config.voice_timeout_s, degraded)

    @staticmethod
    def _attribute_first(c: Candidates, wants: asked.Asked, found: list[Fact]) -> None:
        """A question about an attribute: the records that state its value first (current,
        or for a question about the past the replaced ones then the current), then the rest
        of recall's choice. Nothing held for it: recall's choice stands. When recall's own
        first record is one of those (a question about now), it stays first: it states the
        asked value too, and recall read the rest of the question ("в каком классе учится
        сын?", read as asking for a child, put the daughter's kindergarten, the newest
        record naming a child, above the son's class; a wife's birthday went below the
        others' the same way), unless the two state one single-valued attribute of the
        same holder: then the newer holds the value in force (a rent that went up, the
        writer having kept both), or an ending said since settled it ("бросила курить"
        above "курю, полпачки в день": ``asked.ended``)."""
        q = c.question
        if c.chosen and not wants.past and c.chosen[0] in {f.id for f in found}:
            mine = next(f for f in found if f.id == c.chosen[0])
            if not asked.same_single_value(mine, found[0], wants.attribute) \
                    and not asked.ended(mine, found, wants.attribute):
                found = sorted(found, key=lambda f: f.id != mine.id)  # stable: the rest as read
        top = max((c.final.get(fid, 0.0) for fid in c.chosen), default=0.0)
        for i, fact in enumerate(found):
            c.facts[fact.id] = fact
            c.final[fact.id] = top + 1.0 - i * 1e-3  # first, in the order they answer it
        c.chosen = list(dict.fromkeys([*(f.id for f in found), *c.chosen]))[: q.k]

    async def _about_read(self, c: Candidates) -> tuple[list[Entity], list[ScoredFact]]:
        """What the entity step reads (``RecallConfig.entity_first``): the entities an entity
        question is about (from the query's named entities, read once for the graph voice
        too) and the records about them; started with the voices, used after the pick."""
        q, named = c.question, c.named
        assert named is not None  # set before this starts
        no_seeds: list[Entity] = []
        seeds = await voices.guarded(
            "about", lambda: self._entities_asked(named, q.text, q.relatives),
            no_seeds, self.config.voice_timeout_s, c.degraded)
        if not seeds:
            return seeds, []
        nothing: list[ScoredFact] = []
        found = await voices.guarded(
            "about", lambda: about.neighbourhood_first(self.graph, q.user_id, seeds, q.statuses,
                                                       max(q.k, about.NEIGHBOURS)),
            nothing, self.config.voice_timeout_s, c.degraded)
        return seeds, found

    @staticmethod
    async def _entities_asked(named: asyncio.Future[list[Entity]], query: str,
                              relatives: Sequence[Entity]) -> list[Entity]:
        return about.asked_of(await asyncio.shield(named), query, relatives)

    def _about(self, c: Candidates, found: list[ScoredFact]) -> None:
        """An entity question: the records about the entity first (``recall.about``)."""
        q = c.question
        chosen = about.entity_first(c.final, found, c.chosen)
        for scored in found:
            c.facts.setdefault(scored.fact.id, scored.fact)
            c.final.setdefault(scored.fact.id, scored.score)
        c.chosen = ranking.first_piece_only(chosen, c.facts)[: q.k]

    @staticmethod
    def _result(c: Candidates) -> RecallResult:
        """The chosen records as hits, with how the call went."""
        q, degraded = c.question, c.degraded
        degraded.timings_ms["fusion"] = (time.perf_counter() - c.fused_at) * 1000
        degraded.timings_ms["total"] = (time.perf_counter() - c.started) * 1000
        if degraded:
            log.info("recall for %s answered without %s", q.user_id, ", ".join(degraded.reasons))
        return RecallResult([
            RecallHit(
                fact=c.facts[fid],
                score=round(c.final[fid], 6),
                ranks={voice: c.ranks.get(fid, {}).get(voice) for voice in VOICES},
            )
            for fid in c.chosen
        ], degraded=degraded, preset=q.preset, span=q.span, statuses=q.statuses,
            query_map=c.map_moved, e5_order=c.e5_ordered,
            context_order=c.context_ordered)

