"""Core blocks follow the graph: when a record is replaced, its line in the ``human`` block goes.

The writer calls ``BlockLines.replaced`` after every supersession it commits (a change it read
itself, a proposal the person approved through `wave approve`, the bot's button or the memory
page, `wave supersede`), so no path that replaces a record can leave the old value in the block
that rides with every prompt. The post-processor edits the block for an exchange's own new
records as before; this is the step that does not depend on who replaced the record.

A line is the old record's when it is the record's text (a list item, "- Мне 33") or names a
value the old record held and the new one does not, read as that attribute of that entity
(``write.attributes.lines_holding``: "Пользователь живёт в Самаре", not "Мама живёт в Самаре").
The first such line becomes the new record's text (or goes, when the new record says the value
ended, or its text is in the block already); any other goes. The graph is the system of record:
a block store that does not answer costs the block its edit (logged, version history intact),
never the supersession.
"""

from __future__ import annotations

import asyncio
import logging
import re
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

from wave_agent.world.attributes import Value, same_value

if TYPE_CHECKING:
    from graph.models import Fact
    from wave_agent.blocks.store import BlockStore

log = logging.getLogger("wave.write.blocks")

HUMAN = "human"
_BULLET = re.compile(r"^\s*[-*•–]\s+")


def _values(fact: Fact) -> list[Value]:
    return [v for v in (Value.decode(raw) for raw in fact.attributes) if v is not None]


def _gone(old: Fact, new: Fact) -> list[dict[str, str]]:
    """The values ``old`` held (set or added) that ``new`` does not hold, as changes."""
    kept = [v for v in _values(new) if v.op in ("set", "add")]
    return [{"entity": v.entity, "attribute": v.attribute, "old": v.value, "op": "set",
             "old_text": old.text}
            for v in _values(old) if v.op in ("set", "add")
            and not any(k.key == v.key and same_value(k.value, v.value) for k in kept)]


class BlockLines:
    """The ``human`` block's lines kept in step with replaced records (one per writer)."""

    def __init__(self, open_store: Callable[[], Awaitable[BlockStore]], *,
                 timeout_s: float = 30.0) -> None:
        self.open_store = open_store
        self.timeout_s = timeout_s

    async def replaced(self, old: Fact, new: Fact) -> int:
        """Take ``old``'s lines out of the person's ``human`` block (the first becomes
        ``new``'s text unless ``new`` only ends a value); how many lines changed."""
        try:
            async with asyncio.timeout(self.timeout_s):
                return await self._replace(old, new)
        except Exception as exc:  # the graph holds the truth; the block is a copy
            log.warning("core block of %s keeps #%s's line (replaced by #%s): %s",
                        old.user_id, old.id, new.id, exc)
            return 0

    async def _replace(self, old: Fact, new: Fact) -> int:
        from wave_agent.blocks.editor import BlockEditor, ReplaceLine, normal
        from wave_agent.write.attributes import lines_holding

        store = await self.open_store()
        block = await store.get(old.user_id, HUMAN)
        lines = [x for x in block.value.split("\n") if x.strip()] if block.value else []
        if not lines:
            return 0
        gone = _gone(old, new)
        found: list[str] = []
        for change in gone or [{"entity": "", "attribute": "", "old": "", "old_text": old.text}]:
            for line in await _holding(lines, change, lines_holding):
                if line not in found:
                    found.append(line)
        if not found:
            return 0
        said = _values(new)
        ends_only = bool(said) and not any(v.op in ("set", "add") for v in said)
        present = any(normal(x) == normal(new.text) for x in lines if x not in found)
        first_text = "" if ends_only or present else new.text
        # the new line keeps the old one's list marker ("- ")
        bullet = _BULLET.match(found[0])
        first = f"{bullet.group(0) if bullet else ''}{first_text}" if first_text else ""
        edits = [ReplaceLine(line, first if i == 0 else "") for i, line in enumerate(found)]
        await BlockEditor(store).apply(
            old.user_id, HUMAN, edits,
            reason=f"#{old.id} replaced by #{new.id}: \"{old.text[:80]}\" -> \"{new.text[:80]}\"")
        return len(edits)


async def _holding(lines: list[str], change: dict[str, str],
                   lines_holding: Callable[..., Awaitable[list[str]]]) -> list[str]:
    if change["old"]:
        return list(await lines_holding(lines, change))
    from wave_agent.blocks.editor import normal

    # no value read: the old record's own text (a list item or the line itself)
    return [x for x in lines if normal(x) == normal(change["old_text"])]


__all__ = ["HUMAN", "BlockLines"]
