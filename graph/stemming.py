"""The one stemmer: Snowball stems for Russian, Polish and English words (pure, no I/O).

Everything in Wave that compares words by their stem goes through ``stem``: the graph's
entity keys and full-text prefixes, recall's lexical coverage, the writer's duplicate check
(``wave_agent.policy.similarity``). Two stemmers that disagreed used to stem a Polish word
one way when a record was written and another when a question was asked.

Which Snowball stemmer a word gets:

- a Cyrillic word: Russian, always;
- a Latin word: the ``language`` the caller names (``"polish"`` or ``"english"``); when none
  is named, Polish if the word has a Polish letter (ą ć ę ł ń ó ś ź ż), else English.

A caller stemming a whole text names the text's language (``language_of``), so every Latin
word of a Polish sentence gets the Polish stemmer, diacritics or not ("rower", "kosztuje").

It lives in ``graph`` (the lowest layer that stems) rather than in the stdlib-only
``common``: Snowball for Russian and Polish comes from PyStemmer, a compiled package, and
writing those stemmers again by hand is not worth the drift it would bring.
"""

from __future__ import annotations

import re
from functools import lru_cache

import Stemmer

LANGUAGES = ("russian", "polish", "english")

_CYRILLIC = re.compile(r"[а-яё]", re.IGNORECASE)
_POLISH_LETTERS = re.compile(r"[ąćęłńóśźż]", re.IGNORECASE)
_WORD = re.compile(r"[^\W\d_]+", re.UNICODE)

# Frequent Polish words without a Polish letter: enough to tell a Polish sentence that has
# none of ą ć ę ł ń ó ś ź ż ("Mam psa, jest bardzo duzy") from an English one.
POLISH_WORDS = frozenset([
    "się", "jest", "że", "już", "teraz", "mam", "jestem", "kosztuje", "oraz", "był", "była",
    "było", "mój", "moja", "moje", "dla", "przez", "bardzo", "czy",
    # question words and pronouns: 13 of the 120 Polish memory-set questions had neither
    # these nor a Polish letter ("kiedy syn ma treningi?") and were read as English
    "nie", "mnie", "kiedy", "gdzie", "jak", "jaki", "jaka", "jakie", "jakich", "jakim",
    "jakiej", "ile", "kto", "czym", "czego", "mamy",
])


@lru_cache(maxsize=len(LANGUAGES))
def _stemmer(language: str) -> Stemmer.Stemmer:
    return Stemmer.Stemmer(language)


def stem(word: str, language: str | None = None) -> str:
    """The Snowball stem of one (lower-cased) word; see the module's rules for the language."""
    if _CYRILLIC.search(word):
        language = "russian"
    elif language not in ("english", "polish"):
        language = "polish" if _POLISH_LETTERS.search(word) else "english"
    return str(_stemmer(language).stemWord(word))


def is_cyrillic(text: str) -> bool:
    """More than half of the letters of ``text`` are Cyrillic."""
    letters = [c for c in text if c.isalpha()]
    if not letters:
        return False
    return sum(1 for c in letters if _CYRILLIC.match(c)) / len(letters) > 0.5


def language_of(text: str) -> str:
    """"russian", "polish" or "english": the language to stem the words of ``text`` in."""
    if is_cyrillic(text):
        return "russian"
    if _POLISH_LETTERS.search(text) or any(
            w.lower() in POLISH_WORDS for w in _WORD.findall(text)):
        return "polish"
    return "english"


__all__ = ["LANGUAGES", "POLISH_WORDS", "is_cyrillic", "language_of", "stem"]
