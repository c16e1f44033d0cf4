"""The turn's system prompt: typed in (the composer's layers), plain text out."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from wave_agent.llm.prompts import render


@dataclass(frozen=True, slots=True)
class Section:
    title: str
    text: str


@dataclass(frozen=True, slots=True)
class SystemInput:
    now: datetime
    sections: Sequence[Section]


def render_system(inp: SystemInput) -> str:
    body = "\n\n".join(f"## {s.title}\n{s.text.strip()}" for s in inp.sections if s.text.strip())
    return render("system", now=inp.now.strftime("%Y-%m-%d %H:%M %Z"), layers=body).rstrip() + "\n"


def frame_chars(now: datetime) -> int:
    """Characters the fixed frame costs (outside the layers)."""
    return len(render_system(SystemInput(now=now, sections=())))
