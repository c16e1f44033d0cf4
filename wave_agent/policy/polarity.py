"""Negation: "I drink coffee" and "I don't drink coffee" share every content word (RU, PL, EN).

The embedding and the stemmed overlap both call such a pair near-identical; the writer
must see a contradiction (a conflict, or a supersession when the person said so), never a
confirmation.
"""

from __future__ import annotations

import re

_NEGATION = re.compile(
    r"(?:\b(?:not|no|never|none|nobody|nothing|neither|nor|cannot|without|no longer|не|нет|ни|"
    r"никогда|никто|ничего|нигде|без|больше не|уже не|nie|nigdy|nikt|nic|nigdzie|już nie)\b|n['’]t\b)",
    re.IGNORECASE,
)


# Contrast, not negation: "чай, а не кофе", "tea rather than coffee".
_CONTRAST = re.compile(r"(?:,?\s+а\s+не\b|\brather\s+than\b|\binstead\s+of\b)", re.IGNORECASE)


def negations(text: str) -> int:
    return len(_NEGATION.findall(_CONTRAST.sub(" ", text)))


def negated(text: str) -> bool:
    """Odd number of negations reads as a negative statement ("not un-" cases aside)."""
    return negations(text) % 2 == 1


def opposite(a: str, b: str) -> bool:
    return negated(a) != negated(b)
