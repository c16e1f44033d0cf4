"""The replaced record just above the one that replaced it, when a question asks about the past.

A history question ("сколько стоил зал в Нижнем?", "what was my old phone number?") is answered
by a record a later one replaced. The history preset searches replaced records too, but ranks
them by their words like any other: the record in force that replaced the old one often says
more of the question (it names the same thing, and it is newer), and the old one fell below
the fifth (docs/benchmarks.md, "Round twenty-one"). What a record in force replaced is known
exactly, with no guess at its words: the writer links the two (``supersedes``). So for a
question about the past, each chosen record that replaced another is preceded by the one it
replaced (and that one's predecessor, up to ``DEPTH``), whether or not a voice found it.

The same link in the other direction is ``recall.newer``'s: a question about now puts the newer
of two records saying the same thing first.
"""

from __future__ import annotations

from graph.models import Fact, Status

DEPTH = 3  # how many values back one record's chain is followed ("32, then 41, then 55")


def wanted(chosen: list[str], facts: dict[str, Fact]) -> list[str]:
    """The ids not loaded yet that the chosen records' chains reach next (``supersedes``
    followed through the loaded records, up to ``DEPTH`` back)."""
    out: list[str] = []
    for fid in chosen:
        fact, steps = facts.get(fid), 0
        while fact is not None and fact.supersedes and steps < DEPTH:
            if fact.supersedes not in facts:
                out.append(fact.supersedes)
                break
            fact, steps = facts[fact.supersedes], steps + 1
    return list(dict.fromkeys(out))


def replaced_first(chosen: list[str], facts: dict[str, Fact], k: int) -> list[str]:
    """``chosen`` with each record's replaced predecessors (``supersedes``, newest first, up to
    ``DEPTH``; only records a later one superseded, as ``facts`` has them) placed right above
    it, each once, cut to ``k``. A record already above keeps its place."""
    out: dict[str, None] = {}
    for fid in chosen:
        chain: list[str] = []
        fact = facts.get(fid)
        while fact is not None and fact.supersedes and len(chain) < DEPTH:
            before = facts.get(fact.supersedes)
            if before is None or before.status is not Status.SUPERSEDED \
                    or before.id in chain or before.id == fid:
                break
            chain.append(before.id)
            fact = before
        for prior in chain:  # the value just replaced first, then the one before it
            out.setdefault(prior, None)
        out.setdefault(fid, None)
    return list(out)[:k]
