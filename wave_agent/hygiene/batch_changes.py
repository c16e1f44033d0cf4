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

import re
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime

from graph.models import Fact, Status
from wave_agent.hygiene import numbers, similarity

# A cheap test before the numbers are read: a digit, or a number word.
_MAYBE_NUMBER = re.compile(
    r"\d|\b(?:тыс|тысяч|полтор|дв[ае]|три|четыре|пять|шесть|семь|восемь|девять|десять|сто|"
    r"двести|триста|пятьсот|dwa|dwie|trzy|pięć|półtora|tysi|two|three|four|five|six|seven|"
    r"eight|nine|ten|hundred|thousand|twenty|thirty|forty|fifty)", re.IGNORECASE)


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


def _key(fact: Fact) -> tuple[frozenset[str], tuple[str, ...]] | None:
    if fact.status is not Status.ACTIVE or not _MAYBE_NUMBER.search(fact.text):
        return None
    values = numbers.numbers(fact.text, dates=False)
    if not values:
        return None
    return numbers.words_without_numbers(fact.text), values


def number_changes(existing: Sequence[Fact], new: Sequence[Fact]) -> list[Change]:
    """The new records (in date order) that change a record: an existing active one, or an
    earlier new one of the same batch. A new record that changes one is not itself a target
    (the record in force stays the one to replace until the person approves)."""
    index: dict[str, list[int]] = defaultdict(list)
    records: list[tuple[Fact, frozenset[str], tuple[str, ...]]] = []

    def add(fact: Fact, stems: frozenset[str], values: tuple[str, ...]) -> None:
        for stem in stems:
            index[stem].append(len(records))
        records.append((fact, stems, values))

    for fact in existing:
        key = _key(fact)
        if key is not None:
            add(fact, *key)
    changes: list[Change] = []
    for fact in sorted(new, key=_when):
        key = _key(fact)
        if key is None:
            continue
        stems, values = key
        shared: dict[int, int] = defaultdict(int)
        for stem in stems:
            for position in index.get(stem, ()):
                shared[position] += 1
        best: tuple[float, Fact] | None = None
        for position, count in shared.items():
            old, old_stems, old_values = records[position]
            overlap = count / len(stems | old_stems)
            if (overlap < numbers.SAME_WORDS_MIN or sorted(old_values) == sorted(values)
                    or similarity.different_names(old.text, fact.text)):
                continue
            if best is None or overlap > best[0] or (
                    overlap == best[0] and _when(old) > _when(best[1])):
                best = (overlap, old)
        if best is None:
            add(fact, stems, values)
            continue
        old = best[1]
        changes.append(Change(
            new=fact, old=old, similarity=round(similarity.lexical(old.text, fact.text), 4),
            detail=f"{', '.join(numbers.written(old.text))} -> "
                   f"{', '.join(numbers.written(fact.text))}"))
    return changes
