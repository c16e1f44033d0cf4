"""Taking one erased record out of the text it came from, and out of text derived from it.

Only text that provenance ties to the record is ever passed here: the exchanges named in the
record's ``exchange_ids`` (session log, outbox payload), the snapshots of those sessions, the
core-block lines Wave's post-processor wrote, a weekly summary of a day that had the record's
line. What the person wrote elsewhere is never searched for the same words.

Within such a text the unit removed is a clause (split at sentence punctuation, commas,
semicolons, dashes and line breaks). A clause goes when it says the record:
- it shares at least half of the record's content stems ("Моя фамилия Вжжиковская" for the
  record "Фамилия пользователя — Вжжиковская"), or
- it holds one of the record's *distinctive* stems: a content stem no other record of the
  person has (the reply "Приятно познакомиться, госпожа Вжжиковская!" keeps "Приятно
  познакомиться" and loses "госпожа Вжжиковская!").
A stem another live record of the person carries is not distinctive: that record keeps it.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable
from dataclasses import dataclass

from wave_agent.policy.similarity import content_stems

# A clause: text up to (and with) its closing punctuation and the space after it.
_CLAUSE = re.compile(r"[^.!?;,…\n—–]+(?:[.!?;,…—–]+|\n|$)\s*|[.!?;,…\n—–]+\s*")
# Words extraction puts into every record about the person ("Пользователь живёт…", "The
# user likes…"): never distinctive, or every line of the portrait would look like the record.
GENERIC = frozenset(content_stems("пользователь пользователя пользователю собеседник человек "
                                  "user person użytkownik"))
# Post-processor reasons name the exchange: "post-processor: facts of exchange x-…".
WAVE_REASON = re.compile(r"^post-processor\b")


@dataclass(frozen=True, slots=True)
class Trace:
    """What marks the record's words: its content stems and those only it has."""

    stems: frozenset[str]
    distinctive: frozenset[str]

    @classmethod
    def of(cls, texts: Iterable[str], others: Iterable[str] = ()) -> Trace:
        stems: frozenset[str] = frozenset().union(*(content_stems(t) for t in texts))
        kept: frozenset[str] = frozenset().union(*(content_stems(t) for t in others))
        return cls(stems, stems - kept - GENERIC)

    @property
    def empty(self) -> bool:
        return not self.stems

    def says(self, clause: str) -> bool:
        """True when ``clause`` carries the record (see the module doc)."""
        if self.empty:
            return False
        found = content_stems(clause)
        if not found:
            return False
        if found & self.distinctive:
            return True
        return len(found & self.stems) >= max(1, math.ceil(len(self.stems) / 2))


def clauses(text: str) -> list[str]:
    return [m.group(0) for m in _CLAUSE.finditer(text) if m.group(0)]


def redact(text: str, trace: Trace) -> str:
    """``text`` without the clauses that carry the record (unchanged when none does)."""
    if not text or trace.empty:
        return text
    parts = clauses(text)
    kept = [p for p in parts if not trace.says(p)]
    if len(kept) == len(parts):
        return text
    out = "".join(kept)
    out = re.sub(r"[ \t]{2,}", " ", out)
    out = re.sub(r"^[\s,;—–-]+", "", out)
    return out.strip() if out.strip() else ""


def redact_block(value: str, trace: Trace) -> str:
    """A core block without the lines that carry the record (a line is one stored item)."""
    if not value or trace.empty:
        return value
    lines = value.split("\n")
    kept = [ln for ln in lines if not (ln.strip() and trace.says(ln))]
    return value if len(kept) == len(lines) else "\n".join(kept)


def wave_written(reason: str) -> bool:
    """A block version Wave's post-processor wrote (a person's own edits are never redacted)."""
    return bool(WAVE_REASON.match(reason))
