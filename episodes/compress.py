"""Compressing episode days into a character budget: by a model when given, else extractively.

``summarise`` is any ``async (text, budget) -> str`` (the agent passes its LLM); its answer is
used only when it is non-empty and within the budget, otherwise the extractive path runs.
The extractive path keeps whole lines, preferring the person's own lines, lines that produced
facts, decisions and preferences, and newer days, and drops repeated lines first.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass

from episodes.models import EpisodeDay, EpisodeLine

log = logging.getLogger("wave.episodes.compress")

Summarise = Callable[[str, int], Awaitable[str]]

_SIGNAL = re.compile(
    r"\b(decid|decision|chose|prefer|love|hate|like|dislike|always|never|important|promise|plan"
    r"|решил|решени|выбрал|предпочит|люб|ненавид|нрав|всегда|никогда|важн|обещ|план"
    r"|zdecydow|wol[iae]|lubi|nienawidz|zawsze|nigdy|ważn|obiec|plan)",
    re.IGNORECASE,
)
ELLIPSIS = "…"


@dataclass(frozen=True, slots=True)
class _Item:
    day_index: int
    line_index: int
    text: str
    priority: float


def render_line(line: EpisodeLine, *, with_ids: bool = True) -> str:
    stamp = f"{line.at.hour:02d}:{line.at.minute:02d} " if line.at else ""
    ids = f" [{', '.join(line.fact_ids)}]" if with_ids and line.fact_ids else ""
    return f"- {stamp}{line.text}{ids}"


def _header(day: EpisodeDay) -> str:
    return f"## {day.day.isoformat()}"


def render_days(days: Sequence[EpisodeDay], *, with_ids: bool = True) -> str:
    """Every entry of every day, without markers or headings written in the files."""
    blocks = []
    for day in days:
        lines = [render_line(line, with_ids=with_ids) for line in day.entries]
        if lines:
            blocks.append("\n".join([_header(day), *lines]))
    return "\n\n".join(blocks)


def _priority(line: EpisodeLine, day_index: int) -> float:
    score = 1.0
    if not line.machine:  # the person's own words (written or edited by hand)
        score += 1.0
    if line.fact_ids:
        score += 1.0
    if _SIGNAL.search(line.text):
        score += 0.5
    return score + 0.1 * day_index


def _normal(text: str) -> str:
    return " ".join(text.casefold().split()).rstrip(".!")


def _render(days: Sequence[EpisodeDay], chosen: Sequence[_Item]) -> str:
    blocks = []
    for index, day in enumerate(days):
        lines = [item.text for item in sorted(chosen, key=lambda i: i.line_index)
                 if item.day_index == index]
        if lines:
            blocks.append("\n".join([_header(day), *lines]))
    return "\n\n".join(blocks)


def extractive(days: Sequence[EpisodeDay], budget: int, *, with_ids: bool = True) -> str:
    """Whole lines, best first, rendered in date order, within ``budget`` characters."""
    if budget <= 0:
        return ""
    full = render_days(days, with_ids=with_ids)
    if len(full) <= budget:
        return full
    latest: dict[str, _Item] = {}
    for day_index, day in enumerate(days):
        for line_index, line in enumerate(day.entries):
            item = _Item(
                day_index, line_index, render_line(line, with_ids=with_ids),
                _priority(line, day_index),
            )
            latest[_normal(line.text)] = item  # a repeated line counts once, at its latest
    ranked = sorted(latest.values(), key=lambda i: (-i.priority, -i.day_index, -i.line_index))
    chosen: list[_Item] = []
    for item in ranked:
        if len(_render(days, [*chosen, item])) <= budget:
            chosen.append(item)
    if chosen:
        return _render(days, chosen)
    top = ranked[0] if ranked else None
    if top is None:
        return ""
    text = _render(days, [top])
    return text[: budget - 1] + ELLIPSIS if budget > 1 else text[:budget]


async def compress_days(
    days: Sequence[EpisodeDay], budget: int, *, summarise: Summarise | None = None
) -> str:
    """The days within ``budget`` characters: as they are if they fit, else model or extractive."""
    full = render_days(days)
    if len(full) <= budget:
        return full
    if summarise is not None:
        try:
            answer = (await summarise(full, budget)).strip()
        except Exception as exc:  # the model is best-effort; the extractive path never fails
            log.warning("episode summary by the model failed (%s); using the extractive one", exc)
        else:
            if answer and len(answer) <= budget:
                return answer
            log.warning(
                "episode summary by the model was %d characters for a budget of %d; "
                "using the extractive one", len(answer), budget,
            )
    return extractive(days, budget)
