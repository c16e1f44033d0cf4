"""Same words, other numbers: "пилот стоит 150 тысяч" then "пилот теперь стоит 200 тысяч".

Numbers are compared by value (``quantities``: "150 тысяч" and "150 000" are the same number;
"полторы тысячи" is 1500); the words around them are compared as stemmed content words.
A change in the numbers with the words kept is a supersession candidate; the person
decides (the writer only proposes). A change of date alone is not one ("был у врача 5 мая" /
"20 мая" are two visits).
"""

from __future__ import annotations

import re

from wave_agent.policy.quantities import is_number_word, numbers, written
from wave_agent.policy.similarity import content_stems, jaccard

__all__ = ["CHANGE_MARKERS", "SAME_WORDS_MIN", "has_change_marker", "is_number_word", "numbers",
           "numbers_differ", "same_words_other_numbers", "words_without_numbers", "written"]

# The words around the numbers must overlap at least this much (stemmed Jaccard).
SAME_WORDS_MIN = 0.5

# Explicit change markers: with ``explicit_supersede=True`` from the caller they turn a
# proposal into a supersession (the person said outright that the old value is gone); without
# it, a marker lets the writer propose a supersession for a record in the same frame.
CHANGE_MARKERS = re.compile(
    r"\b(?:теперь|отныне|уже не|больше не|более не|стал[аио]?|изменил[аио]?сь|поменял[аио]?сь"
    r"|подорожал[аио]?|подешевел[аио]?|вырос(?:ла|ло|ли)?|вырос|вырасл[аио]|снизил[аио]?сь"
    r"|повысил[аио]?сь|понизил[аио]?сь|уменьшил[аио]?сь|увеличил[аио]?сь"
    r"|teraz|od teraz|już nie|nie \w+ już|zmienił[aoy]? się|się zmienił[aoy]?"
    r"|podrożał[aoy]?|zdrożał[aoy]?|staniał[aoy]?|wzrósł|wzrosł[aoy]"
    r"|now|no longer|not any ?more|any more|anymore|changed|has become|became|instead"
    r"|went up|went down|rose to|dropped to|raised to|increased to|decreased to)\b",
    re.IGNORECASE,
)


def has_change_marker(text: str) -> str | None:
    match = CHANGE_MARKERS.search(text)
    return match.group(0) if match else None


def words_without_numbers(text: str) -> frozenset[str]:
    return content_stems(text, numbers=False)


def same_words_other_numbers(old: str, new: str) -> bool:
    """True when both carry numbers (dates aside), the numbers differ and the words around
    them match."""
    old_numbers, new_numbers = numbers(old, dates=False), numbers(new, dates=False)
    if not old_numbers or not new_numbers or sorted(old_numbers) == sorted(new_numbers):
        return False
    return jaccard(words_without_numbers(old), words_without_numbers(new)) >= SAME_WORDS_MIN


def numbers_differ(old: str, new: str) -> bool:
    """Different numbers on the two sides (a number on one side only counts as different)."""
    return sorted(numbers(old)) != sorted(numbers(new))
