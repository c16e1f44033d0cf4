"""The post-processor: after the reply, in the background, one outbox job per exchange.

Steps of an ``exchange`` job, each recorded in the outbox when finished so a retry resumes
after the last finished one and never repeats it:

1. ``extract``: skip exchanges too short to hold a fact; otherwise extract a number of facts
   that grows with the exchange's length (capped). The extracted list is stored, so a retry
   writes the same facts, not a second extraction's.
2. ``fact:<i>``: each fact through the writer (near-duplicates confirm, instruction-like text
   is quarantined), with its entities (the writer links them in the graph). The message is
   judged whole first: when any part of it reads as an instruction, every fact of it waits in
   quarantine with it, and a message that yielded no fact is held itself, so what the reply
   said was held is there for the person to review. Before a write
   the step is marked ``begun``; a retry that finds ``begun`` without ``done`` first looks for
   the record that write may have left (same exchange id, same words) instead of writing twice.
3. ``relations``: entities named together in one fact are related (``MENTIONED_WITH``).
4. ``episode``: the day's episode log (idempotent per exchange key).
5. ``blocks``: stable facts (identity, preference, relationship) become lines of the person's
   core block (the block editor skips repeats and compacts instead of cutting).

A step that fails (a store down, the model unavailable) fails the job, which the outbox retries
with backoff; nothing is lost and nothing is written twice.

Why one file of this size: the steps share one resumable job record and its begun/done
marks; split across modules, the order that makes a retry safe would no longer read in one place.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from itertools import combinations
from typing import TYPE_CHECKING, Any, TypeVar

from graph.models import MAX_FACT_CHARS, FactType, RelationType, Status, Veracity
from wave_agent.errors import Unavailable, WaveError
from wave_agent.infra import clock, faults
from wave_agent.infra.lazy import Open
from wave_agent.infra.outage import NEO4J, OUTAGES, is_outage
from wave_agent.infra.outbox import Job, Outbox
from wave_agent.llm.client import LLMClient
from wave_agent.llm.offline import ExtractedFact, judge_message
from wave_agent.llm.offline_extract import language
from wave_agent.policy import quarantine, smalltalk
from wave_agent.policy.quarantine import meaning
from wave_agent.policy.types import guess_type
from wave_agent.postprocess.extract import (
    extract_facts,
    fact_budget,
    from_json,
    kept_in_passing,
    sentences,
    small_talk_drops,
    to_json,
    with_message_values,
)
from wave_agent.write.events import ChangeKind

if TYPE_CHECKING:
    from episodes.store import EpisodeStore
    from graph.store import GraphStore
    from wave_agent.blocks.store import BlockStore
    from wave_agent.commitments.ledger import Commitments
    from wave_agent.conversation.session import Sessions
    from wave_agent.write.writer import Writer

log = logging.getLogger("wave.postprocess")
T = TypeVar("T")

BLOCK_TYPES = {FactType.IDENTITY, FactType.PREFERENCE, FactType.RELATIONSHIP}
WRITTEN = {"created", "confirmed", "superseded", "promoted"}


def _block_type(fact: ExtractedFact, result: dict[str, Any]) -> FactType:
    """The record's type as the writer stored it (an attribute settles it), else extracted."""
    stored = result.get("type")
    return FactType(stored) if stored else fact.type



# the person's single values whose first statement is never small talk (of the thirteen months'
# messages, 115 statements and 2 small-talk lines set one with nothing held)
_FIRST_OF = frozenset({"employer", "city", "partner", "phone"})

class GraphDown(Unavailable):
    def __init__(self, detail: str) -> None:
        super().__init__(f"the graph is unavailable: {detail}",
                         next_step="the outbox retries with backoff; check `wave services status`")


@dataclass(frozen=True, slots=True)
class FanoutStores:
    """The stores a job writes to, each opened when a step first needs it: a store that is
    down fails that job (retried with backoff), never the construction of the post-processor."""

    graph: Open[GraphStore]
    writer: Open[Writer]
    sessions: Open[Sessions]
    episodes: Open[EpisodeStore]
    blocks: Open[BlockStore]
    commitments: Open[Commitments] | None = None  # promises with due times read from records


@dataclass(frozen=True, slots=True)
class DrainReport:
    processed: int
    failed: int
    pending: int
    last_error: str | None = None


class PostProcessor:
    """Runs outbox jobs: ``kick()`` after a reply, ``drain()`` before exit."""

    def __init__(
        self,
        outbox: Outbox,
        stores: FanoutStores,
        llm: LLMClient,
        *,
        write_timeout_s: float = 30.0,
        ping_timeout_s: float = 3.0,
        recheck_s: float = 5.0,
    ) -> None:
        self.outbox = outbox
        self.stores = stores
        self.llm = llm
        self.write_timeout_s = write_timeout_s
        self.ping_timeout_s = ping_timeout_s
        self.recheck_s = recheck_s
        self._graph_down = False  # the last job failed because Neo4j did not answer
        self._task: asyncio.Task[None] | None = None
        self._run_lock = asyncio.Lock()
        self._wake = asyncio.Event()
        self.processed = 0

    # scheduling --------------------------------------------------------------------------------

    def kick(self) -> None:
        """Start the background worker (or wake it); returns at once."""
        self._wake.set()
        if self._task is None or self._task.done():
            self._task = asyncio.get_running_loop().create_task(self._worker(), name="wave-postprocess")

    async def _worker(self) -> None:
        while True:
            self._wake.clear()
            await self.run_due()
            wait = await self._db(self.outbox.next_due_in)
            if wait is None:
                return
            if self._graph_down and wait > self.recheck_s:
                # Jobs back off up to 10 minutes while Neo4j is down; once it answers again
                # they are due at once, not when their backoff ends.
                wait = self.recheck_s
                if await self._graph_is_back():
                    continue
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), timeout=max(0.05, min(wait, 60.0)))

    async def _graph_is_back(self) -> bool:
        try:
            graph = await self._store(self.stores.graph)
            async with asyncio.timeout(self.ping_timeout_s):
                await graph.ping()
        except Exception:
            return False
        self._graph_down = False
        due = await self._db(self.outbox.retry_now)
        log.warning("the graph answers again: %d waiting post-processing jobs retried now", due)
        return True

    async def close(self) -> None:
        if self._task is not None and not self._task.done():
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        self._task = None

    async def drain(self, timeout_s: float = 60.0) -> DrainReport:
        """Process every pending job now, retrying failures (with backoff) until ``timeout_s``."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout_s
        await self._db(self.outbox.retry_now)
        processed = failed = 0
        last_error: str | None = None
        while True:
            done, errors, error = await self.run_due(deadline=deadline)
            processed += done
            failed += errors
            last_error = error or last_error
            wait = await self._db(self.outbox.next_due_in)
            if wait is None:
                break
            left = deadline - loop.time()
            if left <= 0 or wait > left:
                break
            await asyncio.sleep(max(0.05, wait))
        stats = await self._db(self.outbox.stats)
        return DrainReport(processed, failed, stats.pending,
                           stats.last_error if stats.pending else None)

    async def run_due(self, *, deadline: float | None = None) -> tuple[int, int, str | None]:
        """Process the jobs due now, one at a time, until none is due or ``deadline`` (loop
        time) passes; (done, failed, last error)."""
        done = failed = 0
        last_error: str | None = None
        loop = asyncio.get_running_loop()
        async with self._run_lock:
            while True:
                if deadline is not None and loop.time() >= deadline:
                    return done, failed, last_error
                jobs = await self._db(self.outbox.claim, limit=1)
                if not jobs:
                    return done, failed, last_error
                job = jobs[0]
                try:
                    await self.process(job)
                except asyncio.CancelledError:
                    self.outbox.release(job.key)  # quick, and no await while cancelled
                    raise
                except TimeoutError:
                    self._graph_down = True
                    last_error = f"a store did not answer within {self.write_timeout_s:g}s"
                    delay = await self._db(self.outbox.fail, job.key, last_error)
                    failed += 1
                    log.warning("post-processing %s timed out (attempt %d), retry in %.0fs",
                                job.key, job.attempts + 1, delay)
                except Exception as exc:
                    self._graph_down = self._graph_down or _graph_outage(exc)
                    last_error = f"{type(exc).__name__}: {exc}"[:500]
                    delay = await self._db(self.outbox.fail, job.key, last_error)
                    failed += 1
                    log.warning("post-processing %s failed (attempt %d), retry in %.0fs: %s",
                                job.key, job.attempts + 1, delay, last_error)
                else:
                    await self._db(self.outbox.complete, job.key)
                    done += 1
                    self.processed += 1

    # one job -----------------------------------------------------------------------------------

    async def process(self, job: Job) -> None:
        if job.kind != "exchange":
            log.error("unknown outbox job kind %r (%s); marked done", job.kind, job.key)
            return
        payload = job.payload
        user_id = job.user_id
        at = datetime.fromisoformat(payload["at"]) if payload.get("at") else clock.now()
        await self._session_log(job, at)
        facts = await self._extracted(job, at)
        if facts:
            await self._graph_answers()
        written: list[tuple[ExtractedFact, dict[str, Any]]] = []
        said = await self._held(str(payload.get("user_text", ""))) if facts else None
        if said is None and len(facts) > 1:
            # A pasted text whose whole reads as ordinary content may still carry an order in
            # one of its statements: then the message is one unit, and none of it goes active.
            said = await self._held_piece([f.text for f in facts])
        for index, fact in enumerate(facts):
            result = await self._write_fact(job, index, fact, at,
                                            held_with=said.message_reason if said else None)
            written.append((fact, result))
        stored = [(f, r) for f, r in written if r.get("id") and r.get("status") in WRITTEN]
        if stored:
            await self._relations(job, stored)
            await self._episode(job, stored, at)
            await self._blocks(job, stored)
            await self._commitments(job, stored, at)
        if stored:
            # the writer announced each fact; the day log and the core block changed after
            writer = await self._store(self.stores.writer)
            writer.changes.announce(user_id, ChangeKind.EXTRACTED, [r["id"] for _, r in stored])

    async def _held(self, user_text: str) -> quarantine.Suspicion | None:
        """Why the whole message reads as an instruction to the agent (judged with its vector,
        as the writer judges a text and the turn's reply did), or None."""
        if not user_text.strip():
            return None
        writer = await self._store(self.stores.writer)
        async with asyncio.timeout(self.write_timeout_s):
            vector = (await writer.archive.embedder.embed([user_text]))[0]
            undone = await quarantine.undone_vector(user_text, writer.archive.embedder.embed,
                                                    writer.archive.embedder.model_name)
        return judge_message(user_text, meaning.vector_for(writer.archive.embedder.model_name, vector), undone)

    async def _small_talk(self, user_text: str) -> bool:
        """Whether the learned judge reads the whole message as small talk (its e5 vector,
        the one the quarantine check reads too)."""
        writer = await self._store(self.stores.writer)
        embedder = writer.archive.embedder
        async with asyncio.timeout(self.write_timeout_s):
            vector = (await embedder.embed([user_text]))[0]
        return smalltalk.is_small_talk(embedder.model_name, vector, language(user_text))

    async def _worth_remembering(self, user_text: str) -> bool:
        """Whether the learned judge reads the whole message as clearly worth remembering."""
        writer = await self._store(self.stores.writer)
        embedder = writer.archive.embedder
        async with asyncio.timeout(self.write_timeout_s):
            vector = (await embedder.embed([user_text]))[0]
        return smalltalk.worth_remembering(embedder.model_name, vector, language(user_text))

    async def _changing(self, user_id: str, facts: list[ExtractedFact]) -> list[ExtractedFact]:
        """The facts that change a value the person holds (a new phone, city or partner, an
        ending of a held pet or pastime: ``write.attributes.decide`` replaces or releases a
        record), or set one of the person's single values none holds now (the first day at a
        new job after the last day at the old one: "первый день в Ак Барсе. пропуск выдали");
        a contradiction does not count (small talk read as a denial would raise a false
        alarm)."""
        from wave_agent.write import attributes

        writer = await self._store(self.stores.writer)
        async with asyncio.timeout(self.write_timeout_s):
            stating = await writer.graph.attribute_facts(user_id)
            held = attributes.held_values(stating)
            kept = []
            for fact in facts:
                values = await attributes.read(fact.text, held)
                decision = attributes.decide(values, held, "",
                                             changed=attributes.marks_change(fact.text))
                if decision.replaces or decision.released or any(
                        v.entity == "user" and v.attribute in _FIRST_OF and v.op == "set"
                        and not any(h.value.key == v.key for h in held) for v in values):
                    kept.append(fact)
        return kept

    async def _with_message_values(self, user_id: str, user_text: str,
                                   facts: list[ExtractedFact]) -> list[ExtractedFact]:
        """The whole message's values given to the pieces that name them
        (``with_message_values``), read with what the person holds."""
        from wave_agent.write import attributes

        writer = await self._store(self.stores.writer)
        async with asyncio.timeout(self.write_timeout_s):
            held = attributes.held_values(await writer.graph.attribute_facts(user_id))
        return await with_message_values(user_text, facts, [h.value for h in held])

    @staticmethod
    async def _denies_class(text: str) -> bool:
        """Whether a statement denies a whole attribute ("детей у меня нет", "аллергий нет",
        "ни братьев, ни сестёр"): the reader's ``negate`` of any value."""
        from wave_agent.world.attributes import ANY
        from wave_agent.write import attributes

        return any(v.op == "negate" and v.value == ANY for v in await attributes.read(text, []))

    async def _held_piece(self, texts: list[str]) -> quarantine.Suspicion | None:
        """Why one of the message's statements reads as an instruction (each judged with its
        vector, as the writer would judge it alone), or None."""
        writer = await self._store(self.stores.writer)
        embedder = writer.archive.embedder
        async with asyncio.timeout(self.write_timeout_s):
            vectors = await embedder.embed(texts)
            undone = [await quarantine.undone_vector(t, embedder.embed, embedder.model_name) for t in texts]
        for text, vector, again in zip(texts, vectors, undone, strict=True):
            said = quarantine.detect(text, vector=meaning.vector_for(embedder.model_name, vector),
                                     undone_vector=again)
            if said is not None:
                return said
        return None

    async def _session_log(self, job: Job, at: datetime) -> None:
        """The exchange in the session log. The turn enqueues the job first and then logs the
        exchange; if it was killed in between, this puts it there (adding it again is a no-op)."""
        session_id = job.payload.get("session_id")
        if not session_id or (await self._db(self.outbox.step, job.key, "session"))[0]:
            return
        from wave_agent.conversation.composer import Exchange

        sessions = await self._store(self.stores.sessions)
        await self._db(sessions.log.add, str(session_id), job.user_id, Exchange(
            job.key, str(job.payload.get("user_text", "")), str(job.payload.get("reply", "")),
            at))
        await self._db(self.outbox.mark, job.key, "session")

    async def _extracted(self, job: Job, at: datetime) -> list[ExtractedFact]:
        done, raw = await self._db(self.outbox.step, job.key, "extract")
        if done:
            return from_json(raw)
        user_text = str(job.payload.get("user_text", ""))
        # the message as sent, without the provenance marker line or quote the bot put around
        # it (the turn carries it when it differs): what the small-talk judge reads
        own_words = str(job.payload.get("own_words") or user_text)
        reply = str(job.payload.get("reply", ""))
        budget = fact_budget(user_text, reply)
        facts = await extract_facts(self.llm, user_text, reply, today=at.date(), max_facts=budget)
        if (facts and self.llm.offline
                and small_talk_drops(facts, await self._small_talk(own_words), user_text)
                and await self._held_piece([f.text for f in facts]) is None):
            # the offline extractor reads a mood or a comment on the day as a statement; the
            # learned judge reads the message's meaning (a model extracts with its own sense).
            # A message with an order in it is never small talk: it waits for the person. Nor
            # is a promise or a task ("до 15-го оплатить садик"): its reminder would be lost.
            # What changes a value the person holds ("новый номер записывай: …", "с Димой всё.
            # расстались") is never small talk: those statements stay, the rest goes.
            # Nor is a denial of a whole class ("детей у меня нет", "аллергий нет"): a later
            # "сын опять с соплями" must meet it as a contradiction.
            changing = await self._changing(job.user_id, facts)
            denying = [f for f in facts if f not in changing and await self._denies_class(f.text)]
            log.debug("exchange %s reads as small talk; %d of its statements change what is held,"
                      " %d deny a class", job.key, len(changing), len(denying))
            facts = [f for f in facts if f in changing or f in denying]
        if not facts and self.llm.offline and budget and await self._held(user_text) is None:
            # the extractor found nothing, or the judge dropped it: a sentence that ends or
            # replaces a held value is kept ("с Игорем всё." names no attribute by itself; the
            # partner the person holds says which)
            facts = await self._changing(job.user_id, [
                ExtractedFact(s, guess_type(s)) for s in sentences(user_text)
                if not s.endswith("?") and len(s) <= MAX_FACT_CHARS])
        if not facts:
            if await self._held(user_text) is not None:
                if len(user_text.strip()) <= MAX_FACT_CHARS:
                    # nothing extracted from an instruction: the message itself waits for the person
                    facts = [ExtractedFact(user_text.strip(), guess_type(user_text.strip()))]
            elif self.llm.offline and budget:
                # a statement said in passing that the extractor's rules did not see ("доча
                # поступила в вышку на бюджет"): kept as said when the judge reads it as worth
                # remembering (never a held message: that one waits whole, above)
                facts = kept_in_passing(own_words, facts, budget=budget,
                                        worth_remembering=await self._worth_remembering(own_words))
        if facts and self.llm.offline:
            facts = await self._with_message_values(job.user_id, user_text, facts)
        await self._db(self.outbox.mark, job.key, "extract", to_json(facts))
        if budget == 0:
            log.debug("exchange %s too short to hold a fact; skipped", job.key)
        return facts

    async def _write_fact(
        self, job: Job, index: int, fact: ExtractedFact, at: datetime, *, held_with: str | None = None
    ) -> dict[str, Any]:
        step = f"fact:{index}"
        done, result = await self._db(self.outbox.step, job.key, step)
        if done:
            return dict(result or {})
        begun, _ = await self._db(self.outbox.step, job.key, step + ":begun")
        if begun:
            found = await self._left_by_earlier_attempt(job, fact)
            if found is not None:
                await self._db(self.outbox.mark, job.key, step, found)
                return found
        await self._db(self.outbox.mark, job.key, step + ":begun")
        writer = await self._store(self.stores.writer)
        veracity = Veracity(job.payload.get("veracity") or Veracity.STATED.value)
        try:
            async with asyncio.timeout(self.write_timeout_s):
                written = await writer.remember(
                    job.user_id,
                    fact.text,
                    type=fact.type,
                    veracity=veracity,
                    exchange_id=job.key,
                    created_at=at,
                    entities=[(e.name, e.type) for e in fact.entities],
                    attributes=fact.attributes,
                    episode_date=at.date().isoformat(),
                    held_with=held_with,
                )
        except WaveError as exc:
            if _is_refusal(exc):
                # The writer refused this fact (too long, bad input): a logged skip, not a retry.
                log.warning("fact %d of %s refused by the writer: %s", index, job.key, exc)
                outcome: dict[str, Any] = {"id": None, "status": "refused", "reason": str(exc)[:300]}
                await self._db(self.outbox.mark, job.key, step, outcome)
                return outcome
            raise
        outcome = {"id": written.id, "status": str(written.status.value)}
        if written.fact is not None:  # the type the writer settled (an attribute settles it)
            outcome["type"] = written.fact.type.value
        if written.extra.get("changes"):
            outcome["changes"] = written.extra["changes"]
        if written.proposal is not None:  # provenance for erasing the proposal's text
            outcome["proposal"] = written.proposal.id
        await self._db(self.outbox.mark, job.key, step, outcome)
        return outcome

    async def _left_by_earlier_attempt(self, job: Job, fact: ExtractedFact) -> dict[str, Any] | None:
        """The record an interrupted write of this fact left, if any (same exchange, same words)."""
        from wave_agent.policy.similarity import normalise

        graph = await self._store(self.stores.graph)
        async with asyncio.timeout(self.write_timeout_s):
            facts = await graph.list_facts(job.user_id, statuses=None)
        key = normalise(fact.text)
        for stored in facts:
            if job.key in stored.exchange_ids and normalise(stored.text) == key:
                status = "quarantined" if stored.status is Status.QUARANTINED else "created"
                log.info("fact of %s was written before an interruption: %s", job.key, stored.id)
                return {"id": stored.id, "status": status}
        return None

    async def _relations(self, job: Job, stored: list[tuple[ExtractedFact, dict[str, Any]]]) -> None:
        if (await self._db(self.outbox.step, job.key, "relations"))[0]:
            return
        pairs = [(f, r) for f, r in stored if len(f.entities) >= 2]
        if pairs:
            # One transaction, and each edge keyed by (exchange, fact): a retry after a kill
            # inside the step (rolled back) or after its commit (keys already there) adds no
            # weight twice.
            graph = await self._store(self.stores.graph)
            async with asyncio.timeout(self.write_timeout_s), graph.transaction() as tx:
                for fact, result in pairs:
                    ids: list[str] = []
                    for entity in fact.entities:
                        found = await tx.resolve_entity(job.user_id, entity.name, entity.type)
                        if found is not None and found.id not in ids:
                            ids.append(found.id)
                    for source, target in combinations(ids, 2):
                        await tx.relate(job.user_id, source, target,
                                        RelationType.MENTIONED_WITH, provenance=result["id"],
                                        key=f"{job.key}/{result['id']}")
                        faults.checkpoint("relations:related-one")
            faults.checkpoint("relations:committed")
        await self._db(self.outbox.mark, job.key, "relations")

    async def _episode(
        self, job: Job, stored: list[tuple[ExtractedFact, dict[str, Any]]], at: datetime
    ) -> None:
        if (await self._db(self.outbox.step, job.key, "episode"))[0]:
            return
        from episodes.models import EpisodeEntry

        entries = [EpisodeEntry(text=f.text, fact_ids=(r["id"],), at=at) for f, r in stored]
        episodes = await self._store(self.stores.episodes)
        async with asyncio.timeout(self.write_timeout_s):
            await episodes.append(job.user_id, entries, key=job.key)
        await self._db(self.outbox.mark, job.key, "episode")

    async def _blocks(self, job: Job, stored: list[tuple[ExtractedFact, dict[str, Any]]]) -> None:
        """New stable facts into the person's core block: the model proposes edits (append,
        replace an outdated line); offline, or when its edits are unusable, they are appended.
        A changed attribute (``changes`` of a write: a move, a new number, a pet gone) replaces
        the line that held the old value in the same edit, so the block never keeps it."""
        if (await self._db(self.outbox.step, job.key, "blocks"))[0]:
            return
        new_facts = [f.text for f, r in stored
                     if _block_type(f, r) in BLOCK_TYPES and r.get("status") in ("created", "superseded")]
        changed = [(f, change) for f, r in stored for change in r.get("changes", ())]
        said = await self._held(str(job.payload.get("user_text", "")))
        if said is not None and (new_facts or changed):
            # The core block is in every prompt: nothing from a message that reads like an
            # instruction goes there, however the extraction reworded it (the records stay).
            log.warning("core block left alone for %s: the message %s", job.key, said.reason)
            new_facts, changed = [], []
        if new_facts or changed:
            from wave_agent.blocks.editor import BadBlockEdit, BlockEditor, ReplaceLine, parse_edits
            from wave_agent.llm.prompts import block_edits
            from wave_agent.write.attributes import lines_holding

            store = await self._store(self.stores.blocks)
            async with asyncio.timeout(self.write_timeout_s):
                current = await store.get(job.user_id, "human")
            lines = current.value.split("\n") if current.value else []
            follow: list[Any] = []
            for fact, change in changed:
                for line in await lines_holding(lines, change):
                    new = fact.text if change.get("op") == "set" else ""
                    follow.append(ReplaceLine(line, new))
                    lines = [x for x in lines if x != line]
            edits: list[Any] = []
            if new_facts:
                inp = block_edits.BlockEditsInput("human", current.value, current.limit, new_facts)
                raw = await block_edits.run(self.llm, inp)
                try:
                    edits = parse_edits(raw)
                except BadBlockEdit as exc:
                    log.warning("block edits for %s unusable (%s); appending", job.key, exc)
                    edits = parse_edits(block_edits.appended(inp))
            async with asyncio.timeout(self.write_timeout_s):
                await BlockEditor(store).apply(
                    job.user_id, "human", [*follow, *edits],
                    reason=f"post-processor: facts of exchange {job.key}" + (
                        "; changed " + ", ".join(f"{c['attribute']} {c['old']} -> {c['new']}"
                                                 for _, c in changed) if changed else ""),
                )
        await self._db(self.outbox.mark, job.key, "blocks")

    async def _commitments(self, job: Job, stored: list[tuple[ExtractedFact, dict[str, Any]]],
                           at: datetime) -> None:
        """Each stored record that makes or moves a promise updates the person's commitments
        (due time read as of when the message was written). ``note`` is idempotent per
        record, so a retry after a crash mid-step changes nothing twice."""
        if self.stores.commitments is None or (
                await self._db(self.outbox.step, job.key, "commitments"))[0]:
            return
        ledger = await self._store(self.stores.commitments)
        graph = await self._store(self.stores.graph)
        for _, result in stored:
            fact = await graph.get_fact(job.user_id, str(result["id"]))
            if fact is not None:
                await ledger.note(job.user_id, fact, written_at=at)
        await self._db(self.outbox.mark, job.key, "commitments")

    async def _graph_answers(self) -> None:
        """Fail the job at once when Neo4j does not answer a trivial query, rather than after
        every write's retries (a store down for minutes costs seconds per retry, not minutes)."""
        graph = await self._store(self.stores.graph)
        try:
            async with asyncio.timeout(self.ping_timeout_s):
                await graph.ping()
        except TimeoutError as exc:  # slow (a busy machine) is not down: no outage notice
            raise GraphDown(f"Neo4j did not answer within {self.ping_timeout_s:g}s") from exc
        except Exception as exc:
            if is_outage(exc):
                OUTAGES.failed(NEO4J, f"{type(exc).__name__}: {exc}")
            raise
        OUTAGES.answered(NEO4J)

    async def _db(self, fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        """An outbox call in a worker thread: SQLite waits up to 10 s for another process's
        lock (``synchronous=FULL`` fsyncs too), and the bot's event loop must not wait with it."""
        return await asyncio.to_thread(fn, *args, **kwargs)

    async def _store(self, open_store: Open[T]) -> T:
        """The store, opened within the write timeout (a hung connect fails the job)."""
        async with asyncio.timeout(self.write_timeout_s):
            return await open_store()


def _graph_outage(exc: BaseException) -> bool:
    from graph.errors import GraphBusy, GraphUnavailable

    return isinstance(exc, GraphDown | GraphUnavailable | GraphBusy)


def _is_refusal(exc: WaveError) -> bool:
    from wave_agent.write.result import WriteRejected

    return isinstance(exc, WriteRejected)
