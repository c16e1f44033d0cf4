"""The composer: exactly one, called once per turn, with one ceiling for the whole prefix.

It returns the prompt (system text), the message prefix (history before the person's new
message) and, per layer, the characters it asked for and the characters it got. Eviction order,
the right gives way first::

    persona -> last exchange -> summary -> notes -> excerpts -> deeper window

Persona (the core blocks) and the fixed frame of the system prompt are not taken from the
budget; the last exchange is served before anyone spends and is never cut. Every other layer
gets, in that order, whole items while they fit what is left of ``budget_chars``; an item is
never cut in the middle. Auto-recall excerpts are additionally capped (4 excerpts, 2,000
characters), ride in the system prompt, never in the message history, and are dropped when
already visible in the window or in the notes that made it into the prompt.

Pure: no I/O. The turn fetches the inputs (with timeouts) and passes them in.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime

from wave_agent.infra.outage import SLOW, is_slow
from wave_agent.llm.client import ChatMessage
from wave_agent.llm.prompts.system import Section, SystemInput, render_system

LAST_EXCHANGE = "last_exchange"
SUMMARY = "summary"
NOTES = "notes"
EXCERPTS = "excerpts"
DEEPER_WINDOW = "deeper_window"
PERSONA = "persona"
FRAME = "frame"
# Priority order of the budgeted layers (left keeps, right gives way first).
EVICTION_ORDER: tuple[str, ...] = (LAST_EXCHANGE, SUMMARY, NOTES, EXCERPTS, DEEPER_WINDOW)

MAX_EXCERPTS = 4
MAX_EXCERPT_CHARS = 2_000

MEMORY_STATUS = "Memory status"
TITLES = {
    SUMMARY: "Summary (this conversation, the previous session, recent days)",
    NOTES: "Notes (facts you stored about the person)",
    EXCERPTS: "Excerpts (memory search for this message; records, not messages)",
}


@dataclass(frozen=True, slots=True)
class Exchange:
    """One message of the person and Wave's reply."""

    id: str
    user_text: str
    reply: str
    at: datetime | None = None

    @property
    def chars(self) -> int:
        return len(self.user_text) + len(self.reply)

    def messages(self) -> list[ChatMessage]:
        return [ChatMessage.user(self.user_text), ChatMessage.assistant(self.reply)]


@dataclass(frozen=True, slots=True)
class Note:
    """A stored fact as it appears in the prompt."""

    id: str
    text: str
    label: str = ""  # e.g. "identity, 2026-06-03"
    exchange_ids: tuple[str, ...] = ()

    def line(self) -> str:
        suffix = f" ({self.label})" if self.label else ""
        return f"- [{self.id}] {self.text}{suffix}"


@dataclass(frozen=True, slots=True)
class ComposerInput:
    now: datetime
    message: str
    persona: Sequence[Section] = ()
    last_exchange: Exchange | None = None
    summary: Sequence[str] = ()  # items, most important first
    notes: Sequence[Note] = ()  # most important first
    excerpts: Sequence[Note] = ()  # recall hits, best first
    deeper_window: Sequence[Exchange] = ()  # older exchanges of this session, oldest first
    failed: Mapping[str, str] = field(default_factory=dict)  # section -> why it is missing


@dataclass(frozen=True, slots=True)
class LayerSpend:
    """What one layer asked for and what it got, in characters and items."""

    name: str
    asked_chars: int
    got_chars: int
    asked_items: int
    got_items: int
    in_budget: bool = True
    note: str = ""

    @property
    def evicted_chars(self) -> int:
        return self.asked_chars - self.got_chars


@dataclass(frozen=True, slots=True)
class Composition:
    system: str
    prefix: tuple[ChatMessage, ...]  # history before the new message
    layers: tuple[LayerSpend, ...]
    budget_chars: int
    spent_chars: int  # budgeted layers only
    note_ids: tuple[str, ...] = ()
    excerpt_ids: tuple[str, ...] = ()
    memory_lines: tuple[str, ...] = ()  # what recall brought, for the offline client
    memory_notes: tuple[str, ...] = ()  # the notes kept, for the offline client
    memory_unreadable: str | None = None  # why memory could not be read this turn
    dropped_visible: tuple[str, ...] = ()  # excerpt ids dropped as already visible

    def messages(self, message: str) -> list[ChatMessage]:
        return [ChatMessage.system(self.system), *self.prefix, ChatMessage.user(message)]

    def layer(self, name: str) -> LayerSpend:
        return next(layer for layer in self.layers if layer.name == name)

    @property
    def prefix_chars(self) -> int:
        return len(self.system) + sum(len(m.content or "") for m in self.prefix)


_SPACE = re.compile(r"\s+")


def _norm(text: str) -> str:
    return _SPACE.sub(" ", text).strip().casefold()


def _section_chars(title: str, lines: Sequence[str]) -> int:
    """Characters a section adds to the system prompt (header, lines, separator)."""
    if not lines:
        return 0
    return len(f"\n\n## {title}\n") + len("\n".join(lines))


class Composer:
    def __init__(
        self,
        budget_chars: int,
        *,
        max_excerpts: int = MAX_EXCERPTS,
        max_excerpt_chars: int = MAX_EXCERPT_CHARS,
    ) -> None:
        self.budget_chars = budget_chars
        self.max_excerpts = max_excerpts
        self.max_excerpt_chars = max_excerpt_chars

    def compose(self, inp: ComposerInput) -> Composition:
        layers: list[LayerSpend] = []
        left = self.budget_chars

        # Persona and frame: outside the budget.
        persona = [Section(s.title, s.text.strip()) for s in inp.persona if s.text.strip()]
        persona_chars = sum(_section_chars(s.title, [s.text]) for s in persona)
        layers.append(LayerSpend(PERSONA, persona_chars, persona_chars, len(persona),
                                 len(persona), in_budget=False,
                                 note=inp.failed.get(PERSONA, "")))
        frame_only = render_system(SystemInput(now=inp.now, sections=()))
        layers.append(LayerSpend(FRAME, len(frame_only), len(frame_only), 1, 1, in_budget=False))

        # Last exchange: served before anyone spends, never cut.
        last = inp.last_exchange
        last_chars = last.chars if last else 0
        layers.append(LayerSpend(LAST_EXCHANGE, last_chars, last_chars, int(last is not None),
                                 int(last is not None)))
        left -= last_chars

        # Summary: whole items in order while they fit.
        summary_lines, left, spend = _take_lines(SUMMARY, list(inp.summary), left)
        layers.append(_with_note(spend, inp.failed.get(SUMMARY, "")))

        # Notes: whole items in order; an item that does not fit is skipped, smaller ones
        # after it may still fit.
        note_lines = [n.line() for n in inp.notes]
        kept_notes, left, spend = _take_lines(NOTES, note_lines, left, skip_big=True)
        layers.append(_with_note(spend, inp.failed.get(NOTES, "")))
        kept_note_ids = tuple(n.id for n, line in zip(inp.notes, note_lines, strict=True)
                              if line in set(kept_notes))

        # Excerpts already visible are dropped. Visible means: in the notes kept, in the last
        # exchange, or in a window exchange that will be shown whatever the excerpts take
        # (those that fit what is left minus the excerpt cap): never drop what is not shown.
        visible_ids = set(kept_note_ids)
        visible_texts = {_norm(n.text) for n in inp.notes if n.id in visible_ids}
        sure_window = _newest_that_fit(inp.deeper_window, left - self.max_excerpt_chars)
        window_exchanges = [*sure_window, *([last] if last else [])]
        window_ids = {e.id for e in window_exchanges}
        window_text = _norm(" \n ".join(f"{e.user_text} \n {e.reply}" for e in window_exchanges))

        fresh: list[Note] = []
        dropped: list[str] = []
        for hit in inp.excerpts:
            text = _norm(hit.text)
            if (
                hit.id in visible_ids
                or text in visible_texts
                or (text and text in window_text)
                or (hit.exchange_ids and set(hit.exchange_ids) & window_ids)
            ):
                dropped.append(hit.id)
                continue
            fresh.append(hit)
        # Cap: at most max_excerpts and max_excerpt_chars of excerpt lines.
        capped: list[Note] = []
        capped_chars = 0
        for hit in fresh:
            size = len(hit.line()) + (1 if capped else 0)
            if len(capped) >= self.max_excerpts or capped_chars + size > self.max_excerpt_chars:
                continue
            capped.append(hit)
            capped_chars += size
        excerpt_lines = [h.line() for h in capped]
        asked_excerpts = _section_chars(TITLES[EXCERPTS], [h.line() for h in inp.excerpts])
        kept_excerpts, left, spend = _take_lines(EXCERPTS, excerpt_lines, left, skip_big=True)
        spend = LayerSpend(EXCERPTS, asked_excerpts, spend.got_chars, len(inp.excerpts),
                           spend.got_items,
                           note=_join(inp.failed.get(EXCERPTS, ""),
                                      f"{len(dropped)} already visible" if dropped else ""))
        layers.append(spend)
        kept_excerpt_ids = tuple(h.id for h in capped if h.line() in set(kept_excerpts))

        # Deeper window: newest exchanges first while they fit; shown oldest first.
        window = _newest_that_fit(inp.deeper_window, left)
        window_chars = sum(e.chars for e in window)
        left -= window_chars
        asked_window = sum(e.chars for e in inp.deeper_window)
        layers.append(LayerSpend(DEEPER_WINDOW, asked_window, window_chars,
                                 len(inp.deeper_window), len(window),
                                 note=inp.failed.get(DEEPER_WINDOW, "")))

        unreadable = memory_unreadable(inp.failed)
        sections = [
            *persona,
            Section(MEMORY_STATUS, _UNREADABLE_NOTE.format(unreadable) if unreadable else ""),
            Section(TITLES[SUMMARY], "\n".join(summary_lines)),
            Section(TITLES[NOTES], "\n".join(kept_notes)),
            Section(TITLES[EXCERPTS], "\n".join(kept_excerpts)),
        ]
        system = render_system(SystemInput(now=inp.now, sections=sections))
        prefix: list[ChatMessage] = []
        for exchange in window:
            prefix.extend(exchange.messages())
        if last:
            prefix.extend(last.messages())
        spent = sum(layer.got_chars for layer in layers if layer.in_budget)
        # The offline client reads nothing but these lines, so a hit dropped from the excerpts
        # because the notes already show it still answers the question here (recall's order).
        # Every hit, in recall's order: the offline client ranks them and shows a few.
        memory = tuple(h.text for h in inp.excerpts)[: 2 * self.max_excerpts]
        kept_note_set = set(kept_note_ids)
        memory_notes = tuple(n.text for n in inp.notes if n.id in kept_note_set)
        return Composition(
            system=system,
            prefix=tuple(prefix),
            layers=tuple(layers),
            budget_chars=self.budget_chars,
            spent_chars=spent,
            note_ids=kept_note_ids,
            excerpt_ids=kept_excerpt_ids,
            memory_lines=memory,
            memory_notes=memory_notes,
            memory_unreadable=unreadable,
            dropped_visible=tuple(dropped),
        )


_UNREADABLE_NOTE = (
    "Memory could not be read for this message ({0}). What you know about the person may be "
    "missing here: do not say that memory holds nothing; say it could not be read just now and "
    "that the answer may be incomplete."
)


def memory_unreadable(failed: Mapping[str, str]) -> str | None:
    """Why the person's records could not be read this turn (the memory search or the notes
    failed), shortly; None when they were read."""
    missing = [name for name in (EXCERPTS, NOTES) if name in failed]
    if not missing:
        return None
    why = "; ".join(f"{name}: {failed[name]}" for name in missing)[:200]
    # every one slow, not down (``infra.outage.SLOW``): the reason says so first
    return SLOW + why if all(is_slow(failed[name]) for name in missing) else why


def _newest_that_fit(exchanges: Sequence[Exchange], left: int) -> list[Exchange]:
    """The newest contiguous exchanges whose sum fits ``left``, oldest first."""
    kept: list[Exchange] = []
    for exchange in reversed(exchanges):
        if exchange.chars > left:
            break
        kept.append(exchange)
        left -= exchange.chars
    kept.reverse()
    return kept


def _join(*parts: str) -> str:
    return "; ".join(p for p in parts if p)


def _with_note(spend: LayerSpend, note: str) -> LayerSpend:
    if not note:
        return spend
    return LayerSpend(spend.name, spend.asked_chars, spend.got_chars, spend.asked_items,
                      spend.got_items, spend.in_budget, _join(spend.note, note))


def _take_lines(
    name: str, lines: list[str], left: int, *, skip_big: bool = False
) -> tuple[list[str], int, LayerSpend]:
    """Whole lines of one section while they fit ``left`` (header counted once)."""
    title = TITLES[name]
    asked = _section_chars(title, lines)
    header = len(f"\n\n## {title}\n")
    kept: list[str] = []
    used = 0
    for line in lines:
        cost = len(line) + (1 if kept else header)
        if cost > left - used:
            if skip_big:
                continue
            break
        kept.append(line)
        used += cost
    return kept, left - used, LayerSpend(name, asked, used, len(lines), len(kept))
