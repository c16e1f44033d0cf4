"""Lexical similarity for Russian and English: stemmed content-word Jaccard.

The embedding model (all-MiniLM-L6-v2) is weak on Russian; the lexical voice carries
Russian paraphrases that share their stems ("Игорь платит предоплатой" / "Игорь платит
по предоплате"). ``combined`` fuses both voices into one score the writer thresholds.
"""

from __future__ import annotations

import re

# is_cyrillic and language_of are re-exported: judge, groups and reflect read them from here
from graph.stemming import is_cyrillic as is_cyrillic
from graph.stemming import language_of as language_of
from graph.stemming import stem
from wave_agent.policy.quantities import canonical

_WORD = re.compile(r"[0-9]+(?:[.,][0-9]+)*|[^\W\d_]+(?:[-'’][^\W\d_]+)*", re.UNICODE)
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
_PL_WORDS = (
    """a i w we z ze na do od po za o u przy dla bez nad pod przez że czy ale lub albo to ten ta
    te tego tej jak jest są był była było były być będzie mam ma mamy masz mój moja moje moi
    mnie mi ja ty on ona ono my wy oni one jego jej ich go się sobie już jeszcze teraz też także
    tylko bardzo nie tak wszystko wszyscy"""
)
STOPWORDS_EN = frozenset(_EN_WORDS.split())
STOPWORDS_RU = frozenset(_RU_WORDS.split())
STOPWORDS_PL = frozenset(_PL_WORDS.split())
# Negations ("not", "не", "nie") are stopwords here on purpose: polarity is checked separately
# (``polarity.py``), so "I eat meat" / "I don't eat meat" share their content words.
STOPWORDS = STOPWORDS_EN | STOPWORDS_RU | STOPWORDS_PL
_STOP = STOPWORDS


# One concept, several words: the price of a thing is said with "стоит", "стоимость" or
# "цена" ("Пилот стоит 150 тысяч" / "Стоимость пилота 200 тысяч"). Stems are mapped to one.
_CONCEPTS: dict[str, str] = {
    **dict.fromkeys(("стоимост", "цен", "стоил", "стоят", "cost", "price", "koszt", "kosztuj",
                     "kosztowa", "kosztow", "cen"), "сто"),
    **dict.fromkeys(("руб", "₽", "rub", "rubl", "rouble", "ruble"), "рубл"),
    **dict.fromkeys(("квартплат", "rent", "czynsz"), "аренд"),
    **dict.fromkeys(("оклад", "salari", "salary", "pensj", "wynagrodzeni"), "зарплат"),
}


def words(text: str) -> list[str]:
    """Lower-cased word and number tokens, in order."""
    return [m.group(0).lower().replace("ё", "е") for m in _WORD.finditer(text)]


def concept_stem(word: str, language: str | None = None) -> str:
    """The word's stem (``graph.stemming.stem``, the one stemmer recall uses too), with words
    of one concept ("стоимость", "цена") mapped to one; a number keeps its digits ("1,5" is
    "1.5")."""
    if _DIGIT.search(word):
        return word.replace(",", ".")
    stemmed = stem(word, language)
    return _CONCEPTS.get(stemmed, stemmed)


def content_stems(text: str, *, numbers: bool = True) -> frozenset[str]:
    """Stems of the content words (stopwords dropped); numbers kept, by value ("150 тысяч"
    and "150 000" are "150000"), unless ``numbers=False``."""
    language = language_of(text)
    out: set[str] = set()
    for word in words(canonical(text)):
        if word in _STOP:
            continue
        if _DIGIT.search(word):
            if numbers:
                out.add(concept_stem(word))
            continue
        out.add(concept_stem(word, language))
    return frozenset(out)


def jaccard(a: frozenset[str], b: frozenset[str]) -> float:
    if not a and not b:
        return 1.0
    union = a | b
    return len(a & b) / len(union) if union else 0.0


def lexical(a: str, b: str) -> float:
    """Stemmed content-word Jaccard in [0, 1]."""
    return jaccard(content_stems(a), content_stems(b))




def normalise(text: str) -> str:
    """Exact-repeat key: lower-case words joined by single spaces."""
    return " ".join(words(text))


def combined(cosine: float, lexical_score: float, *, russian: bool) -> float:
    """One similarity from the two voices.

    English: the embedding is reliable, the lexical voice only lifts it a little.
    Russian: MiniLM barely understands Cyrillic (unrelated Russian sentences score 0.4-0.6,
    paraphrases not much more), so the lexical voice leads and the cosine only breaks ties.
    The weights and the writer's threshold were picked on the pairs in
    ``tests/unit/policy/test_similarity.py`` (see docs/benchmarks.md, "write path").
    """
    if russian:
        return max(lexical_score, 0.5 * cosine + 0.5 * lexical_score)
    return max(cosine, 0.7 * cosine + 0.3 * lexical_score)


_CAPITALISED = re.compile(r"\b[A-ZА-ЯЁĄĆĘŁŃÓŚŹŻ][^\W\d_]*", re.UNICODE)
# A short lead-in before a colon at the start ("Цена изменилась:", "Update:") is a heading,
# not a name; nor are common sentence openers.
_LEAD_IN = re.compile(r"^\s*(?:[^\W\d_]+[\s,]*){1,3}:", re.UNICODE)
_OPENERS = frozenset(["кстати", "вчера", "сегодня", "завтра", "итак", "короче", "обновление", "новость", "цена", "стоимость", "апдейт", "update", "news", "today", "yesterday", "tomorrow", "btw", "also", "price", "cost", "dziś", "dzisiaj", "wczoraj", "jutro", "cena", "koszt", "aktualizacja", "obecnie"])


def names(text: str) -> frozenset[str]:
    """Stems of capitalised words that are not stopwords (people, places, products...)."""
    language = language_of(text)
    lead = _LEAD_IN.match(text)
    out: set[str] = set()
    for match in _CAPITALISED.finditer(text):
        if lead is not None and match.start() < lead.end():
            continue
        word = match.group(0).lower().replace("ё", "е")
        if word in _STOP or word in _OPENERS:
            continue
        out.add(concept_stem(word, language))
    return frozenset(out)


def different_names(a: str, b: str) -> bool:
    """A name on one side that the other text does not contain at all ("Igor" vs "Anna").

    A word capitalised only because it opens the sentence ("Живу в Москве") is not a name
    if the other text has the same word in lower case.
    """
    extra_a = names(a) - content_stems(b)
    extra_b = names(b) - content_stems(a)
    return bool(extra_a or extra_b)
