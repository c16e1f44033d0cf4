"""memory_reflect: how something changed over time, told from memory (DESIGN section 5;
seed 003: "поднимает набор релевантных воспоминаний ... собрать из разрозненных записей
связный нарратив").

1. Gather broadly: hybrid recall with the ``history`` preset (superseded and archived records
   too, no decay), each found record's supersession chain, the daily episode log and the
   session snapshots. Quarantined text never reaches the model.
2. Keep what bears on the question (it shares content words with the question, beyond the
   words every record about a person shares, or it is semantically close), so a question with nothing behind it gets
   "nothing is known" instead of an invented story.
3. Order by time and ask the model for a 2-5 paragraph narrative citing dates and record ids
   (``llm/prompts/reflect``); the answer's cited ids are the material ids it names.
4. Offline (no model, or the model did not answer): a dated timeline of the same material,
   labelled as such.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from datetime import UTC, datetime, time
from typing import TYPE_CHECKING, Any

import numpy as np

from graph.models import Fact, Status, utcnow
from wave_agent.infra.lazy import Open
from wave_agent.llm.client import LLMClient, LLMError
from wave_agent.llm.prompts import reflect as prompt
from wave_agent.policy import calibration, similarity

if TYPE_CHECKING:
    from archive.embedder import Embedder
    from episodes.store import EpisodeStore
    from graph.store import GraphStore
    from snapshots.store import SnapshotStore
    from wave_agent.recall import Recall

log = logging.getLogger("wave.reflect")

RECALL_K = 24            # records asked of recall
MAX_MATERIAL = 40        # items sent to the model
EPISODE_DAYS = 90        # most recent day files read
SNAPSHOTS = 20           # most recent session snapshots read
RELEVANT_COSINE = 0.3    # MiniLM's; each model's own is in policy.calibration (relevant)
ITEM_CHARS = 400
# Words every question and record about a person shares; they prove nothing about relevance.
GENERIC = frozenset(similarity.content_stems(
    "user person people he she him her his hers they wave пользователь человек он она его её "
    "ему ей их how change changed changes over time как менялся менялась изменилось время"
))

OFFLINE_LABEL = ("[offline: no language model configured (LLM_BASE_URL); a dated timeline of "
                 "what memory holds, not a narrative]")
OFFLINE_LABEL_RU = ("[офлайн: языковая модель не подключена (LLM_BASE_URL); хронология того, "
                    "что есть в памяти, а не рассказ]")
FAILED_LABEL = ("[offline: the language model did not answer; a dated timeline of what memory "
                "holds, not a narrative]")
FAILED_LABEL_RU = ("[офлайн: языковая модель не ответила; хронология того, что есть в памяти, "
                   "а не рассказ]")
NOTHING = ("Memory holds nothing about this yet, so I can't tell how it changed. "
           "Tell me about it and I'll remember.")
NOTHING_RU = "В памяти об этом пока ничего нет, поэтому рассказать, как это менялось, я не могу."


@dataclass(frozen=True, slots=True)
class Memory:
    """One piece of material: a fact, a day of the episode log, or a session snapshot."""

    id: str
    kind: str
    at: datetime
    text: str
    status: str = ""
    relevance: float = 0.0

    def item(self) -> prompt.ReflectItem:
        return prompt.ReflectItem(self.id, self.at, self.kind, self.status, self.text[:ITEM_CHARS])


@dataclass(frozen=True, slots=True)
class ReflectResult:
    text: str
    cited_ids: tuple[str, ...]
    offline: bool
    material_count: int
    material: tuple[Memory, ...] = field(default=(), repr=False)

    def __str__(self) -> str:
        return self.text

    def as_json(self) -> dict[str, Any]:
        return {
            "text": self.text, "cited_ids": list(self.cited_ids), "offline": self.offline,
            "material_count": self.material_count,
            "material": [{"id": m.id, "kind": m.kind, "at": m.at.isoformat(),
                          "status": m.status, "text": m.text} for m in self.material],
        }


def _russian(text: str) -> bool:
    return similarity.is_cyrillic(text)


@dataclass(frozen=True, slots=True)
class ReflectSources:
    """Where reflection gathers from. Each store is opened when read, and one that is down
    costs its section of the material, not the answer."""

    recall: Open[Recall]
    graph: Open[GraphStore]
    episodes: Open[EpisodeStore]
    snapshots: Open[SnapshotStore]


class Reflector:
    """``memory_reflect``: the tool, /reflect, ``wave reflect``, the page and MCP call
    ``reflect``; built once by the composition root (``Services.reflect()``)."""

    def __init__(self, llm: LLMClient, embedder: Embedder, sources: ReflectSources) -> None:
        self.llm = llm
        self.embedder = embedder
        self.sources = sources

    async def reflect(self, user_id: str, question: str) -> ReflectResult:
        question = question.strip()
        llm = self.llm
        if not question:
            return ReflectResult(NOTHING, (), llm.offline, 0)
        material = await self.gather(user_id, question)
        if not material:
            return ReflectResult(NOTHING_RU if _russian(question) else NOTHING, (),
                                 llm.offline, 0)
        if not llm.offline:
            try:
                response = await llm.chat(prompt.messages(prompt.ReflectInput(
                    question, [m.item() for m in material], utcnow().date())))
            except LLMError as exc:
                log.warning("reflect for %s: the model did not answer (%s); timeline instead",
                            user_id, exc)
            else:
                text = (response.content or "").strip()
                if text:
                    cited = tuple(m.id for m in material if m.id in text)
                    return ReflectResult(text, cited, False, len(material), tuple(material))
        return timeline(question, material, failed=not llm.offline)

    # -- gathering ---------------------------------------------------------------------------

    async def gather(self, user_id: str, question: str) -> list[Memory]:
        """The material for ``question``, oldest first (at most ``MAX_MATERIAL`` items)."""
        embedder = self.embedder
        q_vec = (await embedder.embed_query([question]))[0]
        q_stems = similarity.content_stems(question) - GENERIC
        found: list[Memory] = []
        found += await self._facts(user_id, question, q_vec, q_stems)
        cited = {m.id for m in found}
        found += await self._episodes(user_id, q_vec, q_stems, cited)
        found += await self._snapshots(user_id, q_vec, q_stems)
        if len(found) > MAX_MATERIAL:
            found = sorted(found, key=lambda m: -m.relevance)[:MAX_MATERIAL]
        return sorted(found, key=lambda m: (m.at, m.id))

    async def _relevance(self, texts: list[str], q_vec: np.ndarray,
                         q_stems: frozenset[str]) -> list[float]:
        """A score per text, 0 when it does not bear on the question."""
        if not texts:
            return []
        embedder = self.embedder
        cal = calibration.of(embedder)
        vectors = await embedder.embed(texts)
        cosines = cal.rescale_array(np.asarray(vectors) @ q_vec)
        out = []
        for text, cos in zip(texts, cosines, strict=True):
            shared = q_stems & similarity.content_stems(text)
            semantic = not _russian(text) and float(cos) >= cal.relevant
            out.append(float(cos) + len(shared) if shared or semantic else 0.0)
        return out

    async def _facts(self, user_id: str, question: str, q_vec: np.ndarray,
                     q_stems: frozenset[str]) -> list[Memory]:
        try:
            recall = await self.sources.recall()
            found = await recall.search(user_id, question, k=RECALL_K, preset="history")
        except Exception as exc:  # best-effort: a store down costs its section, not the answer
            log.warning("reflect for %s without facts: %s", user_id, exc)
            return []
        hits = [h for h in found if h.fact.status is not Status.QUARANTINED]
        scores = await self._relevance([h.fact.text for h in hits], q_vec, q_stems)
        graph = await self.sources.graph()
        about_entity = await self._about_entity(graph, user_id, question)
        kept: dict[str, Memory] = {}
        for hit, score in zip(hits, scores, strict=True):
            if hit.fact.id in about_entity:
                score = max(score, 1.0)  # "Муж работает в Сбербанке" is about Олег too
            if score > 0:  # recall always answers something; keep what bears on the question
                kept[hit.fact.id] = _fact_memory(hit.fact, score)
        for fid, memory in list(kept.items()):
            fact = next(h.fact for h in hits if h.fact.id == fid)
            if not (fact.supersedes or fact.superseded_by):
                continue
            try:
                chain = await graph.history(user_id, fid)
            except Exception as exc:
                log.warning("reflect: history of %s unavailable: %s", fid, exc)
                continue
            for link in chain:
                if link.id not in kept and link.status is not Status.QUARANTINED:
                    kept[link.id] = _fact_memory(link, memory.relevance)
        return list(kept.values())

    @staticmethod
    async def _about_entity(graph: GraphStore, user_id: str, question: str) -> set[str]:
        """The records linked to the entity a question about a person or thing names
        ("что я знаю про Олега"): they bear on it whatever words they share with it."""
        from wave_agent.recall import about

        try:
            seeds = await about.entities_asked(graph, user_id, question)
            if not seeds:
                return set()
            found = await graph.neighbourhood(user_id, [e.id for e in seeds], hops=0,
                                              limit=200, statuses=None)
        except Exception as exc:  # best-effort, like every source of the material
            log.warning("reflect for %s without the entity's records: %s", user_id, exc)
            return set()
        return {s.fact.id for s in found}

    async def _episodes(self, user_id: str, q_vec: np.ndarray, q_stems: frozenset[str],
                        fact_ids: set[str]) -> list[Memory]:
        try:
            store = await self.sources.episodes()
            days = (await store.days(user_id))[-EPISODE_DAYS:]
            lines = []
            for day in days:
                for line in (await store.read_day(user_id, day)).entries:
                    if line.fact_ids and set(line.fact_ids) <= fact_ids:
                        continue  # the facts themselves are in the material already
                    lines.append((day, line))
        except Exception as exc:
            log.warning("reflect for %s without episodes: %s", user_id, exc)
            return []
        scores = await self._relevance([line.text for _, line in lines], q_vec, q_stems)
        by_day: dict[Any, list[tuple[str, float]]] = {}
        for (day, line), score in zip(lines, scores, strict=True):
            if score > 0:
                by_day.setdefault(day, []).append((line.text, score))
        return [
            Memory(f"ep-{day.isoformat()}", "episode",
                   datetime.combine(day, time(12), tzinfo=UTC),
                   "; ".join(text for text, _ in chosen), "", max(s for _, s in chosen))
            for day, chosen in by_day.items()
        ]

    async def _snapshots(self, user_id: str, q_vec: np.ndarray,
                         q_stems: frozenset[str]) -> list[Memory]:
        try:
            store = await self.sources.snapshots()
            recent = await store.recent(user_id, limit=SNAPSHOTS)
        except Exception as exc:
            log.warning("reflect for %s without snapshots: %s", user_id, exc)
            return []
        texts = [" ".join([s.summary, *s.observations]).strip() for s in recent]
        scores = await self._relevance(texts, q_vec, q_stems)
        return [
            Memory(f"s-{s.session_id}", "snapshot", s.ended_at, text, "", score)
            for s, text, score in zip(recent, texts, scores, strict=True) if score > 0 and text
        ]


def _fact_memory(fact: Fact, relevance: float) -> Memory:
    status = fact.status.value
    if fact.superseded_by:
        status += f", replaced by {fact.superseded_by}"
    return Memory(fact.id, "fact", fact.created_at, fact.text, status, relevance)


def timeline(question: str, material: list[Memory], *, failed: bool = False) -> ReflectResult:
    """The offline answer: the same material as a dated timeline, labelled as such (and
    saying whether no model is configured or the configured one did not answer)."""
    russian = _russian(question)
    if failed:
        label = FAILED_LABEL_RU if russian else FAILED_LABEL
    else:
        label = OFFLINE_LABEL_RU if russian else OFFLINE_LABEL
    lines = [label, ""]
    lines += [f"{m.at:%Y-%m-%d}  [{m.id}] {m.text[:ITEM_CHARS]}"
              + (f"  ({m.status})" if m.status and m.status != "active" else "")
              for m in material]
    return ReflectResult("\n".join(lines), tuple(m.id for m in material), True,
                         len(material), tuple(material))

