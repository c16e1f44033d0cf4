"""Applying proposed edits to a core block within its limit; compacting instead of truncating.

The post-processor proposes edits (append a line, replace a line; a replacement with empty
text removes the line). ``BlockEditor.apply`` applies them to the current value. When the
result is over the block's limit it is never cut: the block is compacted (by the model when a
``compact`` callable is given and its answer fits, otherwise extractively: repeated and
near-repeated lines go first, then the oldest lines, keeping headings, the first line and the
lines this batch added) and the compaction is logged with a unified diff, which also goes
into the new version's reason in history.

A core block is in every prompt, so every proposed line passes the same quarantine check as
a fact (``wave_agent.policy.quarantine``): a line that reads like an instruction to the
assistant is skipped, logged with the reason, and never reaches the block.

An edit reads the block and writes it back under the store's cross-process edit lock
(``blocks.store.editing``): the bot, `wave chat`, the MCP server and the outbox drain each edit
the ``human`` block, and none writes over another's edit (a removed old value put back).
"""

from __future__ import annotations

import asyncio
import difflib
import logging
from collections.abc import Awaitable, Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from wave_agent.blocks.store import Block, BlockError, BlockStore, BlockTooLong, editing
from wave_agent.policy import quarantine

log = logging.getLogger("wave.blocks.editor")

Compact = Callable[[str, int], Awaitable[str]]

NEAR_DUPLICATE = 0.9
FUZZY_MATCH = 0.85


@dataclass(frozen=True, slots=True)
class AppendLine:
    text: str


@dataclass(frozen=True, slots=True)
class ReplaceLine:
    old: str
    new: str  # empty removes the line


BlockEdit = AppendLine | ReplaceLine


class BadBlockEdit(BlockError):
    def __init__(self, problem: str) -> None:
        self.problem = problem
        super().__init__(
            f"bad core-block edit: {problem}",
            next_step='send {"op": "append", "text": ...} or '
            '{"op": "replace", "old": <line as it is>, "new": <new line or "">}',
        )


@dataclass(frozen=True, slots=True)
class SkippedEdit:
    edit: BlockEdit
    why: str


@dataclass(frozen=True, slots=True)
class Compaction:
    by: Literal["model", "extractive"]
    before_chars: int
    after_chars: int
    limit: int
    removed: tuple[str, ...]
    diff: str


@dataclass(frozen=True, slots=True)
class EditResult:
    block: Block
    changed: bool
    applied: tuple[BlockEdit, ...] = ()
    skipped: tuple[SkippedEdit, ...] = ()
    compaction: Compaction | None = None


def parse_edits(raw: Iterable[Mapping[str, Any]]) -> list[BlockEdit]:
    """Edits from the post-processor's structured output."""
    edits: list[BlockEdit] = []
    for item in raw:
        op = item.get("op")
        if op == "append" and isinstance(item.get("text"), str):
            edits.append(AppendLine(item["text"]))
        elif op == "replace" and isinstance(item.get("old"), str):
            new = item.get("new", "")
            if not isinstance(new, str):
                raise BadBlockEdit("'new' must be text")
            edits.append(ReplaceLine(item["old"], new))
        else:
            raise BadBlockEdit(f"cannot read {dict(item)!r}")
    return edits


def one_line(text: str) -> str:
    return " ".join(text.split())


def normal(line: str) -> str:
    return one_line(line).casefold().strip(" .;-*•")


def _is_heading(line: str) -> bool:
    return line.lstrip().startswith("#")


def unified(before: str, after: str, label: str) -> str:
    return "".join(
        difflib.unified_diff(
            before.splitlines(keepends=True),
            after.splitlines(keepends=True),
            fromfile=f"{label} (over the limit)",
            tofile=f"{label} (compacted)",
        )
    )


def compact_extractive(text: str, limit: int, keep: Iterable[str] = ()) -> tuple[str, list[str]]:
    """Whole lines removed until ``text`` fits ``limit``; raises ``BlockTooLong`` if it cannot.

    Order: blank-line runs, exact repeats (the later copy stays), near repeats (the later
    stays), then the oldest lines. Headings, the first content line and ``keep`` lines stay.
    """
    protected = {normal(k) for k in keep if k.strip()}
    lines = [line.rstrip() for line in text.split("\n")]
    removed: list[str] = []

    def joined() -> str:
        return "\n".join(lines).strip("\n")

    # blank-line runs
    squeezed: list[str] = []
    for line in lines:
        if not line.strip() and (not squeezed or not squeezed[-1].strip()):
            continue
        squeezed.append(line)
    lines = squeezed
    if len(joined()) <= limit:
        return joined(), removed

    def droppable(index: int) -> bool:
        line = lines[index]
        first_content = next((i for i, ln in enumerate(lines) if ln.strip() and not _is_heading(ln)), -1)
        return bool(line.strip()) and not _is_heading(line) and normal(line) not in protected and (
            index != first_content
        )

    # exact repeats, then near repeats: drop the earlier copy
    for threshold in (1.0, NEAR_DUPLICATE):
        i = 0
        while i < len(lines) and len(joined()) > limit:
            later = [normal(ln) for ln in lines[i + 1:]]
            mine = normal(lines[i])
            similar = any(
                mine == other
                or (threshold < 1.0 and difflib.SequenceMatcher(None, mine, other).ratio() >= threshold)
                for other in later if other
            )
            if mine and similar and droppable(i):
                removed.append(lines.pop(i))
            else:
                i += 1
    # oldest first
    i = 0
    while len(joined()) > limit and i < len(lines):
        if droppable(i):
            removed.append(lines.pop(i))
        else:
            i += 1
    # headings left without content
    if len(joined()) > limit:
        i = 0
        while len(joined()) > limit and i < len(lines):
            after = lines[i + 1:]
            next_content = next((ln for ln in after if ln.strip()), None)
            if _is_heading(lines[i]) and (next_content is None or _is_heading(next_content)):
                removed.append(lines.pop(i))
            else:
                i += 1
    result = joined()
    if len(result) > limit:
        raise BlockTooLong("block", len(result), limit)
    return result, removed


class BlockEditor:
    """Applies proposed edits to one store; one editor per process (edits are serialised)."""

    def __init__(self, store: BlockStore, *, compact: Compact | None = None) -> None:
        self.store = store
        self.compact = compact
        self._locks: dict[tuple[str, str], asyncio.Lock] = {}

    async def apply(
        self, user_id: str, label: str, edits: Sequence[BlockEdit], *, reason: str
    ) -> EditResult:
        async with self._locks.setdefault((user_id, label), asyncio.Lock()), \
                editing(self.store, user_id, label):
            current = await self.store.get(user_id, label)
            limit = current.limit
            lines = current.value.split("\n") if current.value else []
            applied: list[BlockEdit] = []
            skipped: list[SkippedEdit] = []
            added: list[str] = []
            for edit in edits:
                why = self._apply_one(lines, edit, limit, added)
                if why is None:
                    applied.append(edit)
                else:
                    skipped.append(SkippedEdit(edit, why))
                    (log.warning if why.startswith("held back") else log.info)(
                        "skipped an edit of %s for %s: %s", label, user_id, why)
            edited = "\n".join(lines)
            if edited == current.value:
                return EditResult(current, False, tuple(applied), tuple(skipped))
            compaction = None
            if len(edited) > limit:
                edited, compaction = await self._compact(label, edited, limit, added)
                reason = (
                    f"{reason}; compacted {compaction.before_chars:,} -> "
                    f"{compaction.after_chars:,} characters ({compaction.by}) to fit "
                    f"{limit:,}\n{compaction.diff}"
                )
            block = await self.store.set(user_id, label, edited, reason=reason)
            return EditResult(block, True, tuple(applied), tuple(skipped), compaction)

    def _apply_one(self, lines: list[str], edit: BlockEdit, limit: int, added: list[str]) -> str | None:
        """Apply ``edit`` to ``lines`` in place; the reason it was skipped, or None."""
        proposed = edit.text if isinstance(edit, AppendLine) else edit.new
        suspicion = quarantine.detect(proposed) if proposed.strip() else None
        if suspicion is not None:
            return f"held back, {suspicion.reason}"
        if isinstance(edit, AppendLine):
            text = one_line(edit.text)
            if not text:
                return "empty line"
            if len(text) > limit:
                return f"the line alone is {len(text):,} characters, over the limit of {limit:,}"
            if any(normal(line) == normal(text) for line in lines):
                return "already in the block"
            lines.append(text)
            added.append(text)
            return None
        new = one_line(edit.new)
        if len(new) > limit:
            return f"the line alone is {len(new):,} characters, over the limit of {limit:,}"
        index = self._find(lines, edit.old)
        if index is None:
            return "no line matches the one to replace; quote it as it is, or append instead"
        if new:
            lines[index] = new
            added.append(new)
        else:
            del lines[index]
        return None

    @staticmethod
    def _find(lines: list[str], old: str) -> int | None:
        wanted = normal(old)
        if not wanted:
            return None
        for i, line in enumerate(lines):
            if normal(line) == wanted:
                return i
        best, best_ratio = None, FUZZY_MATCH
        for i, line in enumerate(lines):
            ratio = difflib.SequenceMatcher(None, normal(line), wanted).ratio()
            if ratio >= best_ratio:
                best, best_ratio = i, ratio
        return best

    async def _compact(
        self, label: str, text: str, limit: int, added: list[str]
    ) -> tuple[str, Compaction]:
        by: Literal["model", "extractive"] = "extractive"
        result: str | None = None
        removed: list[str] = []
        if self.compact is not None:
            try:
                answer = (await self.compact(text, limit)).strip()
            except Exception as exc:  # the model is optional here; extractive never needs it
                log.warning("compacting %s by the model failed (%s); compacting extractively",
                            label, exc)
            else:
                if answer and len(answer) <= limit:
                    result, by = answer, "model"
                else:
                    log.warning("the model compacted %s to %d characters (limit %d); "
                                "compacting extractively", label, len(answer), limit)
        if result is None:
            try:
                result, removed = compact_extractive(text, limit, added)
            except BlockTooLong as exc:
                raise BlockTooLong(
                    label, len(text), limit,
                    next_step=(
                        "the new lines, headings and first line alone do not fit: shorten the "
                        f"proposed lines, or edit the block by hand (`wave blocks show {label}` "
                        "shows the file), or raise BLOCK_LIMIT"
                    ),
                ) from exc
        else:
            kept = {normal(line) for line in result.split("\n")}
            removed = [line for line in text.split("\n") if line.strip() and normal(line) not in kept]
        diff = unified(text, result, label)
        log.info(
            "compacted core block %s from %d to %d characters (%s, limit %d):\n%s",
            label, len(text), len(result), by, limit, diff,
        )
        return result, Compaction(by, len(text), len(result), limit, tuple(removed), diff)


__all__ = [
    "AppendLine",
    "BadBlockEdit",
    "BlockEdit",
    "BlockEditor",
    "Compaction",
    "EditResult",
    "ReplaceLine",
    "SkippedEdit",
    "compact_extractive",
    "parse_edits",
]
