"""``wave bench memory --data DIR``: recall on a personal-memory set, in any language.

File format (a directory; docs/benchmarks.md, "Memory benchmark", has an example):

- ``set.json``: ``{"language": "russian", "name": "...", "asked_at": "2026-07-01T12:00:00"}``.
  ``language`` is a Snowball stemmer name (PyStemmer: russian, polish, english...) for the BM25
  baseline; ``asked_at`` (optional) is when the questions are asked (default: a day after the
  last fact).
- ``facts.jsonl``: one record a line, ``{"id": "f001", "date": "2026-01-12", "text": "..."}``
  (``date`` is ISO, a day or a moment: when it was said), in any order. Facts of one day
  without a time are placed an hour apart from 09:00 (separate conversations).
- ``questions.jsonl``: ``{"id": "q001", "text": "...", "answers": ["f001", "f014"],
  "kind": "paraphrase", "split": "tune"}``. ``answers``: the facts that answer it (R@k counts
  the question as found when at least one of them is in the first k; for a question needing two
  facts, list both: either one found counts, the second shows in ``both@10``); ``kind``: any
  label (per-kind figures); ``split``: ``tune`` or ``held`` (held out: never tuned on).

Facts go in through ``Writer.remember_many`` (``wave import``'s own path; a changed number it
proposes is approved, as the person would), questions through
``Recall.search`` with k 10, in one run with plain BM25 (the language's stemmer and stop words)
and plain dense search with Wave's embedding model over the same facts.
"""

from __future__ import annotations

import json
import time
import uuid
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from wave_agent.bench.baselines import BM25Index, DenseIndex
from wave_agent.bench.features import FeatureLog
from wave_agent.errors import WaveError

if TYPE_CHECKING:
    from wave_agent.services import Services

KS = (1, 5, 10)
SYSTEMS = ("wave", "bm25", "dense")
Progress = Callable[[str, int, int], None]


@dataclass(frozen=True, slots=True)
class SetFact:
    id: str
    at: datetime
    text: str


@dataclass(frozen=True, slots=True)
class SetQuestion:
    id: str
    text: str
    answers: tuple[str, ...]
    kind: str
    split: str


@dataclass(frozen=True, slots=True)
class MemorySet:
    name: str
    language: str
    asked_at: datetime
    facts: tuple[SetFact, ...]
    questions: tuple[SetQuestion, ...]


def _when(value: str, where: str) -> datetime:
    try:
        parsed = datetime.fromisoformat(value)
    except (TypeError, ValueError) as exc:
        raise WaveError(f"{where}: {value!r} is not an ISO date",
                        next_step="write dates as 2026-01-12 or 2026-01-12T09:30:00") from exc
    return parsed if parsed.tzinfo else parsed.replace(tzinfo=UTC)


def _lines(path: Path) -> list[dict[str, Any]]:
    if not path.is_file():
        raise WaveError(f"{path} is missing",
                        next_step="a memory set has set.json, facts.jsonl and questions.jsonl "
                                  "(docs/benchmarks.md, \"Memory benchmark\")")
    out = []
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except json.JSONDecodeError as exc:
            raise WaveError(f"{path.name} line {n} is not JSON ({exc.msg})",
                            next_step="one JSON object a line") from exc
        if not isinstance(record, dict):
            raise WaveError(f"{path.name} line {n} is not an object", next_step="one JSON object a line")
        out.append(record)
    return out


def _spread_days(facts: list[SetFact], day_only: list[bool]) -> list[SetFact]:
    """Facts given a day without a time were said in separate conversations that day: from
    09:00, an hour apart, in file order (otherwise they would all be one moment, and recall
    would take them for one conversation's context). Give times to model a conversation."""
    seen: dict[datetime, int] = {}
    out = []
    for fact, spread in zip(facts, day_only, strict=True):
        if spread:
            n = seen.get(fact.at, 0)
            seen[fact.at] = n + 1
            fact = SetFact(fact.id, fact.at + timedelta(hours=9 + n), fact.text)
        out.append(fact)
    return out


def load_set(directory: Path) -> MemorySet:
    meta_path = directory / "set.json"
    meta: dict[str, Any] = {}
    if meta_path.is_file():
        meta = json.loads(meta_path.read_text(encoding="utf-8"))
    facts = []
    for n, r in enumerate(_lines(directory / "facts.jsonl"), 1):
        if not isinstance(r.get("id"), str) or not isinstance(r.get("text"), str):
            raise WaveError(f"facts.jsonl record {n} needs an \"id\" and a \"text\"",
                            next_step='{"id": "f001", "date": "2026-01-12", "text": "..."}')
        facts.append(SetFact(r["id"], _when(r.get("date", ""), f"fact {r['id']}"), r["text"]))
    facts = _spread_days(facts, [len(str(r.get("date", ""))) <= 10
                                 for r in _lines(directory / "facts.jsonl")])
    known = {f.id for f in facts}
    questions = []
    for n, r in enumerate(_lines(directory / "questions.jsonl"), 1):
        answers = tuple(r.get("answers") or ())
        if not isinstance(r.get("text"), str) or not answers:
            raise WaveError(f"questions.jsonl record {n} needs a \"text\" and \"answers\"",
                            next_step='{"id": "q001", "text": "...", "answers": ["f001"]}')
        unknown = [a for a in answers if a not in known]
        if unknown:
            raise WaveError(f"question {r.get('id', n)} names unknown facts: {', '.join(unknown)}",
                            next_step="answers must be ids from facts.jsonl")
        questions.append(SetQuestion(str(r.get("id", f"q{n}")), r["text"], answers,
                                     str(r.get("kind", "other")), str(r.get("split", "tune"))))
    if not facts or not questions:
        raise WaveError(f"{directory} has no facts or no questions",
                        next_step="fill facts.jsonl and questions.jsonl")
    last = max(f.at for f in facts)
    asked = _when(meta["asked_at"], "set.json asked_at") if meta.get("asked_at") else (
        last + timedelta(days=1))
    return MemorySet(str(meta.get("name", directory.name)), str(meta.get("language", "english")),
                     asked, tuple(facts), tuple(questions))


@dataclass
class Scores:
    """Per system: the rank (1-based) of the first answering fact per question, None if not in
    the first 10; and whether all answers were in the first 10."""

    first: dict[str, list[int | None]] = field(default_factory=lambda: {s: [] for s in SYSTEMS})
    every: dict[str, list[bool]] = field(default_factory=lambda: {s: [] for s in SYSTEMS})
    latency: dict[str, list[float]] = field(default_factory=lambda: {"wave": [], "dense": []})
    steps: dict[str, list[float]] = field(default_factory=dict)  # Wave's, per recall step

    def add(self, system: str, ranked: Sequence[str], answers: Sequence[str]) -> None:
        top = list(ranked)[: max(KS)]
        rank = next((i + 1 for i, fid in enumerate(top) if fid in answers), None)
        self.first.setdefault(system, []).append(rank)  # a system beyond SYSTEMS (``also``)
        self.every.setdefault(system, []).append(all(a in top for a in answers))


def figures(ranks: Sequence[int | None], every: Sequence[bool]) -> dict[str, float]:
    n = max(1, len(ranks))
    out = {f"R@{k}": round(100 * sum(1 for r in ranks if r is not None and r <= k) / n, 1)
           for k in KS}
    out["MRR"] = round(sum(1.0 / r for r in ranks if r is not None) / n, 3)
    out["both@10"] = round(100 * sum(every) / n, 1)
    out["n"] = len(ranks)
    return out


def summarise(data: MemorySet, scores: Scores, misses: list[dict[str, Any]]) -> dict[str, Any]:
    questions = data.questions

    def select(keep: Callable[[SetQuestion], bool]) -> dict[str, dict[str, float]]:
        idx = [i for i, q in enumerate(questions) if keep(q)]
        return {s: figures([scores.first[s][i] for i in idx], [scores.every[s][i] for i in idx])
                for s in scores.first}

    return {
        "set": data.name,
        "language": data.language,
        "facts": len(data.facts),
        "questions": len(questions),
        "all": select(lambda q: True),
        "by_split": {sp: select(lambda q, sp=sp: q.split == sp)  # type: ignore[misc]
                     for sp in sorted({q.split for q in questions})},
        "by_kind": {k: select(lambda q, k=k: q.kind == k)  # type: ignore[misc]
                    for k in sorted({q.kind for q in questions})},
        "latency_ms": {
            s: {"p50": round(float(np.percentile(v, 50)), 1),
                "p95": round(float(np.percentile(v, 95)), 1)}
            for s, v in scores.latency.items() if v
        },
        "wave_steps_ms": {
            step: {"p50": round(float(np.percentile(v, 50)), 1),
                   "p95": round(float(np.percentile(v, 95)), 1)}
            for step, v in sorted(scores.steps.items())
        },
        "wave_misses": misses,
    }


async def run_memory_benchmark(
    directory: Path, *, services: Services, progress: Progress | None = None, keep: bool = False,
    voice_timeout_s: float = 5.0, features: Path | None = None, graph_voice: bool = True,
    also_adapter: Sequence[str] = (),
    also_config: Mapping[str, Mapping[str, Any]] | None = None,
) -> dict[str, Any]:
    """``voice_timeout_s``: recall's per-voice timeout. Wave's default (1 s) drops a voice on a
    machine this loaded; the benchmark measures what the voices find, so it waits longer and
    counts the questions answered with a voice missing anyway (``degraded``).
    ``graph_voice=False``: the ablation, recall without the graph walk (``graph_depth`` 0).
    ``also_adapter``: the query map's modes also asked over the same records after Wave's own
    search, as systems ``wave-<mode>`` (a paired comparison in one run); ``also_config``:
    ``{name: RecallConfig overrides}`` (``--also-config``), each as system ``wave-<name>``."""
    from archive.embedder import Embedder
    from graph.models import Veracity
    from wave_agent.recall import Recall, RecallConfig
    from wave_agent.write.writer import MemoryItem

    data = load_set(directory)
    report = progress or (lambda _label, _done, _total: None)
    writer = await services.writer()
    graph = await services.graph()
    archive = await services.archive()
    embedder = services.embedder()
    # The dense baseline embeds with its own instance of the same model (no shared cache).
    dense_embedder = Embedder(services.settings.embedding_model,
                              device=services.settings.embedding_device)
    await embedder.load()
    await dense_embedder.load()

    user_id = f"bench-memory-{uuid.uuid4().hex[:8]}"
    facts = sorted(data.facts, key=lambda f: f.at)
    wave_ids: dict[str, str] = {}  # Wave's fact id -> the set's id
    batch = 50
    for start in range(0, len(facts), batch):
        chunk = facts[start:start + batch]
        results = await writer.remember_many(user_id, [
            MemoryItem(text=f.text, veracity=Veracity.STATED, created_at=f.at) for f in chunk])
        for f, result in zip(chunk, results, strict=True):
            if result.proposal is not None and result.fact is None:
                # a changed number: the import proposes it, and the person approves (the
                # seeds' 150 -> 200); the new record supersedes the old, both stay findable
                result = await writer.approve(user_id, result.proposal.id)
            if result.fact is not None:
                wave_ids[result.fact.id] = f.id
        report("remembering", min(start + batch, len(facts)), len(facts))

    texts = [f.text for f in facts]
    set_ids = [f.id for f in facts]
    log = FeatureLog(features)
    observer = log.observer
    bm25 = BM25Index(texts, language=data.language)
    dense = DenseIndex(await dense_embedder.embed(texts))
    recall = Recall(graph, archive, embedder, clock=lambda: data.asked_at,
                    config=RecallConfig(voice_timeout_s=voice_timeout_s,
                                        ranker=services.settings.recall_ranker,
                                        newer_first=services.settings.recall_newer_first or None,
                                        query_adapter=services.settings.recall_query_adapter,
                                        learned_mmr_lambda=(
                                            services.settings.recall_learned_mmr_lambda or None),
                                        graph_depth=RecallConfig().graph_depth if graph_voice
                                        else 0),
                    observer=observer)
    others = {f"wave-{mode}": Recall(graph, archive, embedder, clock=lambda: data.asked_at,
                                     config=replace(recall.config, query_adapter=mode))
              for mode in also_adapter}
    others.update({f"wave-{name}": Recall(graph, archive, embedder, clock=lambda: data.asked_at,
                                          config=replace(recall.config, **overrides))
                   for name, overrides in (also_config or {}).items()})
    # Warm both sides up on texts that are not questions (no cache can answer a question):
    # a fresh Neo4j's first searches compile plans; the timed figures are the steady state.
    warm_texts = [f.text for f in facts[::max(1, len(facts) // WARMUP)]][:WARMUP]
    warmup_ms = await recall.warm_up(user_id, warm_texts)
    for text in warm_texts:
        dense.search_vector((await dense_embedder.embed_query([text]))[0], max(KS))
    degraded = moved = 0
    scores = Scores()
    misses: list[dict[str, Any]] = []
    ranks: list[dict[str, Any]] = []  # every question's first answer's rank per side, for --details
    try:
        for n, q in enumerate(data.questions, 1):
            log.ask(lambda fact: (wave_ids.get(fact.id, fact.id),), set=data.name, id=q.id,
                    split=q.split, group=data.name, metric="first", answers=list(q.answers))
            started = time.perf_counter()
            hits = await recall.search(user_id, q.text, k=max(KS))
            log.done()
            scores.latency["wave"].append((time.perf_counter() - started) * 1000)
            degraded += bool(hits.degraded.reasons)
            moved += hits.query_map
            for step, ms in hits.degraded.timings_ms.items():
                scores.steps.setdefault(step, []).append(ms)
            ranked = [wave_ids.get(h.fact.id, h.fact.id) for h in hits]
            scores.add("wave", ranked, q.answers)
            if scores.first["wave"][-1] is None or scores.first["wave"][-1] > 5:
                misses.append({"id": q.id, "kind": q.kind, "split": q.split, "text": q.text,
                               "answers": list(q.answers), "rank": scores.first["wave"][-1],
                               "top3": [h.fact.text[:80] for h in hits[:3]],
                               "answer_ranks": {
                                   a: next((dict(h.ranks) for h in hits
                                            if wave_ids.get(h.fact.id) == a), None)
                                   for a in q.answers}})
            for name, other in others.items():
                started = time.perf_counter()
                other_hits = await other.search(user_id, q.text, k=max(KS))
                scores.latency.setdefault(name, []).append((time.perf_counter() - started) * 1000)
                scores.add(name, [wave_ids.get(h.fact.id, h.fact.id) for h in other_hits],
                           q.answers)
            started = time.perf_counter()
            vector = (await dense_embedder.embed_query([q.text]))[0]
            dense_top = dense.search_vector(vector, max(KS))
            scores.latency["dense"].append((time.perf_counter() - started) * 1000)
            scores.add("dense", [set_ids[i] for i in dense_top], q.answers)
            scores.add("bm25", [set_ids[i] for i in bm25.search(q.text, max(KS))], q.answers)
            ranks.append({"id": q.id, "kind": q.kind, **{side: scores.first[side][-1]
                                         for side in ("wave", "dense", "bm25", *others)},
                          "wave_first": ranked[0] if ranked else None})
            report("asking", n, len(data.questions))
    finally:
        if not keep:
            await writer.erase_user(user_id)
    summary = summarise(data, scores, misses)
    summary["degraded"] = degraded
    summary["query_map_questions"] = moved  # the learned query map moved the question
    summary["ranks"] = ranks
    summary["warmup_ms"] = {"first": round(warmup_ms[0], 1) if warmup_ms else 0.0,
                            "count": len(warmup_ms)}
    summary["user"] = user_id
    summary["kept"] = keep
    summary["model"] = embedder.model_name
    return summary


WARMUP = 10  # searches before the timed ones


def default_sets() -> list[Path]:
    """The sets shipped with Wave (bench/data/memory-*), found from the source tree."""
    root = Path(__file__).resolve().parents[2] / "bench" / "data"
    return sorted(p for p in root.glob("memory-*") if p.is_dir())
