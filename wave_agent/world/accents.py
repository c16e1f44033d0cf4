"""Polish written without its letters ("Zona Magda jest farmaceutka", "Mieszkam we
Wroclawiu", "Robie w Tauronie"): many people type Polish on a phone that way, and the
patterns (``world.latin``), the kin roles (``graph.kin``) and the learned endings all read the
letters ("żona", "Wrocławiu", "robię"). A statement with no Polish letter at all is given them
back word by word from a table learned from the Polish written with them in the labelled sets
(``pl_accents.json``, ``scripts/train_pl_accents.py``): a word takes the form that
people wrote most often for its letters without the marks, when that form outnumbers the word
written bare. A statement with one Polish letter is left as written (its writer uses them).
Pure; the table loads once per process."""

from __future__ import annotations

import json
import re
import threading
from dataclasses import replace
from pathlib import Path

from wave_agent.world.reading import Reading

TABLE_PATH = Path(__file__).with_name("pl_accents.json")
POLISH_LETTERS = "ąćęłńóśźżĄĆĘŁŃÓŚŹŻ"
_HAS_POLISH = re.compile(f"[{POLISH_LETTERS}]")
_FOLD = str.maketrans("ąćęłńóśźżĄĆĘŁŃÓŚŹŻ", "acelnoszzACELNOSZZ")
_WORD = re.compile(r"[^\W\d_]+", re.UNICODE)

_lock = threading.Lock()
_table: dict[str, str] | None = None


def fold(word: str) -> str:
    """``word`` without the Polish marks ("Wrocław" -> "Wroclaw")."""
    return word.translate(_FOLD)


def _loaded() -> dict[str, str]:
    global _table
    with _lock:
        if _table is None:
            _table = json.loads(TABLE_PATH.read_text(encoding="utf-8")) \
                if TABLE_PATH.exists() else {}
        return _table


def restore(text: str, table: dict[str, str] | None = None) -> str:
    """``text`` with the Polish letters its words were written without, when it has none
    (``table``: folded lower-case word -> its written form; the shipped one by default)."""
    if _HAS_POLISH.search(text):
        return text
    known = _loaded() if table is None else table

    def back(match: re.Match[str]) -> str:
        word = match.group(0)
        form = known.get(word.lower())
        if form is None:
            return word
        if word.isupper() and len(word) > 1:
            return form.upper()
        return form[0].upper() + form[1:] if word[0].isupper() else form

    return _WORD.sub(back, text)


def with_bare_names(reading: Reading) -> Reading:
    """A reading of a restored statement whose names keep the spelling without the marks as an
    alias ("Wrocław" also "Wroclaw"), so the person's next bare mention finds the same entity."""
    mentions = tuple(
        replace(m, aliases=(*m.aliases, fold(m.name)))
        if fold(m.name) != m.name and fold(m.name) not in m.aliases else m
        for m in reading.mentions)
    return replace(reading, mentions=mentions)


__all__ = ["POLISH_LETTERS", "TABLE_PATH", "fold", "restore", "with_bare_names"]
