"""``wave bench longmemeval --data FILE``: Wave's recall on LongMemEval-S beside plain BM25 and
plain dense search over the same turns, in one run.

For each question a fresh person's memory holds that question's history the way an import
writes it: each turn's text (without a role tag) through ``Writer.remember_many``, dated at its
session's date (turns 30 s apart), said by ``user`` or ``assistant``, its provenance the turn's
id (``<session id>:<position>``), its exchange the session. Then the question is asked at its
``question_date`` with the recall clock set there. The answer is ranked turns: Wave's records
traced back to turns through their provenance, first occurrence first (a turn over 2,000
characters is stored in pieces that each carry its id; a turn the writer merged into a record
said before is in that record's provenance). Recall is asked for ``ASK`` records and the
ranking is cut at ten distinct turns, as the baselines rank turns: a record that repeats a
turn already ranked takes no place. A turn the writer quarantined is not searched, so
it is a miss for Wave, and counted (``quarantined``, ``quarantined_evidence``).

Metrics as the benchmark's own retrieval evaluation gives them, over the first k ranked turns
(k = 5, 10): turn-level recall_any@k (any evidence turn found) and recall_all@k (every one),
session-level recall_any@k / recall_all@k (the sessions of those turns against the answer
sessions), NDCG@k over turns; plus R@1 (an evidence turn first) and MRR. Abstention questions
(``_abs``) hold no evidence and are left out, as the benchmark's scripts do.

Split: the dataset's 60 questions are split once, by a fixed hash of the question id within
each question type (``split_of``): three of each type's questions are kept aside (``held``),
the rest are for tuning (``tune``). Figures are given for both and for all.
"""

from __future__ import annotations

import hashlib
import json
import math
import time
import uuid
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from graph.models import FactType, Veracity
from wave_agent.bench.baselines import BM25Index, DenseIndex
from wave_agent.bench.features import FeatureLog
from wave_agent.bench.locomo import PrimedEmbedder
from wave_agent.errors import WaveError

if TYPE_CHECKING:
    from wave_agent.services import Services

KS = (5, 10)
SYSTEMS = ("wave", "bm25", "dense")
HELD_PER_TYPE = 3
TURN_SPACING = timedelta(seconds=30)
WARMUP = 5
# Records asked of recall: more than ten, so ten distinct turns remain after records that
# trace back to a turn already ranked (two pieces of one long turn, a merged repeat).
ASK = 30
Progress = Callable[[str, int, int], None]


@dataclass(frozen=True, slots=True)
class Turn:
    id: str            # "<session id>:<position in the session>"
    session: str
    role: str
    text: str
    at: datetime
    evidence: bool


@dataclass(frozen=True, slots=True)
class Item:
    id: str
    type: str
    question: str
    asked_at: datetime
    answer_sessions: tuple[str, ...]
    turns: tuple[Turn, ...]
    split: str

    @property
    def evidence(self) -> tuple[str, ...]:
        return tuple(t.id for t in self.turns if t.evidence)

    @property
    def abstention(self) -> bool:
        return self.id.endswith("_abs")


def parse_variant(raw: str) -> tuple[str, dict[str, Any]]:
    """``--also-config`` ``name:field=value[,field=value]`` as ``(name, RecallConfig
    overrides)``: ``none`` is None, ``true``/``false`` booleans, numbers numbers, the rest
    strings; a field ``RecallConfig`` does not have is refused."""
    from dataclasses import fields

    from wave_agent.recall import RecallConfig

    name, sep, body = raw.partition(":")
    known = {f.name for f in fields(RecallConfig)}
    overrides: dict[str, Any] = {}
    for pair in filter(None, body.split(",")):
        key, eq, value = pair.partition("=")
        if not eq or key not in known:
            raise WaveError(f"--also-config {raw}: {key!r} is not a recall setting",
                            next_step="name:field=value, a field of RecallConfig: "
                                      + ", ".join(sorted(known)))
        overrides[key] = _value(value)
    if not sep or not name or not overrides:
        raise WaveError(f"--also-config {raw} names no setting",
                        next_step="e.g. --also-config nonewer:newer_first=none")
    return name, overrides


def _value(raw: str) -> Any:
    low = raw.strip().lower()
    if low in ("none", "null"):
        return None
    if low in ("true", "false"):
        return low == "true"
    for kind in (int, float):
        try:
            return kind(raw)
        except ValueError:
            pass
    return raw


def parse_date(raw: str) -> datetime:
    """``"2023/05/30 (Tue) 23:40"`` as a UTC moment."""
    day, _, rest = raw.partition(" (")
    clock = rest.partition(") ")[2] or "00:00"
    try:
        return datetime.strptime(f"{day} {clock}", "%Y/%m/%d %H:%M").replace(tzinfo=UTC)
    except ValueError as exc:
        raise WaveError(f"unrecognised LongMemEval date {raw!r}",
                        next_step='dates look like "2023/05/30 (Tue) 23:40"') from exc


def split_of(question_id: str, question_type: str, ids_of_type: Sequence[str]) -> str:
    """``held`` for the HELD_PER_TYPE questions of a type whose hashed ids come first (the
    abstention questions are not counted), ``tune`` for the rest."""
    def key(qid: str) -> str:
        return hashlib.sha256(f"longmemeval:{qid}".encode()).hexdigest()

    ranked = sorted((q for q in ids_of_type if not q.endswith("_abs")), key=key)
    return "held" if question_id in ranked[:HELD_PER_TYPE] else "tune"


def load(path: Path) -> list[Item]:
    """The questions of a LongMemEval file (``longmemeval_s.json``'s format)."""
    if not path.is_file():
        raise WaveError(f"{path} is not a file",
                        next_step="give the JSON file, e.g. --data "
                                  "../shared/data/longmemeval/longmemeval_s_dev60.json")
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        raise WaveError(f"{path} is not JSON ({exc.msg})",
                        next_step="give LongMemEval's longmemeval_s.json format") from exc
    if not isinstance(raw, list):
        raise WaveError(f"{path} does not hold a list of questions",
                        next_step="give LongMemEval's longmemeval_s.json format")
    by_type: dict[str, list[str]] = {}
    for r in raw:
        by_type.setdefault(r["question_type"], []).append(r["question_id"])
    items = []
    for r in raw:
        turns: list[Turn] = []
        for sid, date, session in zip(r["haystack_session_ids"], r["haystack_dates"],
                                      r["haystack_sessions"], strict=True):
            start = parse_date(date)
            for n, t in enumerate(session):
                turns.append(Turn(f"{sid}:{n}", sid, t["role"], t["content"],
                                  start + n * TURN_SPACING, bool(t.get("has_answer"))))
        items.append(Item(r["question_id"], r["question_type"], r["question"],
                          parse_date(r["question_date"]), tuple(r["answer_session_ids"]),
                          tuple(turns),
                          split_of(r["question_id"], r["question_type"],
                                   by_type[r["question_type"]])))
    return items


# -- metrics -------------------------------------------------------------------------------------

def first_unique(ids: Sequence[str]) -> list[str]:
    return list(dict.fromkeys(ids))


def ndcg(ranked: Sequence[str], relevant: set[str], k: int) -> float:
    gains = sum(1.0 / math.log2(i + 2) for i, t in enumerate(ranked[:k]) if t in relevant)
    ideal = sum(1.0 / math.log2(i + 2) for i in range(min(k, len(relevant))))
    return gains / ideal if ideal else 0.0


def scores_of(ranked_turns: Sequence[str], item: Item) -> dict[str, float]:
    """Every metric of one question for one system, from its ranked turn ids."""
    evidence = set(item.evidence)
    answer_sessions = set(item.answer_sessions)
    out: dict[str, float] = {}
    for k in KS:
        top = set(ranked_turns[:k])
        out[f"turn_any@{k}"] = float(bool(top & evidence))
        out[f"turn_all@{k}"] = float(evidence <= top)
        found = set(sessions_of(ranked_turns[:k]))
        out[f"session_any@{k}"] = float(bool(found & answer_sessions))
        out[f"session_all@{k}"] = float(answer_sessions <= found)
    out["NDCG@10"] = ndcg(ranked_turns, evidence, 10)
    first = next((i for i, t in enumerate(ranked_turns) if t in evidence), None)
    out["R@1"] = float(first == 0)
    out["MRR"] = 1.0 / (first + 1) if first is not None else 0.0
    return out


def sessions_of(turn_ids: Sequence[str]) -> list[str]:
    return first_unique([t.rsplit(":", 1)[0] for t in turn_ids])


METRICS = (*(f"{level}_{kind}@{k}" for level in ("turn", "session") for kind in ("any", "all")
             for k in KS), "NDCG@10", "R@1", "MRR")


def average(rows: Sequence[dict[str, float]]) -> dict[str, float]:
    if not rows:
        return {}
    out = {m: round(100 * float(np.mean([r[m] for r in rows])), 1) for m in METRICS}
    out["MRR"] = round(out["MRR"] / 100, 3)
    out["n"] = len(rows)
    return out


@dataclass
class Tally:
    rows: list[dict[str, Any]] = field(default_factory=list)  # per question and system
    latency: dict[str, list[float]] = field(default_factory=lambda: {"wave": [], "dense": []})
    writing: dict[str, int] = field(default_factory=dict)
    write_s: list[float] = field(default_factory=list)
    embed_s: list[float] = field(default_factory=list)  # of write_s: embedding the records
    details: list[dict[str, Any]] = field(default_factory=list)
    query_map: int = 0  # questions the learned query map moved (Wave's own search)

    def count(self, what: str, n: int = 1) -> None:
        self.writing[what] = self.writing.get(what, 0) + n

    def summary(self) -> dict[str, Any]:
        def select(keep: Callable[[dict[str, Any]], bool]) -> dict[str, dict[str, float]]:
            systems = dict.fromkeys([*SYSTEMS, *(r["system"] for r in self.rows)])
            return {s: average([r["scores"] for r in self.rows if r["system"] == s and keep(r)])
                    for s in systems}

        def pct(v: list[float]) -> dict[str, float]:
            return {"p50": round(float(np.percentile(v, 50)), 1),
                    "p95": round(float(np.percentile(v, 95)), 1)} if v else {}

        types = sorted({r["type"] for r in self.rows})
        return {
            "questions": len({r["id"] for r in self.rows}),
            "all": select(lambda r: True),
            "by_split": {sp: select(lambda r, sp=sp: r["split"] == sp)  # type: ignore[misc]
                         for sp in ("tune", "held")},
            "by_type": {t: select(lambda r, t=t: r["type"] == t)  # type: ignore[misc]
                        for t in types},
            "latency_ms": {s: pct(v) for s, v in self.latency.items()},
            "writing": dict(self.writing),
            "write_s_per_question": pct(self.write_s),
            "query_map_questions": self.query_map,
            "embed_s_per_question": pct(self.embed_s),
        }


# -- the run -------------------------------------------------------------------------------------

async def write_history(writer: Any, user_id: str, item: Item, tally: Tally,
                        batch: int = 100) -> None:
    """The question's turns into the person's memory, as an import writes them."""
    from wave_agent.write.result import WriteStatus
    from wave_agent.write.writer import MemoryItem

    items = [MemoryItem(text=t.text, type=FactType.EVENT, veracity=Veracity.STATED,
                        created_at=t.at, speaker=t.role, source_message_ids=(t.id,),
                        exchange_id=f"{item.id}:{t.session}",
                        episode_date=t.at.date().isoformat())
             for t in item.turns]
    evidence = set(item.evidence)
    for start in range(0, len(items), batch):
        chunk = items[start:start + batch]
        for turn, result in zip(item.turns[start:start + batch],
                                await writer.remember_many(user_id, chunk), strict=True):
            tally.count("turns")
            tally.count(result.status.value)
            pieces = result.extra.get("pieces")
            if pieces:
                tally.count("long_turns")
                tally.count("pieces", len(pieces))
                held = [p for p in pieces if p["status"] == WriteStatus.QUARANTINED.value]
                tally.count("quarantined_pieces", len(held))
            if result.status is WriteStatus.QUARANTINED and turn.id in evidence:
                tally.count("quarantined_evidence")
            if result.status is WriteStatus.CONFIRMED and turn.id in evidence:
                tally.count("merged_evidence")


def ranked_turns(hits: Sequence[Any]) -> list[str]:
    """Wave's records as turn ids, first occurrence first (pieces and merges traced back),
    the first ``max(KS)`` distinct turns."""
    return first_unique([tid for h in hits for tid in h.fact.source_message_ids])[:max(KS)]


async def run_question(item: Item, *, services: Services, embedder: PrimedEmbedder,
                       dense_embedder: Any, tally: Tally, progress: Progress, keep: bool,
                       recall_config: Any, log: FeatureLog,
                       also_adapter: Sequence[str] = (),
                       also_config: Mapping[str, Mapping[str, Any]] | None = None) -> None:
    from wave_agent.recall import Recall
    from wave_agent.write.archive_sync import ArchiveSync
    from wave_agent.write.writer import Writer

    graph = await services.graph()
    archive = await services.archive()
    writer = Writer(graph, ArchiveSync(embedder, archive))  # type: ignore[arg-type]
    user_id = f"bench-lme-{item.id}-{uuid.uuid4().hex[:6]}"
    texts = [t.text for t in item.turns]
    progress(f"{item.id}: writing {len(texts)} turns", 0, 1)
    started = time.perf_counter()
    embedder.seconds = 0.0
    await write_history(writer, user_id, item, tally)
    tally.write_s.append(time.perf_counter() - started)
    tally.embed_s.append(embedder.seconds)
    # the dense baseline's vectors: the writer's own for a turn stored whole (kept by the
    # embedder), the whole turn embedded for one stored in pieces
    vectors = await embedder.prime(texts)
    try:
        recall = Recall(graph, archive, embedder, clock=lambda: item.asked_at,
                        config=recall_config, observer=log.observer)
        await recall.warm_up(user_id, texts[::max(1, len(texts) // WARMUP)][:WARMUP])
        progress(f"{item.id}: asking", 0, 1)
        log.ask(lambda fact: fact.source_message_ids, set="longmemeval", id=item.id,
                split=item.split, group=item.type, metric="turns", answers=list(item.evidence),
                answer_sessions=list(item.answer_sessions))
        started = time.perf_counter()
        hits = await recall.search(user_id, item.question, k=ASK)
        log.done()
        tally.latency["wave"].append((time.perf_counter() - started) * 1000)
        tally.query_map += hits.query_map
        wave = ranked_turns(hits)
        others: dict[str, list[str]] = {}
        variants = {f"wave-{mode}": {"query_adapter": mode} for mode in also_adapter}
        variants.update({f"wave-{name}": dict(v) for name, v in (also_config or {}).items()})
        for name, overrides in variants.items():  # the same records asked again (caches warm)
            other = Recall(graph, archive, embedder, clock=lambda: item.asked_at,
                           config=replace(recall_config, **overrides))
            started = time.perf_counter()
            others[name] = ranked_turns(await other.search(user_id, item.question, k=ASK))
            tally.latency.setdefault(name, []).append((time.perf_counter() - started) * 1000)

        started = time.perf_counter()
        vector = (await dense_embedder.embed_query([item.question]))[0]
        dense = [item.turns[i].id for i in DenseIndex(vectors).search_vector(vector, max(KS))]
        tally.latency["dense"].append((time.perf_counter() - started) * 1000)
        bm25 = [item.turns[i].id for i in BM25Index(texts).search(item.question, max(KS))]
        for system, ranked in (("wave", wave), ("dense", dense), ("bm25", bm25),
                               *others.items()):
            tally.rows.append({"id": item.id, "type": item.type, "split": item.split,
                               "system": system, "scores": scores_of(ranked, item)})
        evidence = set(item.evidence)
        tally.details.append({
            "id": item.id, "type": item.type, "split": item.split, "question": item.question,
            "evidence": sorted(evidence),
            "wave": wave, "dense": dense, "bm25": bm25, **others,
            "voices": [{"turns": list(h.fact.source_message_ids), "evidence":
                        bool(evidence & set(h.fact.source_message_ids)),
                        "ranks": {v: r for v, r in h.ranks.items() if r is not None},
                        "text": h.fact.text[:100]} for h in hits],
        })
    finally:
        if not keep:
            await writer.erase_user(user_id)
        embedder.forget()


async def run_benchmark(
    path: Path, *, services: Services, limit: int | None = None,
    types: Sequence[str] = (), split: str | None = None, progress: Progress | None = None,
    keep: bool = False, voice_timeout_s: float = 5.0, features: Path | None = None,
    also_adapter: Sequence[str] = (), also_config: Mapping[str, Mapping[str, Any]] | None = None,
) -> dict[str, Any]:
    """Every chosen question (``types``, ``split``, the first ``limit`` of each type); the
    summary ``--json`` prints, with the per-question details under ``_details``.
    ``also_config``: ``{name: RecallConfig overrides}``, each also asked over the same records
    as system ``wave-<name>`` (a step switched off, measured beside the engine)."""
    from archive.embedder import Embedder
    from wave_agent.recall import RecallConfig

    items = [i for i in load(path) if not i.abstention]
    if types:
        unknown = set(types) - {i.type for i in items}
        if unknown:
            raise WaveError(f"no questions of type {', '.join(sorted(unknown))}",
                            next_step="types: " + ", ".join(sorted({i.type for i in items})))
        items = [i for i in items if i.type in set(types)]
    if split:
        items = [i for i in items if i.split == split]
    if limit is not None:
        taken: dict[str, int] = {}
        chosen = []
        for i in items:
            if taken.get(i.type, 0) < limit:
                taken[i.type] = taken.get(i.type, 0) + 1
                chosen.append(i)
        items = chosen
    report = progress or (lambda _label, _done, _total: None)
    embedder = PrimedEmbedder(services.embedder())
    dense_embedder = Embedder(services.settings.embedding_model,
                              device=services.settings.embedding_device)
    await embedder.embed(["warm up"])
    await dense_embedder.embed(["warm up"])
    tally = Tally()
    log = FeatureLog(features)
    config = RecallConfig(voice_timeout_s=voice_timeout_s, ranker=services.settings.recall_ranker,
                          newer_first=services.settings.recall_newer_first or None,
                          query_adapter=services.settings.recall_query_adapter,
                          learned_mmr_lambda=services.settings.recall_learned_mmr_lambda or None)
    for n, item in enumerate(items, 1):
        report(f"question {n}/{len(items)}", n - 1, len(items))
        await run_question(item, services=services, embedder=embedder,
                           dense_embedder=dense_embedder, tally=tally, progress=report,
                           keep=keep, recall_config=config, log=log,
                           also_adapter=also_adapter, also_config=also_config)
    summary = tally.summary()
    summary["model"] = embedder.model_name
    summary["_details"] = tally.details
    return summary
