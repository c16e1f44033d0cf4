"""The everyday name of a thing one owns read as its make and model: "камри" -> Toyota Camry,
"солярис" -> Hyundai Solaris, "крузак" -> Toyota Land Cruiser 100.

``car_names.json`` is learned from the labels (``scripts/car_names.py``: the older entity
authors' owns targets with their aliases, the tuning months' vehicle values; each key its most
voted name). A word found there is a thing owned even with no noun of a kind before it ("езжу
на камри", "продала Рио"); its mention is named by the label's name with the word as said an
alias, so either matches.
"""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path

_PATH = Path(__file__).with_name("car_names.json")


def key_of(text: str) -> str:
    """The lookup key: lower case, "ё" as "е", "š" as "s", words joined by one space."""
    return " ".join(text.lower().replace("ё", "е").replace("š", "s").replace("-", " ").split())


@lru_cache(maxsize=1)
def _table() -> dict[str, str]:
    if not _PATH.exists():
        return {}
    data: dict[str, str] = json.loads(_PATH.read_text(encoding="utf-8"))
    return data


@lru_cache(maxsize=1)
def _stems() -> dict[str, str]:
    from graph.entities import stem_key

    found: dict[str, str] = {}
    for key, name in _table().items():
        found.setdefault(stem_key(key), name)
    found.pop("", None)
    return found


def name_of(*said: str) -> str | None:
    """The make and model the first of ``said`` found in the table names (its forms: the word
    as written, its lemma; else by its stems: "Шкоду Октавию" as "шкода октавия"), or None."""
    from graph.entities import stem_key

    table = _table()
    for text in said:
        found = table.get(key_of(text))
        if found:
            return found
    stems = _stems()
    for text in said:
        found = stems.get(stem_key(key_of(text)))
        if found:
            return found
    return None
