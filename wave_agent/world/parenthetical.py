"""A Russian parenthetical ("похоже", "кажется", "короче"), by pymorphy3's `Prnt` reading: a
word set off by commas that is no clause of its own (h/self38)."""

from __future__ import annotations

import re
from functools import lru_cache

from wave_agent.world.morphology import _morph


def parenthetical(words: str) -> bool:
    """Whether ``words`` (one or two) are a parenthetical by pymorphy3's `Prnt` reading of each:
    "похоже", "кажется", "видимо", "короче", "наверное"; not "вроде", "честно"."""
    said = re.findall(r"[^\W\d_]+(?:-[^\W\d_]+)?", words.lower())
    return 0 < len(said) <= 2 and len(said) == len(words.split()) and all(
        _prnt(w) for w in said)


@lru_cache(maxsize=16_384)
def _prnt(word: str) -> bool:
    return any("Prnt" in p.tag for p in _morph().parse(word))
