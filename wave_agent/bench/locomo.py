"""``wave bench locomo``: Wave's recall against plain baselines on LoCoMo, in one run.

For each conversation every turn is replayed into a fresh user's memory through the Writer's
batch path (hygiene applies) as a message from its speaker at its session's date (turns of a
session 30 s apart, provenance = the turn's ``dia_id``). Each question with evidence
(category 5 excluded) is asked of ``Recall.search`` and of three baselines over the same turns:
plain BM25 (bm25s + PyStemmer English), plain dense (the same embedding model) and
``context_rrf`` (BM25 + dense over each turn joined with its neighbours, fused by RRF).

R@k is the share of a question's evidence ids found among the first k records, averaged over
questions; a record counts for every ``dia_id`` in its provenance. MRR: the mean of 1 / the
rank of the first record holding any of the evidence. Latency is per question:
``Recall.search`` end to end for Wave; query embedding + exhaustive cosine for dense (its own
instance of the model, so neither side is served by the other's query cache).
"""

from __future__ import annotations

import logging
import time
import uuid
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from graph.models import FactType, Veracity
from wave_agent.bench.baselines import BM25Index, ContextRRF, DenseIndex, context_windows
from wave_agent.bench.features import FeatureLog
from wave_agent.bench.locomo_data import Conversation, Turn, load_conversations

if TYPE_CHECKING:
    from graph.store import GraphStore
    from wave_agent.services import Services
    from wave_agent.write.writer import Writer

log = logging.getLogger("wave.bench.locomo")
WARMUP = 10  # untimed searches per conversation before its questions

KS = (1, 5, 10)
TURN_SPACING = timedelta(seconds=30)
SYSTEMS = ("wave", "bm25", "dense", "context_rrf")


# The learned ranker's split of these seven conversations: two kept aside by a fixed hash of
# their names (``split_of``); the rest are for tuning.
HELD_CONVERSATIONS = 2


def split_of(name: str, names: Sequence[str] = ("conv-26", "conv-30", "conv-41", "conv-42",
                                                "conv-43", "conv-47", "conv-49")) -> str:
    """``held`` for the HELD_CONVERSATIONS dev conversations whose hashed names come first."""
    import hashlib

    ranked = sorted(names, key=lambda n: hashlib.sha256(f"locomo:{n}".encode()).hexdigest())
    return "held" if name in ranked[:HELD_CONVERSATIONS] else "tune"


def record_text(turn: Turn) -> str:
    """A turn as Wave remembers it: who said it, then what was said."""
    return f"{turn.speaker}: {turn.text}"


def turn_times(turns: Sequence[Turn]) -> list[Any]:
    times, position, session = [], 0, None
    for turn in turns:
        position = position + 1 if turn.session == session else 0
        session = turn.session
        times.append(turn.at + position * TURN_SPACING)
    return times


def recall_at(found: Sequence[Sequence[str]], evidence: Sequence[str], k: int) -> float:
    """Share of ``evidence`` among the provenance of the first ``k`` results."""
    covered: set[str] = set()
    for ids in found[:k]:
        covered.update(ids)
    return len(covered & set(evidence)) / len(evidence)


@dataclass
class Tally:
    hits: dict[str, dict[int, list[float]]] = field(
        default_factory=lambda: {s: {k: [] for k in KS} for s in SYSTEMS})
    latency: dict[str, list[float]] = field(default_factory=lambda: {"wave": [], "dense": []})
    warmup: list[float] = field(default_factory=list)  # untimed searches before the questions
    steps: dict[str, list[float]] = field(default_factory=dict)
    by_category: dict[int, list[float]] = field(default_factory=dict)
    degraded: int = 0
    query_map: int = 0  # questions the learned query map moved (Wave's own search)
    per_conversation: dict[str, dict[str, dict[int, list[float]]]] = field(default_factory=dict)
    # per system, 1 / the rank of the first record holding any evidence (0 when none does)
    reciprocal: dict[str, list[float]] = field(default_factory=dict)
    # one row a question (``--details``): each system's first rank and evidence found at k, so
    # two runs can be compared question by question, not only by their means
    questions: list[dict[str, Any]] = field(default_factory=list)

    def add(self, system: str, found: Sequence[Sequence[str]], evidence: Sequence[str],
            conversation: str = "") -> None:
        mine = self.per_conversation.setdefault(
            conversation, {s: {k: [] for k in KS} for s in SYSTEMS})
        mine.setdefault(system, {k: [] for k in KS})  # a system beyond SYSTEMS (``also``)
        self.hits.setdefault(system, {k: [] for k in KS})
        first = next((n for n, ids in enumerate(found) if set(ids) & set(evidence)), None)
        self.reciprocal.setdefault(system, []).append(1.0 / (first + 1) if first is not None
                                                      else 0.0)
        for k in KS:
            value = recall_at(found, evidence, k)
            self.hits[system][k].append(value)
            mine[system][k].append(value)

    def question(self, qid: str, category: int, evidence: Sequence[str],
                 found: dict[str, Sequence[Sequence[str]]], text: str = "") -> dict[str, Any]:
        """Record one question's row: per system the 1-based rank of the first record holding
        any evidence (None when none of the returned ones does) and the share found at each k."""
        row: dict[str, Any] = {"id": qid, "category": category, "text": text,
                               "evidence": list(evidence)}
        for system, ranked in found.items():
            first = next((n for n, ids in enumerate(ranked, 1) if set(ids) & set(evidence)),
                         None)
            row[system] = {"first": first, **{f"R@{k}": round(recall_at(ranked, evidence, k), 3)
                                               for k in KS},
                           # which evidence turns are within ten (the misses read by turn)
                           "within_10": sorted(set(evidence) & {t for ids in ranked[:max(KS)]
                                                                for t in ids})}
        self.questions.append(row)
        return row

    def conversation_summary(self) -> dict[str, dict[str, dict[str, float]]]:
        return {
            name: {system: {f"R@{k}": round(100 * float(np.mean(v)), 1) if v else 0.0
                            for k, v in by_k.items()} for system, by_k in systems.items()}
            for name, systems in self.per_conversation.items()
        }

    def summary(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for system in self.hits:
            out[system] = {
                f"R@{k}": round(100 * float(np.mean(v)), 1) if v else 0.0
                for k, v in self.hits[system].items()
            }
            mrr = self.reciprocal.get(system)
            out[system]["MRR"] = round(float(np.mean(mrr)), 3) if mrr else 0.0
        out["latency_ms"] = {
            name: {
                "p50": round(float(np.percentile(v, 50)), 1) if v else 0.0,
                "p95": round(float(np.percentile(v, 95)), 1) if v else 0.0,
            }
            for name, v in self.latency.items()
        }
        out["warmup_ms"] = {"first": round(self.warmup[0], 1) if self.warmup else 0.0,
                            "count": len(self.warmup)}
        out["questions"] = len(self.hits["wave"][KS[0]])
        return out


class PrimedEmbedder:
    """The embedder with a cache for document texts only (turns embedded once for Wave and the
    baselines: what the writer embeds is kept too); queries always go to the model, so
    latencies stay honest."""

    def __init__(self, embedder: Any) -> None:
        self._embedder = embedder
        self._cache: dict[str, np.ndarray] = {}
        self.model_name = embedder.model_name
        self.seconds = 0.0  # spent embedding documents for the writer (``embed``)

    @property
    def dim(self) -> int:
        return int(self._embedder.dim)

    async def prime(self, texts: Sequence[str]) -> np.ndarray:
        todo = [t for t in dict.fromkeys(texts) if t not in self._cache]
        if todo:
            vectors = await self._embedder.embed(todo)
            self._cache.update(zip(todo, vectors, strict=True))
        return np.stack([self._cache[t] for t in texts]) if texts else np.zeros((0, self.dim))

    async def embed(self, texts: Sequence[str]) -> np.ndarray:
        if texts and all(t in self._cache for t in texts):
            return np.stack([self._cache[t] for t in texts])
        started = time.perf_counter()
        vectors = await self._embedder.embed(list(texts))
        self.seconds += time.perf_counter() - started
        self._cache.update(zip(texts, vectors, strict=True))
        return vectors  # type: ignore[no-any-return]

    async def embed_query(self, texts: Sequence[str]) -> np.ndarray:
        return await self._embedder.embed_query(list(texts))  # type: ignore[no-any-return]

    def forget(self) -> None:
        self._cache.clear()


Progress = Callable[[str, int, int], None]


async def run_conversation(
    conversation: Conversation,
    *,
    writer: Writer,
    recall_factory: Callable[[Any], Any],
    embedder: PrimedEmbedder,
    graph: GraphStore,
    tally: Tally,
    progress: Progress,
    keep: bool = False,
    dense_embedder: Any | None = None,
    log: FeatureLog | None = None,
    also: dict[str, Callable[[Any], Any]] | None = None,
) -> str:
    """Replay, ask, score one conversation; returns the benchmark user's id. ``also``: other
    recall configurations by system name, each asked every question over the same records
    after Wave's own (their latencies gain from the caches Wave's search filled)."""
    from wave_agent.write.writer import MemoryItem

    turns = conversation.turns
    texts = [record_text(t) for t in turns]
    progress(f"{conversation.name}: embedding turns", 0, len(turns))
    turn_vectors = await embedder.prime(texts)
    windows = context_windows(texts, [t.session for t in turns])
    window_vectors = await embedder.prime(windows)

    user_id = f"bench-locomo-{conversation.name}-{uuid.uuid4().hex[:6]}"
    times = turn_times(turns)
    items = [
        MemoryItem(
            text=text, type=FactType.EVENT, veracity=Veracity.STATED, created_at=when,
            speaker=turn.speaker,
            source_message_ids=(turn.dia_id,),
            exchange_id=f"{conversation.name}:s{turn.session}",
            episode_date=turn.at.date().isoformat(),
        )
        for turn, text, when in zip(turns, texts, times, strict=True)
    ]
    batch = 100
    for start in range(0, len(items), batch):
        await writer.remember_many(user_id, items[start:start + batch])
        progress(f"{conversation.name}: remembering", min(start + batch, len(items)), len(items))

    clock_at = max(times) + timedelta(hours=1)
    recall = recall_factory(lambda: clock_at)
    others = {name: factory(lambda: clock_at) for name, factory in (also or {}).items()}
    # A fresh Neo4j's first searches compile plans: warm up on turns, not questions.
    tally.warmup += await recall.warm_up(user_id, texts[::max(1, len(texts) // WARMUP)][:WARMUP])
    bm25 = BM25Index(texts)
    dense = DenseIndex(turn_vectors)
    context = ContextRRF(windows, window_vectors)
    ids = [(t.dia_id,) for t in turns]

    questions = conversation.questions
    for n, question in enumerate(questions, 1):
        if log is not None:
            log.ask(lambda fact: fact.source_message_ids, set="locomo",
                    id=f"{conversation.name}:{n}", split=split_of(conversation.name),
                    group=conversation.name, metric="share", answers=list(question.evidence))
        started = time.perf_counter()
        hits = await recall.search(user_id, question.text, k=max(KS))
        if log is not None:
            log.done()
        tally.latency["wave"].append((time.perf_counter() - started) * 1000)
        if hits.degraded:
            tally.degraded += 1
        tally.query_map += hits.query_map
        for step, ms in hits.degraded.timings_ms.items():
            tally.steps.setdefault(step, []).append(ms)
        found: dict[str, Sequence[Sequence[str]]] = {
            "wave": [h.fact.source_message_ids for h in hits]}
        for name, other in others.items():
            started = time.perf_counter()
            other_hits = await other.search(user_id, question.text, k=max(KS))
            tally.latency.setdefault(name, []).append((time.perf_counter() - started) * 1000)
            found[name] = [h.fact.source_message_ids for h in other_hits]

        started = time.perf_counter()
        vector = (await (dense_embedder or embedder).embed_query([question.text]))[0]
        dense_top = dense.search_vector(vector, max(KS))
        tally.latency["dense"].append((time.perf_counter() - started) * 1000)
        found["dense"] = [ids[i] for i in dense_top]
        found["bm25"] = [ids[i] for i in bm25.search(question.text, max(KS))]
        found["context_rrf"] = [ids[i] for i in context.search(question.text, vector, max(KS))]
        for system, ranked in found.items():
            tally.add(system, ranked, question.evidence, conversation.name)
        tally.question(f"{conversation.name}:{n}", question.category, question.evidence, found,
                       question.text)
        tally.by_category.setdefault(question.category, []).append(
            recall_at(found["wave"], question.evidence, 10))
        progress(f"{conversation.name}: asking", n, len(questions))

    if not keep:
        progress(f"{conversation.name}: cleaning up", 0, 1)
        await writer.erase_user(user_id)
        progress(f"{conversation.name}: cleaning up", 1, 1)
    return user_id


async def run_benchmark(
    data_dir: Path,
    *,
    services: Services,
    conversations: int | None = None,
    names: Sequence[str] | None = None,
    progress: Progress | None = None,
    keep: bool = False,
    features: Path | None = None,
    graph_voice: bool = True,
    also_adapter: Sequence[str] = (),
    voice_timeout_s: float | None = None,
    also_config: Mapping[str, Mapping[str, Any]] | None = None,
) -> dict[str, Any]:
    """Run the whole benchmark; returns the summary dict ``--json`` prints (plus extras).
    ``features``: keep each question's candidates and features there (``bench.features``).
    ``graph_voice=False``: the ablation, recall without the graph walk (``graph_depth`` 0).
    ``also_adapter``: the query map's modes (``RECALL_QUERY_ADAPTER``) also asked over the same
    records, as systems ``wave-<mode>`` (a paired comparison in one run). ``voice_timeout_s``:
    each voice's timeout (the product's 1 s unless given; a loaded machine times voices out).
    ``also_config``: ``{name: RecallConfig overrides}`` (``--also-config``), each also asked over
    the same records as system ``wave-<name>``."""
    from wave_agent.recall import Recall, RecallConfig
    from wave_agent.write.archive_sync import ArchiveSync
    from wave_agent.write.writer import Writer

    selected = load_conversations(data_dir, limit=None if names else conversations)
    if names:
        selected = [c for c in selected if c.name in set(names)]
    report = progress or (lambda _label, _done, _total: None)
    embedder = PrimedEmbedder(services.embedder())
    graph = await services.graph()
    archive = await services.archive()
    writer = Writer(graph, ArchiveSync(embedder, archive))  # type: ignore[arg-type]

    log = FeatureLog(features)
    config = RecallConfig(ranker=services.settings.recall_ranker,
                          newer_first=services.settings.recall_newer_first or None,
                          query_adapter=services.settings.recall_query_adapter,
                          learned_mmr_lambda=services.settings.recall_learned_mmr_lambda or None,
                          graph_depth=RecallConfig().graph_depth if graph_voice else 0,
                          voice_timeout_s=voice_timeout_s or RecallConfig().voice_timeout_s)

    def recall_factory(clock: Callable[[], Any]) -> Recall:
        return Recall(graph, archive, embedder, clock=clock, config=config,
                      observer=log.observer, context_observer=log.context_observer)

    def factory_for(overrides: Mapping[str, Any]) -> Callable[[Any], Any]:
        return lambda clock: Recall(graph, archive, embedder, clock=clock,
                                    config=replace(config, **overrides))

    also = {f"wave-{mode}": factory_for({"query_adapter": mode}) for mode in also_adapter}
    also.update({f"wave-{name}": factory_for(v) for name, v in (also_config or {}).items()})

    # The dense baseline embeds its queries with its own instance of the same model: the
    # embedder's query cache must not hand either side the other's work.
    from archive.embedder import Embedder

    dense_embedder = Embedder(services.settings.embedding_model,
                              device=services.settings.embedding_device)
    # Load both models once so the first question does not pay for it.
    await embedder.embed(["warm up"])
    await dense_embedder.embed(["warm up"])
    tally = Tally()
    for conversation in selected:
        await run_conversation(
            conversation, writer=writer, recall_factory=recall_factory, embedder=embedder,
            graph=graph, tally=tally, progress=report, keep=keep, dense_embedder=dense_embedder,
            log=log, also=also,
        )
        embedder.forget()
    summary = tally.summary()
    summary["_extra"] = {
        "conversations": [c.name for c in selected],
        "wave_R@10_by_category": {
            str(c): round(100 * float(np.mean(v)), 1) for c, v in sorted(tally.by_category.items())
        },
        "degraded_questions": tally.degraded,
        "query_map_questions": tally.query_map,
        "wave_steps_ms": {
            step: {"p50": round(float(np.percentile(v, 50)), 1),
                   "p95": round(float(np.percentile(v, 95)), 1)}
            for step, v in sorted(tally.steps.items())
        },
        "per_conversation": tally.conversation_summary(),
        "questions_detail": tally.questions,
    }
    return summary
