"""What the turn reads from the stores, each store opened when first read (``ReadStores``).

Every method may fail or hang (a store down): the turn wraps each call in a timeout and turns a
failure into a missing section. Nothing here caches; the turn caches the session's base.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
from collections.abc import Awaitable, Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from graph.models import Fact, Status, Tier
from wave_agent.errors import Unavailable
from wave_agent.infra.lazy import Open
from wave_agent.infra.outage import NEO4J, OUTAGES, is_outage

if TYPE_CHECKING:
    from archive.embedder import Embedder
    from episodes.store import EpisodeStore
    from graph.store import GraphStore
    from snapshots.store import SnapshotStore
    from wave_agent.blocks.store import BlockStore
    from wave_agent.commitments.ledger import Commitments
    from wave_agent.recall import Recall

BLOCK_TITLES = {
    "human": "Core block: the person",
    "persona": "Core block: Wave (you)",
}
NOTE_TIERS = (Tier.CORE, Tier.FACT, Tier.OBSERVATION)
WARM_UP_USER = "__wave_warm_up__"  # owns nothing; reads for it only warm caches
# A recall that ran out of the turn's time is run again in the background with this much per
# voice, so the store can finish what it needs to answer (see ``TurnReads.search``).
PATIENT_VOICE_S = 60.0
# The turn's sections that read Neo4j (``TurnReads.store_answers`` checks it for them).
GRAPH_SECTIONS = frozenset({"notes", "excerpts", "commitments"})
PATIENT_TOTAL_S = 180.0

log = logging.getLogger("wave.turn")


class MemoryUnreadable(Unavailable):
    """Recall found nothing because its stores did not answer: not an empty memory."""

    def __init__(self, reasons: Mapping[str, str]) -> None:
        listed = ", ".join(f"{k}: {v}" for k, v in reasons.items())[:200]
        super().__init__(f"memory search could not read the stores ({listed})",
                         next_step="check `wave services status`")
        self.voices = tuple(reasons)  # the voices that did not answer
        self.reasons = dict(reasons)


class Found(list[Fact]):
    """Auto-recall's records, with the voices that did not answer (from the search's
    ``RecallResult.degraded``, the same the CLI, MCP and the page report)."""

    def __init__(self, facts: Iterable[Fact], without: Mapping[str, str]) -> None:
        super().__init__(facts)
        self.without = dict(without)


def facts_of(result: Any) -> list[Fact]:
    """Facts from what recall returns (facts, scored facts, or a result holding either)."""
    items: Iterable[Any]
    for attribute in ("hits", "facts", "results", "items"):
        if hasattr(result, attribute) and not isinstance(result, list | tuple):
            result = getattr(result, attribute)
            break
    items = result or ()
    facts: list[Fact] = []
    for item in items:
        fact = item if isinstance(item, Fact) else getattr(item, "fact", None)
        if isinstance(fact, Fact):
            facts.append(fact)
    return facts


@dataclass(frozen=True, slots=True)
class ReadStores:
    """What the turn reads, each opened on first use: a store that is down at start (or
    later) costs the turns its section until it answers again, not the bot's start."""

    graph: Open[GraphStore]
    blocks: Open[BlockStore]
    episodes: Open[EpisodeStore]
    snapshots: Open[SnapshotStore]
    recall: Open[Recall]
    embedder: Callable[[], Embedder]
    commitments: Open[Commitments] | None = None  # promises due today ride with the turn


class TurnReads:
    def __init__(self, stores: ReadStores) -> None:
        self.stores = stores
        self._patient: asyncio.Task[None] | None = None

    async def warm_up(self) -> list[str]:
        """Open every store the turn reads (first connections, schema, model load); the
        problems found, as lines. Called once at start so the first turn's reads are fast."""
        problems: list[str] = []
        opens: dict[str, Callable[[], Awaitable[object]]] = {
            "graph": self.stores.graph, "blocks": self.stores.blocks,
            "episodes": self.stores.episodes, "snapshots": self.stores.snapshots,
            "recall": self.stores.recall,
        }
        for name, open_store in opens.items():
            try:
                await open_store()
            except Exception as exc:
                problems.append(f"{name}: {type(exc).__name__}: {exc}"[:300])
        # Load the embedding model (seconds on a busy CPU), then one read of each kind warms
        # the query plans, so no turn pays for either.
        try:
            await self.stores.embedder().embed(["warm up"])
        except Exception as exc:
            problems.append(f"embedder: {type(exc).__name__}: {exc}"[:300])
        for name, read in (("notes", self.notes(WARM_UP_USER, limit=1)),
                           ("recall", self.search(WARM_UP_USER, "warm up the memory", k=1))):
            try:
                await read
            except MemoryUnreadable:
                pass  # a slow first search while warming up: the graph reads report an outage
            except Exception as exc:
                problems.append(f"{name} read: {type(exc).__name__}: {exc}"[:300])
        return problems

    async def search(self, user_id: str, query: str, *, k: int) -> Found:
        """Auto-recall: the whole message; current records only, unless the question reads as
        history ("где я жил раньше?"): then its preset's replaced and archived records too
        (the turn marks them, ``turn.note_of``), so "what was it before" can be answered.

        After Neo4j restarts, the first run of each recall query takes seconds (measured
        4-12 s per voice on a loaded machine: the server plans and loads what it needs). The
        turn's budget (STORE_TIMEOUT_S) cancels it every time, so the server never finishes
        and recall stayed off for minutes. A search that runs out of time (cancelled by the
        turn, or a voice timed out) therefore runs again in the background, uncut (one at a
        time): once it completes, the next turns answer within the budget."""
        recall = await self.stores.recall()
        try:
            result = await recall.search(user_id, query, k=k)
        except asyncio.CancelledError:
            self._finish_in_background(recall, user_id, query, k)
            raise
        if any("timed out" in why for why in result.degraded.reasons.values()):
            self._finish_in_background(recall, user_id, query, k)
        opened = set(result.statuses) - {Status.ACTIVE, Status.QUARANTINED}
        found = [f for f in facts_of(result) if f.in_prompt_path or f.status in opened]
        degraded = result.degraded
        if not found and degraded:
            # Nothing found because the voices failed is not "nothing in memory": the turn
            # reports the excerpts as missing, and the reply says memory could not be read.
            raise MemoryUnreadable(degraded.reasons or {})
        return Found(found, degraded.reasons)

    def _finish_in_background(self, recall: Recall, user_id: str, query: str, k: int) -> None:
        if self._patient is not None and not self._patient.done():
            return
        from wave_agent.recall import Recall

        patient = Recall(recall.graph, recall.archive, recall.embedder,
                         config=dataclasses.replace(recall.config, voice_timeout_s=PATIENT_VOICE_S),
                         archive_problem=recall.archive_problem, tz=recall.tz)

        async def run() -> None:
            try:
                async with asyncio.timeout(PATIENT_TOTAL_S):
                    done = await patient.search(user_id, query, k=k)
                log.info("recall ran to the end in the background (%.0f ms); the next turns "
                         "should answer in time", done.degraded.timings_ms.get("total", 0.0))
            except Exception as exc:  # the store is still down: the next slow turn tries again
                log.info("background recall did not finish: %s", exc)

        self._patient = asyncio.get_running_loop().create_task(run(), name="wave-recall-warm")

    async def store_answers(self, section: str) -> bool | None:
        """Whether the store behind the turn's ``section`` answers a health check now (one
        ``RETURN 1`` without retries, ``GraphStore.answers``): the notes, the memory search and
        the commitments read Neo4j. None for a section with no such check (files, core
        blocks): a read of theirs that runs out of time is missing as before."""
        if section not in GRAPH_SECTIONS:
            return None
        try:
            graph = await self.stores.graph()
            return await graph.answers()
        except Exception as exc:  # refused, not open: down
            log.info("health check for %s: %s: %s", section, type(exc).__name__, exc)
            return False

    async def due_today(self, user_id: str) -> list[str]:
        """The person's open commitments due today or overdue, one line each."""
        if self.stores.commitments is None:
            return []
        from wave_agent.commitments import words

        ledger = await self.stores.commitments()
        return [words.line(c) for c in await ledger.due_today(user_id)]

    async def notes(self, user_id: str, *, limit: int) -> list[Fact]:
        graph = await self.stores.graph()
        try:
            facts = await graph.list_facts(
                user_id, tiers=NOTE_TIERS, statuses=(Status.ACTIVE,), limit=limit
            )
        except Exception as exc:
            if is_outage(exc):
                OUTAGES.failed(NEO4J, f"{type(exc).__name__}: {exc}")
            else:  # a bug or a refused query is not Neo4j being down: logged, not a notice
                log.warning("reading the notes failed: %s: %s", type(exc).__name__, exc)
            raise
        OUTAGES.answered(NEO4J)
        return facts

    async def core_blocks(self, user_id: str) -> list[tuple[str, str]]:
        blocks = await self.stores.blocks()
        out: list[tuple[str, str]] = []
        for label, title in BLOCK_TITLES.items():
            block = await blocks.get(user_id, label)
            if block.value.strip():
                out.append((title, block.value))
        return out

    async def recent_episodes(self, user_id: str, *, budget: int) -> str:
        episodes = await self.stores.episodes()
        return await episodes.session_context(user_id, budget=budget, count=3)
