"""Same words, other numbers inside an import: which new records change which records.

``Writer.remember_many`` (``wave import``, the LoCoMo replay) embeds and writes thousands of
records in one go, so it cannot ask the archive about each one. Number changes are found
here by words alone, as ``numbers.same_words_other_numbers`` decides them for one pair: an
index from content stems to the records that carry numbers, so each new record is compared
with the few records that share a word with it, never with all of them.

The new records are taken in date order: the first rent of an import is written, each later
rent becomes a proposal to replace the record in force (never a silent overwrite).
"""

from __future__ import annotations

import math
import re
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime

from graph.models import Fact, Status
from wave_agent.policy import numbers, similarity

# A cheap test before the numbers are read: a digit, or a number word.
_MAYBE_NUMBER = re.compile(
    r"\d|\b(?:тыс|тысяч|полтор|дв[ае]|три|четыре|пять|шесть|семь|восемь|девять|десять|сто|"
    r"двести|триста|пятьсот|dwa|dwie|trzy|pięć|półtora|tysi|two|three|four|five|six|seven|"
    r"eight|nine|ten|hundred|thousand|twenty|thirty|forty|fifty)", re.IGNORECASE)


# A stem in more records with numbers than this is too common to find candidates by.
COMMON = 64


@dataclass(frozen=True, slots=True)
class Change:
    """``new`` says ``old``'s words with other numbers: propose that it replace ``old``."""

    new: Fact
    old: Fact
    similarity: float
    detail: str


def _when(fact: Fact) -> datetime:
    """Its date, comparable whatever the import file gave (a date without a zone is UTC)."""
    when = fact.created_at
    return when if when.tzinfo is not None else when.replace(tzinfo=UTC)


@dataclass(frozen=True, slots=True)
class _Record:
    fact: Fact
    stems: frozenset[str]  # content stems without numbers
    values: tuple[str, ...]  # its numbers by value, sorted, dates aside
    names: frozenset[str]


def _record(fact: Fact) -> _Record | None:
    if fact.status is not Status.ACTIVE or not _MAYBE_NUMBER.search(fact.text):
        return None
    values = numbers.numbers(fact.text, dates=False)
    if not values:
        return None
    return _Record(fact, numbers.words_without_numbers(fact.text), tuple(sorted(values)),
                   similarity.names(fact.text))


def _changes(old: _Record, new: _Record) -> float | None:
    """The words' overlap when ``new`` says ``old``'s words with other numbers, else None
    (``numbers.same_words_other_numbers`` and ``similarity.different_names``, on sets
    computed once per record)."""
    if old.values == new.values:
        return None
    union = len(old.stems | new.stems)
    overlap = len(old.stems & new.stems) / union if union else 1.0
    if overlap < numbers.SAME_WORDS_MIN:
        return None
    if old.names - new.stems or new.names - old.stems:
        return None  # a name on one side only: about someone or something else
    return overlap


def number_changes(existing: Sequence[Fact], new: Sequence[Fact]) -> list[Change]:
    """The new records (in date order) that change a record: an existing active one, or an
    earlier new one of the same batch. A new record that changes one is not itself a target
    (the record in force stays the one to replace until the person approves).

    A record that overlaps a new one by Jaccard >= t shares at least one of any
    ``|stems| - ceil(t * |stems|) + 1`` of the new one's stems, so only the postings of that
    many of its rarest stems are read (prefix filtering); of those, the common ones (in more
    than ``COMMON`` records with numbers: "стоит", "рублей", "месяц") are skipped when a
    rarer one is there. So a pair that shares only such common words is not compared here
    (the one-at-a-time path and maintenance's review still see it): the cost stays near
    linear in the import, not (new prices) x (prices in force)."""
    index: dict[str, list[_Record]] = defaultdict(list)

    def add(record: _Record) -> None:
        for stem in record.stems:
            index[stem].append(record)

    for fact in existing:
        record = _record(fact)
        if record is not None:
            add(record)
    changes: list[Change] = []
    for fact in sorted(new, key=_when):
        record = _record(fact)
        if record is None:
            continue
        probes = sorted(record.stems, key=lambda stem: len(index.get(stem, ())))
        keep = len(probes) - math.ceil(numbers.SAME_WORDS_MIN * len(probes)) + 1
        probes = probes[:keep]
        rare = [stem for stem in probes if len(index.get(stem, ())) <= COMMON]
        seen: set[str] = set()
        best: tuple[float, _Record] | None = None
        for stem in rare or probes[:1]:
            for old in index.get(stem, ()):
                if old.fact.id in seen:
                    continue
                seen.add(old.fact.id)
                overlap = _changes(old, record)
                if overlap is not None and (best is None or overlap > best[0] or (
                        overlap == best[0] and _when(old.fact) > _when(best[1].fact))):
                    best = (overlap, old)
        if best is None:
            add(record)
            continue
        target = best[1].fact
        changes.append(Change(
            new=fact, old=target,
            similarity=round(similarity.lexical(target.text, fact.text), 4),
            detail=f"{', '.join(numbers.written(target.text))} -> "
                   f"{', '.join(numbers.written(fact.text))}"))
    return changes
