"""What one search knows, stage by stage.

``Question``: the query as understood before any voice is asked (the preset and the statuses
it searches, the period it names, the relatives it names by role, the query widened by their
names and by clipped words in full). ``Candidates``: what each stage of ``Recall.search`` adds,
in the order the stages run; a stage reads only what the stages before it filled in. One
object per call, so concurrent searches on the shared ``Recall`` never share state."""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime

import numpy as np

from graph.models import Entity, Fact, Status
from wave_agent.recall import when
from wave_agent.recall.asked import Asked
from wave_agent.recall.presets import Preset
from wave_agent.recall.voices import Degraded, VoiceResult


@dataclass(frozen=True, slots=True)
class Question:
    """The query and how it is to be asked."""

    user_id: str
    text: str                          # as the person asked it
    k: int                             # how many records to return
    preset: Preset
    statuses: tuple[Status, ...]       # what every voice and the final filter search
    span: when.Span | None = None      # the period the question names ("в мае")
    # ``span`` widened by the days after it (people talk about a day's events later too)
    period: tuple[datetime, datetime] | None = None
    relatives: tuple[Entity, ...] = ()  # the relatives the question names by role
    wide: str = ""                     # the query with their names and clipped words in full
    rest: str = ""                     # the query without the role ("чем болела ?"), or ""


@dataclass(slots=True)
class Candidates:
    """The candidates of one search, filled in stage by stage (see ``Recall.search``)."""

    question: Question
    degraded: Degraded
    started: float                     # time.perf_counter() when the search began

    # Round one (``ask_voices``): each voice's answer by name ("dated-semantic": the
    # archive's records created in the period the question names).
    results: dict[str, VoiceResult] = field(default_factory=dict)
    lexical_query: str = ""            # the query as the full-text voice asked it
    query_entities: list[str] = field(default_factory=list)  # entities the walk starts from
    rest_embedding: asyncio.Future[np.ndarray] | None = None  # ``rest``, being embedded
    # The known entities the query names (``voices.named``), read once for the graph voice
    # and the entity step alike; None: the graph voice reads them itself.
    named: asyncio.Future[list[Entity]] | None = None
    # The attribute the question asks for (``recall.asked``), None for a question about none;
    # the records that state its value join the candidates as the ``asked`` ranking.
    asked: Asked | None = None
    # The attribute head's whole reading of a question about the person themself (each
    # attribute's probability, ``recall.stated``), None for any other question: what the
    # ranker's ``stated`` weight reads, with each candidate's statement head.
    asked_share: dict[str, float] | None = None

    # After round one: every loaded record, each voice's ranking, the strongest first.
    facts: dict[str, Fact] = field(default_factory=dict)
    rankings: dict[str, list[str]] = field(default_factory=dict)
    seeds: list[str] = field(default_factory=list)

    # Round two (``read_around``): the records said around the text candidates, the walk
    # from the seeds' entities, the rest of a relative's question embedded.
    around: dict[str, tuple[Fact, list[Fact]]] = field(default_factory=dict)
    seed_walk: VoiceResult = field(default_factory=VoiceResult)
    rest_vector: np.ndarray | None = None
    links: dict[str, list[str]] = field(default_factory=dict)  # each record's neighbours

    # Round three (``read_vectors``): the stored vectors of the pool (candidates and their
    # neighbours).
    pool: list[str] = field(default_factory=list)
    vectors: dict[str, np.ndarray] = field(default_factory=dict)
    fused_at: float = 0.0              # when the reads ended and ranking began

    # Ranking (``rank``): each record's cosine in its context window, the weights, the fused
    # scores and each record's rank per voice.
    in_context: dict[str, float] = field(default_factory=dict)
    # whether the query map moved the question (recall.adapter; ``auto``: recall.kind)
    map_moved: bool = False
    # whether the learned values were handed out in e5's order (RecallConfig.e5_order)
    e5_ordered: bool = False
    # whether the context stage reordered the learned order (``recall.context``)
    context_ordered: bool = False
    # an adapted query's cosines on plain e5's scale: scale * cosine + shift (recall.adapter)
    cosine_map: tuple[float, float] = (1.0, 0.0)
    weights: Mapping[str, float] = field(default_factory=dict)
    scores: dict[str, float] = field(default_factory=dict)
    ranks: dict[str, dict[str, int]] = field(default_factory=dict)
    # per full-text voice, each record's share of the question it covers (``coverage_scale``)
    coverage: dict[str, dict[str, float]] = field(default_factory=dict)

    # Weighing (``weigh``) and the final pick (``diversify``). ``signals``: what ``weigh``
    # found about each record (its factors), which the learned ranker reads as features.
    final: dict[str, float] = field(default_factory=dict)
    signals: dict[str, dict[str, float]] = field(default_factory=dict)
    chosen: list[str] = field(default_factory=list)

    @property
    def query_vector(self) -> np.ndarray | None:
        """The query's embedding, when the semantic voice answered."""
        semantic = self.results.get("semantic")
        return semantic.query_vector if semantic is not None else None

    def plain_scale(self, cosine: float) -> float:
        """A cosine with ``query_vector`` on plain e5's scale (``cosine_map``)."""
        scale, shift = self.cosine_map
        return scale * cosine + shift

    @property
    def lexical_scores(self) -> dict[str, float]:
        """The full-text voice's raw scores (BM25), by record."""
        lexical = self.results.get("lexical")
        return lexical.scores if lexical is not None else {}
