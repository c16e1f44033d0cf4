"""memory_reflect: typed in (the question and the dated material, oldest first), plain text
out (a 2-5 paragraph narrative citing record ids)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, datetime

from wave_agent.llm.client import ChatMessage
from wave_agent.llm.prompts import render


@dataclass(frozen=True, slots=True)
class ReflectItem:
    id: str
    at: datetime
    kind: str      # fact, episode, snapshot
    status: str    # active, superseded, archived, or "" for episodes and snapshots
    text: str


@dataclass(frozen=True, slots=True)
class ReflectInput:
    question: str
    items: Sequence[ReflectItem]
    today: date


def item_line(item: ReflectItem) -> str:
    label = f"{item.kind}, {item.status}" if item.status else item.kind
    return f"[{item.id}] {item.at:%Y-%m-%d} ({label}) {item.text}"


def messages(inp: ReflectInput) -> list[ChatMessage]:
    system = render("reflect", today=inp.today.isoformat()).rstrip()
    material = "\n".join(item_line(i) for i in inp.items)
    user = f"Question: {inp.question.strip()}\n\nRecords, oldest first:\n{material}"
    return [ChatMessage.system(system), ChatMessage.user(user)]
