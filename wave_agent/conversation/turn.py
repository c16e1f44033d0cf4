"""One turn: session -> best-effort reads -> auto-recall -> compose -> model (+ tools) -> reply
-> the exchange into the durable outbox.

Everything before the model is timed (``TurnDebug.timings_ms``); every store read has a
timeout (``Settings.store_timeout_s``) and a store that fails costs its section and a log line,
never the turn. Post-processing is not run here: the exchange is stored in the outbox before the
reply is returned, and the caller starts the background worker (``after_reply``) once the reply
is on its way.

Why one file of this size: ``TurnService`` holds the turn's order (session, reads, compose,
model and tools, outbox) and the per-person caches that order relies on; the reads
(``reads``), the prompt (``composer``), sessions (``session``) and tools (``tools``) live
beside it.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import time
import uuid
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Any, TypeVar

import numpy as np

from graph.models import Fact
from wave_agent.conversation.composer import (
    NOTES,
    PERSONA,
    SUMMARY,
    Composer,
    ComposerInput,
    Composition,
    Exchange,
    LayerSpend,
    Note,
)
from wave_agent.conversation.missing import missing_layers, missing_sentence
from wave_agent.conversation.reads import MemoryUnreadable
from wave_agent.conversation.session import Sessions, SessionTurn
from wave_agent.conversation.tools import ToolDispatcher, ToolOutcome
from wave_agent.infra import clock, faults
from wave_agent.infra.outage import SLOW, is_slow
from wave_agent.llm.client import ChatMessage, LLMClient, LLMError
from wave_agent.llm.offline import held_note, real_words, told_unreadable
from wave_agent.llm.offline_extract import language
from wave_agent.llm.prompts.system import Section
from wave_agent.policy import quarantine
from wave_agent.policy.quarantine import meaning

if TYPE_CHECKING:
    from wave_agent.conversation.reads import TurnReads
    from wave_agent.infra import clock
from wave_agent.infra.outbox import Outbox

log = logging.getLogger("wave.turn")

T = TypeVar("T")

EXCERPTS_SECTION = "excerpts"
COMMITMENTS_SECTION = "commitments"
EPISODES = "episodes"
SNAPSHOT = "snapshot"
MAX_TOOL_ROUNDS = 4
NOTES_FETCH = 200  # more never fits: 18,000 chars hold ~150 note lines
EPISODES_BUDGET = 2_000
TIER_RANK = {"core": 0, "fact": 1, "observation": 2}


def _due_today_item(lines: list[str] | None) -> list[str]:
    """The person's promises due today (or overdue), first in the summary: Wave can bring one
    up when it fits, and does not hear of them only from a reminder."""
    if not lines:
        return []
    return ["Commitments due today or overdue (mention one if it fits; never nag):\n"
            + "\n".join(f"- {line}" for line in lines)]


@dataclass(frozen=True, slots=True)
class TurnDebug:
    """What ``/debug`` shows: each layer's ask and spend, failures, timings."""

    user_id: str
    session_id: str
    session_started: bool
    layers: tuple[LayerSpend, ...]
    budget_chars: int
    spent_chars: int
    prefix_chars: int
    searched: bool
    search_note: str
    excerpt_ids: tuple[str, ...]
    failed: dict[str, str]
    timings_ms: dict[str, float]
    model: str
    offline: bool
    tool_calls: tuple[str, ...] = ()
    # what auto-recall found but left out because the conversation already shows it
    dropped_visible: tuple[str, ...] = ()

    def render(self) -> str:
        lines = [
            f"session {self.session_id}" + (" (started by this message)" if self.session_started else ""),
            f"model {self.model}" + (" (offline mode)" if self.offline else ""),
            f"budget {self.budget_chars:,} chars, spent {self.spent_chars:,}; whole prefix "
            f"{self.prefix_chars:,} chars",
            f"{'layer':<14}{'asked':>9}{'got':>9}  items   note",
        ]
        for layer in self.layers:
            mark = "" if layer.in_budget else " (outside budget)"
            lines.append(
                f"{layer.name:<14}{layer.asked_chars:>9,}{layer.got_chars:>9,}  "
                f"{layer.got_items}/{layer.asked_items:<5} {layer.note}{mark}".rstrip()
            )
        lines.append("auto-recall: " + (("searched; " if self.searched else "not searched; ")
                                        + self.search_note).rstrip("; "))
        if self.excerpt_ids:
            lines.append("excerpts: " + ", ".join(self.excerpt_ids))
        for section, why in sorted(self.failed.items()):
            lines.append(f"missing {section}: {why}")
        if self.tool_calls:
            lines.append("tools: " + ", ".join(self.tool_calls))
        lines.append("timings ms: " + ", ".join(f"{k} {v:.1f}" for k, v in self.timings_ms.items()))
        return "\n".join(lines)


@dataclass(frozen=True, slots=True)
class TurnResult:
    reply: str
    exchange_id: str
    session_id: str
    session_started: bool
    offline: bool
    debug: TurnDebug
    tools: tuple[ToolOutcome, ...] = ()
    queued: bool = True  # the exchange is in the outbox for post-processing


@dataclass
class _Base:
    """The cached base of a session: rebuilt at session start, notes refreshed on writes."""

    session_id: str
    persona: list[Section] = field(default_factory=list)
    carry: list[str] = field(default_factory=list)  # snapshot + recent episodes
    notes: list[Note] = field(default_factory=list)
    generation: int = -1
    failed: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class _Prepared:
    turn: SessionTurn
    composition: Composition
    failed: dict[str, str]
    searched: bool
    search_note: str
    timings: dict[str, float]
    missing: tuple[str, ...] = ()  # memory layers this turn could not read (``missing``)


def exchange_id_for(user_id: str, message_id: str | None) -> str:
    """Idempotency key of one exchange: stable for a redelivered message, unique otherwise."""
    if message_id is None:
        return f"x-{uuid.uuid4().hex[:16]}"
    return "x-" + hashlib.sha256(f"{user_id}\x00{message_id}".encode()).hexdigest()[:16]


def needs_search(text: str) -> bool:
    """Fewer than two real words: no search ("спасибо" costs nothing)."""
    return len(real_words(text)) >= 2


# How a line says which value is current (and since when) when a history question brought the
# replaced records too: in the record's own language, for the model and the offline reply.
_WAS = {"russian": "прежнее значение", "polish": "wcześniejsza wartość", "english": "earlier value"}
_SINCE = {"russian": "сейчас, с {0:%d.%m.%Y}", "polish": "obecnie, od {0:%d.%m.%Y}",
          "english": "current since {0:%Y-%m-%d}"}


def note_of(fact: Fact) -> Note:
    from graph.models import Status
    from graph.stemming import language_of

    label = f"{fact.type.value}, {fact.created_at:%Y-%m-%d}"
    text = fact.text
    if fact.status is Status.SUPERSEDED or fact.supersedes:
        language = language_of(fact.text)
        mark = (_WAS[language] if fact.status is Status.SUPERSEDED
                else _SINCE[language].format(fact.created_at))
        text, label = f"{text} ({mark})", f"{label}, {mark}"
    return Note(fact.id, text, label, tuple(fact.exchange_ids))


class TurnService:
    """Answers one message at a time per person; shared by the bot and ``wave chat``."""

    def __init__(
        self,
        *,
        memory: TurnReads,
        sessions: Sessions,
        llm: LLMClient,
        outbox: Outbox,
        tools: ToolDispatcher,
        budget_chars: int,
        store_timeout_s: float,
        store_slow_s: float = 0.0,
        on_queued: Callable[[], None] | None = None,
    ) -> None:
        self.memory = memory
        self.sessions = sessions
        self.llm = llm
        self.outbox = outbox
        self.tools = tools
        self.composer = Composer(budget_chars)
        self.store_timeout_s = store_timeout_s
        self.store_slow_s = store_slow_s  # ``Settings.store_slow_s``: see ``_read``
        self.on_queued = on_queued
        self._bases: dict[str, _Base] = {}
        self._generation: dict[str, int] = {}
        self._debug: dict[str, TurnDebug] = {}
        self._refreshing: dict[str, asyncio.Task[None]] = {}
        self._refresh_locks: dict[str, asyncio.Lock] = {}

    # cache invalidation (the composition root subscribes it to the memory-change events) -----

    def memory_changed(self, user_id: str) -> None:
        """A change happened (any writer in this process: the tools, the post-processor, the web
        page, maintenance, an erasure): the cached notes and blocks are stale. They are read
        again in the background now, so the next turn usually finds them fresh."""
        self._generation[user_id] = self._generation.get(user_id, 0) + 1
        base = self._bases.get(user_id)
        if base is None:
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return
        running = self._refreshing.get(user_id)
        if running is not None and not running.done():
            # Never cancel a read in flight: a query cancelled half-read leaves its pooled
            # connection closing under the driver, and the next query on it failed with
            # "'NoneType' object has no attribute 'complete'", shown as a Neo4j outage. The
            # running refresh reads again when it ends (the generation moved on).
            return
        self._refreshing[user_id] = loop.create_task(
            self._refresh(user_id, base), name=f"wave-refresh-{user_id}"
        )

    async def _refresh(self, user_id: str, base: _Base) -> None:
        async with self._refresh_lock(user_id):
            while True:
                await self._refresh_notes(user_id, base, None)
                if base.generation == self._generation.get(user_id, 0):
                    return  # no change arrived while it read

    def _refresh_lock(self, user_id: str) -> asyncio.Lock:
        return self._refresh_locks.setdefault(user_id, asyncio.Lock())

    async def warm_up(self, timeout_s: float = 120.0) -> list[str]:
        """Open the stores before the first message (outside any turn's read timeout)."""
        try:
            async with asyncio.timeout(timeout_s):
                problems = await self.memory.warm_up()
        except TimeoutError:
            problems = [f"stores did not open within {timeout_s:g}s"]
        for problem in problems:
            log.warning("warm-up: %s; the turn will go on without it until it answers", problem,
                        extra={"notice": True})
        return problems

    async def close(self) -> None:
        """Cancel background refreshes (closing the services)."""
        tasks = [t for t in self._refreshing.values() if not t.done()]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        self._refreshing.clear()

    def forget_user(self, user_id: str) -> None:
        """Erasure: drop everything this process holds for the person (cached blocks and
        notes, the last turn's debug view); the next message starts from the stores."""
        self.memory_changed(user_id)
        for held in (self._bases, self._debug, self._generation):
            held.pop(user_id, None)
        task = self._refreshing.pop(user_id, None)
        if task is not None:
            task.cancel()
        self._refresh_locks.pop(user_id, None)

    def last_debug(self, user_id: str) -> TurnDebug | None:
        return self._debug.get(user_id)

    async def reset(self, user_id: str) -> bool:
        """End the session now (``/reset``); True if one was open."""
        async with self.sessions.lock(user_id):
            ended = await self.sessions.reset(user_id, clock.now())
            self._bases.pop(user_id, None)
            return ended is not None

    # the turn ---------------------------------------------------------------------------------

    async def handle(
        self,
        user_id: str,
        text: str,
        *,
        message_id: str | None = None,
        veracity: str = "stated",
        now: datetime | None = None,
        own_words: str | None = None,
    ) -> TurnResult:
        """``own_words``: the message as sent when ``text`` carries more around it (the bot's
        provenance marker line, a quoted message): the post-processor's small-talk judge reads
        it instead of ``text``."""
        async with self.sessions.lock(user_id):
            return await self._handle(user_id, text, message_id, veracity, now, own_words)

    async def _handle(
        self, user_id: str, text: str, message_id: str | None, veracity: str,
        now: datetime | None, own_words: str | None = None,
    ) -> TurnResult:
        now = now or clock.now()
        prepared = await self._prepare(user_id, text, now)
        composition, timings = prepared.composition, prepared.timings
        mark = time.perf_counter()

        reply, outcomes, offline, model = await self._answer(user_id, text, composition)
        gap = missing_sentence(prepared.missing, language(text))
        if gap:  # the person hears that part of memory was not read, in their language, once
            reply = (offline and told_unreadable(reply, gap)) or f"{reply}\n\n{gap}"
        timings["model"] = (time.perf_counter() - mark) * 1000
        mark = time.perf_counter()

        exchange_id = exchange_id_for(user_id, message_id)
        session = prepared.turn.session
        # The outbox first: it holds the whole exchange, so a kill before the session log has
        # it loses nothing (the post-processor's "session" step adds it; adding twice is a no-op).
        queued = await asyncio.to_thread(
            self.outbox.enqueue,
            exchange_id,
            "exchange",
            user_id,
            {
                "user_text": text,
                "reply": reply,
                "at": now.isoformat(),
                "session_id": session.id,
                "veracity": veracity,
                "offline": offline,
                **({"own_words": own_words} if own_words is not None else {}),
            },
        )
        faults.checkpoint("turn:enqueued")
        await asyncio.to_thread(self.sessions.log.add, session.id, user_id,
                                Exchange(exchange_id, text, reply, now))
        timings["record"] = (time.perf_counter() - mark) * 1000
        debug = TurnDebug(
            user_id=user_id,
            session_id=session.id,
            session_started=prepared.turn.started,
            layers=composition.layers,
            budget_chars=composition.budget_chars,
            spent_chars=composition.spent_chars,
            prefix_chars=composition.prefix_chars,
            searched=prepared.searched,
            search_note=prepared.search_note,
            excerpt_ids=composition.excerpt_ids,
            dropped_visible=composition.dropped_visible,
            failed=prepared.failed,
            timings_ms=timings,
            model=model,
            offline=offline,
            tool_calls=tuple(f"{o.call.name}{'' if o.ok else ' (error)'}" for o in outcomes),
        )
        self._debug[user_id] = debug
        if queued and self.on_queued is not None:
            self.on_queued()
        return TurnResult(reply, exchange_id, session.id, prepared.turn.started, offline, debug,
                          tuple(outcomes), queued)

    async def prepare(self, user_id: str, text: str, *, now: datetime | None = None) -> Composition:
        """Everything the turn does before the model, without calling it."""
        composition, _ = await self.prepare_timed(user_id, text, now=now)
        return composition

    async def prepare_timed(
        self, user_id: str, text: str, *, now: datetime | None = None
    ) -> tuple[Composition, dict[str, float]]:
        """``prepare`` with its timings (``wave bench turn``)."""
        async with self.sessions.lock(user_id):
            prepared = await self._prepare(user_id, text, now or clock.now())
        return prepared.composition, prepared.timings

    async def memory_sections(self, user_id: str, query: str, *,
                              now: datetime | None = None) -> str:
        """The memory a turn about ``query`` would carry (core blocks, notes, recent days,
        recall excerpts), through the same reads and the one composer, under the same budget.

        For callers outside a conversation (the MCP ``memory`` prompt): no session is begun or
        touched, so there is no conversation window, and a failing store costs its section.
        """
        failed: dict[str, str] = {}
        persona, facts, episodes, found = await asyncio.gather(
            self._read(PERSONA, failed, lambda: self.memory.core_blocks(user_id)),
            self._read(NOTES, failed, lambda: self.memory.notes(user_id, limit=NOTES_FETCH)),
            self._read(EPISODES, failed,
                       lambda: self.memory.recent_episodes(user_id, budget=EPISODES_BUDGET)),
            self._read(EXCERPTS_SECTION, failed,
                       lambda: self.memory.search(user_id, query, k=8)),
        )
        notes = sorted(facts or (), key=lambda f: TIER_RANK.get(f.tier.value, 3))
        composition = self.composer.compose(ComposerInput(
            now=now or clock.now(),
            message=query,
            persona=[Section(title, value) for title, value in persona or ()],
            summary=["Recent days (episode log, compressed):\n" + episodes] if episodes else [],
            notes=[note_of(f) for f in notes],
            excerpts=[note_of(f) for f in found or ()],
            failed=failed,
        ))
        return composition.system

    async def _prepare(self, user_id: str, text: str, now: datetime) -> _Prepared:
        timings: dict[str, float] = {}
        started_at = time.perf_counter()
        mark = started_at

        def lap(name: str) -> None:
            nonlocal mark
            current = time.perf_counter()
            timings[name] = (current - mark) * 1000
            mark = current

        turn = await self.sessions.begin(user_id, now)
        window = await asyncio.to_thread(self.sessions.window, turn.session)
        lap("session")

        # The base (cached, or read again) and auto-recall are read at the same time; each
        # read has its own timeout and its own timing.
        searched = needs_search(text)
        search_failed: dict[str, str] = {}

        without: list[str] = []  # recall's voices that did not answer

        async def search() -> list[Fact]:
            try:
                found = await self.memory.search(user_id, text, k=8)
            except MemoryUnreadable as exc:
                without.extend(exc.voices)
                raise  # ``_read`` tells a slow store from a missing one
            slow = [v for v, why in found.without.items() if "timed out" in why]
            if slow and await self._answers_within(EXCERPTS_SECTION):
                # voices that ran out of time while the store answers: slow, not down
                log.info("recall answered without %s (slow, the store answers); no outage told",
                         ", ".join(slow))
                without.extend(v for v in found.without if v not in slow)
            else:
                without.extend(found.without)
            return found

        async def recall() -> list[Fact] | None:
            if not searched:
                return None
            return await self._read(EXCERPTS_SECTION, search_failed, search, timings)

        base, found, due_today = await asyncio.gather(
            self._base(user_id, turn.session.id, turn.started, turn.session.carry, timings),
            recall(),
            self._read(COMMITMENTS_SECTION, search_failed,
                       lambda: self.memory.due_today(user_id), timings),
        )
        lap("reads")
        failed = {**base.failed, **search_failed}
        # a slow store's section is missing, but nothing is down: the person is not told so
        slow = {k for k, why in failed.items() if is_slow(why)}
        missing = missing_layers([k for k in failed if k not in slow],
                                 [] if EXCERPTS_SECTION in slow else without)
        excerpts = [note_of(f) for f in found or ()]
        if not searched:
            search_note = "fewer than two real words"
        elif found is None:
            search_note = "recall unavailable"
        else:
            search_note = f"{len(excerpts)} hits"

        composition = self.composer.compose(
            ComposerInput(
                now=now,
                message=text,
                persona=base.persona,
                last_exchange=window.last,
                summary=[*_due_today_item(due_today), *base.carry, *window.folded],
                notes=base.notes,
                excerpts=excerpts,
                deeper_window=window.deeper,
                failed=failed,
            )
        )
        lap("compose")
        timings["before_model"] = (time.perf_counter() - started_at) * 1000
        return _Prepared(turn, composition, failed, searched, search_note, timings, missing)

    # reads ------------------------------------------------------------------------------------

    async def _read(
        self,
        section: str,
        failed: dict[str, str],
        call: Callable[[], Awaitable[T]],
        timings: dict[str, float] | None = None,
    ) -> T | None:
        """``call`` within ``store_timeout_s``; a failure costs the section (``failed``).

        A slow store is not a missing one: a read still running after ``store_timeout_s``
        whose store answers a health check (``TurnReads.store_answers``) is waited for
        ``store_slow_s`` more, and if it is still running, or came back empty because its
        voices ran out of time, the section is missing with a reason starting
        ``infra.outage.SLOW``: logged, and the reply says no store is down. A store that
        refuses or does not answer the check is missing as before, and the person is told."""
        started = time.perf_counter()
        read = asyncio.ensure_future(call())
        # a read given up on is cancelled, as before (recall then finishes in the background);
        # its error, if it ends in one, is this method's to report, not the loop's
        read.add_done_callback(_quiet)
        try:
            try:
                async with asyncio.timeout(self.store_timeout_s):
                    return await asyncio.shield(read)
            except (TimeoutError, MemoryUnreadable) as exc:
                if not self._ran_out_of_time(exc) or not await self._store_slow(section, read):
                    raise
                if read.done() and not read.cancelled():
                    late = read.exception()
                    if late is None:
                        return read.result()  # it came back in the longer budget
                    if not isinstance(late, MemoryUnreadable) or not self._ran_out_of_time(late):
                        raise late from None
                    why = f"{SLOW}{late}"[:300]
                else:
                    why = (f"{SLOW}still running after "
                           f"{self.store_timeout_s + self.store_slow_s:g}s")
        except TimeoutError:
            why = f"timed out after {self.store_timeout_s:g}s"
        except Exception as exc:
            why = f"{type(exc).__name__}: {exc}"[:300]
        finally:
            if not read.done():
                read.cancel()
            if timings is not None:
                timings[section] = (time.perf_counter() - started) * 1000
        if is_slow(why):
            log.warning("turn read %s was slow while its store answered (%s); the turn goes on "
                        "without it, no outage told", section, why)
        else:
            log.warning("turn read %s failed (%s); the turn goes on without it", section, why)
        failed[section] = why
        return None

    @staticmethod
    def _ran_out_of_time(exc: BaseException) -> bool:
        """A timeout, or a memory search that found nothing because every voice that failed
        timed out (none refused)."""
        if isinstance(exc, MemoryUnreadable):
            return bool(exc.reasons) and all("timed out" in why
                                             for why in exc.reasons.values())
        return isinstance(exc, TimeoutError)

    async def _store_slow(self, section: str, read: asyncio.Future[Any]) -> bool:
        """After ``store_timeout_s``: whether the store behind ``section`` is slow, not down.
        A health check (``TurnReads.store_answers``) runs beside the read, both within
        ``store_slow_s``: True when the read comes back meanwhile, or the check answers (the
        read is then waited for until the budget ends); False when the check is refused or
        never answers (a section without one: down, as before)."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.store_slow_s
        check = asyncio.ensure_future(self._store_answers(section))
        check.add_done_callback(_quiet)
        waiting: set[asyncio.Future[Any]] = {check, read}
        answered = False
        while waiting and (left := deadline - loop.time()) > 0:
            done, waiting = await asyncio.wait(waiting, timeout=left,
                                               return_when=asyncio.FIRST_COMPLETED)
            if read in done and not read.cancelled() and read.exception() is None:
                return True  # the read itself came back: nothing is missing
            if check in done:
                if not check.result():
                    return False
                answered = True
                log.info("turn read %s still running after %gs while its store answers: "
                         "waiting up to %gs in all", section, self.store_timeout_s,
                         self.store_timeout_s + self.store_slow_s)
        return answered

    async def _answers_within(self, section: str) -> bool:
        """``_store_answers`` within ``store_slow_s``; a check still running is left to end on
        its own (a query cancelled half-read broke its pooled connection)."""
        check = asyncio.ensure_future(self._store_answers(section))
        check.add_done_callback(_quiet)
        done, _ = await asyncio.wait({check}, timeout=self.store_slow_s)
        return bool(done) and check.result()

    async def _store_answers(self, section: str) -> bool:
        """Whether the store behind ``section`` answers a health check (False for a section
        with none, or a check that fails)."""
        try:
            return bool(await self.memory.store_answers(section))
        except Exception as exc:
            log.info("health check for %s failed: %s: %s", section, type(exc).__name__, exc)
            return False

    async def _base(
        self,
        user_id: str,
        session_id: str,
        started: bool,
        carry: str | None,
        timings: dict[str, float] | None = None,
    ) -> _Base:
        base = self._bases.get(user_id)
        generation = self._generation.get(user_id, 0)
        if base is None or base.session_id != session_id or started:
            base = _Base(session_id)
            failed = base.failed

            async def snapshot() -> str | None:
                if not started:
                    return carry
                taken = await self._read(
                    SNAPSHOT, failed, lambda: self.sessions.take_previous_snapshot(user_id),
                    timings,
                )
                await asyncio.to_thread(self.sessions.log.set_carry, session_id, taken)
                return taken

            carried, episodes = await asyncio.gather(
                snapshot(),
                self._read(
                    EPISODES, failed,
                    lambda: self.memory.recent_episodes(user_id, budget=EPISODES_BUDGET), timings,
                ),
            )
            if carried:
                base.carry.append(carried)
            if episodes:
                base.carry.append("Recent days (episode log, compressed):\n" + episodes)
            if EPISODES in failed or SNAPSHOT in failed:
                failed[SUMMARY] = "; ".join(
                    f"{k}: {v}" for k, v in failed.items() if k in (EPISODES, SNAPSHOT)
                )
            self._bases[user_id] = base
        if base.generation != generation or PERSONA in base.failed or NOTES in base.failed:
            async with self._refresh_lock(user_id):  # a background refresh may have done it
                if (base.generation != generation or PERSONA in base.failed
                        or NOTES in base.failed):
                    await self._refresh_notes(user_id, base, timings)
        return base

    async def _refresh_notes(
        self, user_id: str, base: _Base, timings: dict[str, float] | None
    ) -> None:
        generation = self._generation.get(user_id, 0)
        failed: dict[str, str] = {}
        persona, facts = await asyncio.gather(
            self._read(PERSONA, failed, lambda: self.memory.core_blocks(user_id), timings),
            self._read(NOTES, failed, lambda: self.memory.notes(user_id, limit=NOTES_FETCH),
                       timings),
        )
        base.failed.pop(PERSONA, None)
        base.failed.pop(NOTES, None)
        base.failed.update(failed)
        if persona is not None:
            base.persona = [Section(title, value) for title, value in persona]
        if facts is not None:
            ordered = sorted(facts, key=lambda f: TIER_RANK.get(f.tier.value, 3))
            base.notes = [note_of(f) for f in ordered]
        base.generation = generation

    # the model --------------------------------------------------------------------------------

    async def _held_note(self, text: str) -> str | None:
        """What the reply says when the message will wait in quarantine (judged as the
        post-processor judges it: the whole message, with its vector), else None."""
        if not text.strip():
            return None
        vector = await _message_vector(self, text)
        return held_note(text, vector, await _undone_vector(self, text) if vector is not None else None)

    async def _answer(
        self, user_id: str, text: str, composition: Composition
    ) -> tuple[str, list[ToolOutcome], bool, str]:
        messages: list[ChatMessage] = composition.messages(text)
        outcomes: list[ToolOutcome] = []
        specs = () if self.llm.offline else self.tools.specs
        try:
            for round_ in range(MAX_TOOL_ROUNDS + 1):
                last_round = round_ == MAX_TOOL_ROUNDS
                response = await self.llm.chat(
                    messages, tools=() if last_round else specs, memory=composition.memory_lines,
                    memory_notes=composition.memory_notes,
                    memory_unreadable=composition.memory_unreadable,
                )
                if not response.tool_calls or last_round:
                    content = (response.content or "").strip()
                    if not content:
                        content = _empty_reply(text)
                    held = await self._held_note(text)
                    if held and response.offline:  # not "I'll remember": the label, then what happens
                        content = f"{content.splitlines()[0]}\n{held}"
                    elif held:  # the model may have said it will remember
                        content = f"{content}\n\n{held}"
                    return content, outcomes, response.offline, response.model or self.llm.model
                messages.append(response.as_message())
                for call in response.tool_calls:
                    outcome = await self.tools.run(user_id, call)
                    outcomes.append(outcome)
                    messages.append(ChatMessage.tool(call.id, outcome.content))
        except LLMError as exc:
            log.error("the model failed for %s: %s", user_id, exc)
            return _unavailable_reply(text, composition.memory_lines, str(exc)), outcomes, True, "unavailable"
        raise AssertionError("unreachable")  # pragma: no cover


async def _message_vector(turn: TurnService, text: str) -> np.ndarray | None:
    """The message's passage embedding (the post-processor judges the message with the same
    one, from the embedder's cache); None when the embedder cannot run."""
    try:
        embedder = turn.memory.stores.embedder()
        vectors = await embedder.embed([text])
    except Exception as exc:
        log.warning("no embedding for the quarantine check of a message: %s", exc)
        return None
    return meaning.vector_for(embedder.model_name, np.asarray(vectors[0], dtype=np.float32))


async def _undone_vector(turn: TurnService, text: str) -> np.ndarray | None:
    """The message's embedding with its disguise undone (spaced letters, leetspeak, …), read by
    the meaning layer beside its own as the post-processor reads it; None for almost every message."""
    try:
        embedder = turn.memory.stores.embedder()
        return await quarantine.undone_vector(text, embedder.embed, embedder.model_name)
    except Exception as exc:
        log.warning("no embedding of the undone message for the quarantine check: %s", exc)
        return None


def _empty_reply(text: str) -> str:
    from wave_agent.llm.offline import is_russian

    return "…" if not text.strip() else (
        "Не нашла, что ответить; переформулируйте, пожалуйста." if is_russian(text)
        else "I have no answer to that; could you put it another way?"
    )


def _quiet(future: asyncio.Future[Any]) -> None:
    """A done callback: a future's error is its waiter's to report, not the loop's."""
    if not future.cancelled():
        future.exception()


def _unavailable_reply(text: str, memory: Sequence[str], detail: str) -> str:
    from wave_agent.llm.offline import is_russian

    russian = is_russian(text)
    head = (
        "[модель недоступна, отвечаю из памяти]" if russian
        else "[the language model is unavailable; answering from memory]"
    )
    lines = [head]
    if memory:
        lines.extend(f"- {m}" for m in memory[:4])
    else:
        lines.append("Сообщение сохранено, отвечу подробнее, когда модель вернётся." if russian
                     else "Your message is saved; I will be able to say more when it is back.")
    return "\n".join(lines)
