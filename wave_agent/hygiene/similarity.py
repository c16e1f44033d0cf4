"""Lexical similarity for Russian and English: stemmed content-word Jaccard.

The embedding model (all-MiniLM-L6-v2) is weak on Russian; the lexical voice carries
Russian paraphrases that share their stems ("Игорь платит предоплатой" / "Игорь платит
по предоплате"). ``combined`` fuses both voices into one score the writer thresholds.
"""

from __future__ import annotations

import re
from functools import lru_cache

import Stemmer

_WORD = re.compile(r"[0-9]+(?:[.,][0-9]+)*|[^\W\d_]+(?:[-'’][^\W\d_]+)*", re.UNICODE)
_CYRILLIC = re.compile(r"[а-яё]", re.IGNORECASE)
_DIGIT = re.compile(r"\d")

_EN_WORDS = (
    """a an the and or but if then so of to in on at by for with from into onto about as is are
    was were be been being am do does did have has had it its this that these those there here
    i me my mine we our you your he him his she her they them their what which who whom whose
    will would shall should can could may might must just very really also too not no yes
    now still already again than up down out over under more most some any all each every
    i'm i'd i've i'll it's don't doesn't didn't isn't aren't wasn't weren't can't won't"""
)
_RU_WORDS = (
    """я и в во на с со к ко по о об обо от до из у за для при про над под без а но или либо же ли
    бы не ни то это этот эта эти тот та те так как что чтобы где когда кто чем тоже также уже
    ещё еще вот мне меня мой моя моё мои мы нас наш наша ты тебя твой вы вас ваш он она оно они
    его её ее их им ему ей был была было были быть есть будет будут очень просто сейчас теперь
    всё все весь вся"""
)
STOPWORDS_EN = frozenset(_EN_WORDS.split())
STOPWORDS_RU = frozenset(_RU_WORDS.split())
# Negations ("not", "не") are stopwords here on purpose: polarity is checked separately
# (``polarity.py``), so "I eat meat" / "I don't eat meat" share their content words.
STOPWORDS = STOPWORDS_EN | STOPWORDS_RU
_STOP = STOPWORDS


@lru_cache(maxsize=2)
def _stemmer(language: str) -> Stemmer.Stemmer:
    return Stemmer.Stemmer(language)


def words(text: str) -> list[str]:
    """Lower-cased word and number tokens, in order."""
    return [m.group(0).lower().replace("ё", "е") for m in _WORD.finditer(text)]


def stem(word: str) -> str:
    if _DIGIT.search(word):
        return word.replace(",", ".")
    language = "russian" if _CYRILLIC.search(word) else "english"
    return str(_stemmer(language).stemWord(word))


def content_stems(text: str, *, numbers: bool = True) -> frozenset[str]:
    """Stems of the content words (stopwords dropped); numbers kept unless ``numbers=False``."""
    out: set[str] = set()
    for word in words(text):
        if word in _STOP:
            continue
        if _DIGIT.search(word):
            if numbers:
                out.add(stem(word))
            continue
        out.add(stem(word))
    return frozenset(out)


def jaccard(a: frozenset[str], b: frozenset[str]) -> float:
    if not a and not b:
        return 1.0
    union = a | b
    return len(a & b) / len(union) if union else 0.0


def lexical(a: str, b: str) -> float:
    """Stemmed content-word Jaccard in [0, 1]."""
    return jaccard(content_stems(a), content_stems(b))


def is_cyrillic(text: str) -> bool:
    letters = [c for c in text if c.isalpha()]
    if not letters:
        return False
    return sum(1 for c in letters if _CYRILLIC.match(c)) / len(letters) > 0.5


def normalise(text: str) -> str:
    """Exact-repeat key: lower-case words joined by single spaces."""
    return " ".join(words(text))


def combined(cosine: float, lexical_score: float, *, russian: bool) -> float:
    """One similarity from the two voices.

    English: the embedding is reliable, the lexical voice only lifts it a little.
    Russian: MiniLM barely understands Cyrillic (unrelated Russian sentences score 0.4-0.6,
    paraphrases not much more), so the lexical voice leads and the cosine only breaks ties.
    The weights and the writer's threshold were picked on the pairs in
    ``tests/unit/hygiene/test_similarity.py`` (see docs/benchmarks.md, "write path").
    """
    if russian:
        return max(lexical_score, 0.5 * cosine + 0.5 * lexical_score)
    return max(cosine, 0.7 * cosine + 0.3 * lexical_score)


_CAPITALISED = re.compile(r"\b[A-ZА-ЯЁ][^\W\d_]*", re.UNICODE)


def names(text: str) -> frozenset[str]:
    """Stems of capitalised words that are not stopwords (people, places, products...)."""
    out: set[str] = set()
    for match in _CAPITALISED.finditer(text):
        word = match.group(0).lower().replace("ё", "е")
        if word in _STOP:
            continue
        out.add(stem(word))
    return frozenset(out)


def different_names(a: str, b: str) -> bool:
    """A name on one side that the other text does not contain at all ("Igor" vs "Anna").

    A word capitalised only because it opens the sentence ("Живу в Москве") is not a name
    if the other text has the same word in lower case.
    """
    extra_a = names(a) - content_stems(b)
    extra_b = names(b) - content_stems(a)
    return bool(extra_a or extra_b)
