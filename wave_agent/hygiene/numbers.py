"""Same words, other numbers: "пилот стоит 150 тысяч" then "пилот теперь стоит 200 тысяч".

Numbers are compared as written (digits, with "," and "." read alike); the words around
them are compared as stemmed content words. A change in the numbers with the words kept is
a supersession candidate; the person decides (the writer only proposes).
"""

from __future__ import annotations

import re

from wave_agent.hygiene.similarity import content_stems, jaccard

_NUMBER = re.compile(r"\d+(?:[.,]\d+)*")
_SPACED_THOUSANDS = re.compile(r"(?<=\d)[\s\u00a0\u202f](?=\d{3}\b)")

# The words around the numbers must overlap at least this much (stemmed Jaccard).
SAME_WORDS_MIN = 0.5

# Explicit change markers: with ``explicit_supersede=True`` from the caller they turn a
# proposal into a supersession (the person said outright that the old value is gone).
CHANGE_MARKERS = re.compile(
    r"\b(?:теперь|отныне|уже не|больше не|более не|стал[аио]?|изменил[аио]?сь|подорожал[аио]?"
    r"|подешевел[аио]?|now|no longer|any more|anymore|changed|has become|became|instead)\b",
    re.IGNORECASE,
)


def numbers(text: str) -> tuple[str, ...]:
    """The numbers in ``text`` in order, normalised ("150 000" -> "150000", "1,5" -> "1.5")."""
    joined = _SPACED_THOUSANDS.sub("", text)
    return tuple(m.group(0).replace(",", ".") for m in _NUMBER.finditer(joined))


def has_change_marker(text: str) -> str | None:
    match = CHANGE_MARKERS.search(text)
    return match.group(0) if match else None


def words_without_numbers(text: str) -> frozenset[str]:
    return content_stems(text, numbers=False)


def same_words_other_numbers(old: str, new: str) -> bool:
    """True when both carry numbers, the numbers differ and the words around them match."""
    old_numbers, new_numbers = numbers(old), numbers(new)
    if not old_numbers or not new_numbers or sorted(old_numbers) == sorted(new_numbers):
        return False
    return jaccard(words_without_numbers(old), words_without_numbers(new)) >= SAME_WORDS_MIN


def numbers_differ(old: str, new: str) -> bool:
    """Different numbers on the two sides (a number on one side only counts as different)."""
    return sorted(numbers(old)) != sorted(numbers(new))
