"""Words, stems and name keys for entity resolution and full-text queries (pure, no I/O).

Russian inflects names ("Игорь", "Игорем", "с Игорем"), so an entity is found by three keys:
its exact normalised name, its aliases, and the snowball stems of the words of either
(``graph.stemming``: Cyrillic words with the Russian stemmer; Latin ones with the English one,
``KEY_LANGUAGE``, the stemmer every stored key was made with). Short function words
(prepositions, conjunctions, articles) are dropped from stem keys, so "с Игорем" and "Игорь"
share the key ``игор``.
"""

from __future__ import annotations

import hashlib
import re
import unicodedata
from collections.abc import Iterable, Sequence

from graph.stemming import stem

_WORD = re.compile(r"\w+", re.UNICODE)
_CYRILLIC = re.compile(r"[\u0400-\u04ff]")

# Words that never identify an entity on their own; dropped from stem keys and text grams.
_FUNCTION_WORDS_TEXT = """
    а без в во для до за и из или к ко на над не ни о об обо от по под при про с со у же ли бы
    я ты он она оно мы вы они мне меня мной тебе тебя его ее её им их нам нас вам вас это этот
    a an and at by for from in into of on or the to with about my me i you he she it we they
"""
FUNCTION_WORDS = frozenset(_FUNCTION_WORDS_TEXT.split())

# Stem keys are stored (``Entity.stem_key``): Latin words keep the English stemmer the keys
# were first made with, whatever the sentence's language, so a name's key never changes.
KEY_LANGUAGE = "english"

MAX_GRAM = 4          # longest entity name, in words, that entities_in_text can spot
MAX_QUERY_WORDS = 64  # a full-text query keeps at most this many distinct words


def normalise(text: str) -> str:
    """Case- and form-folded text: NFKC, lower case, ``ё`` as ``е``, single spaces."""
    folded = unicodedata.normalize("NFKC", text).casefold().replace("ё", "е")
    return " ".join(folded.split())


def words(text: str) -> list[str]:
    """The normalised words of ``text`` (letters and digits; punctuation is a separator)."""
    return _WORD.findall(normalise(text))


def content_stems(text: str, language: str | None = KEY_LANGUAGE) -> list[str]:
    """Stems of the words of ``text`` without function words, in order. ``language``: the
    stemmer for Latin words (``graph.stemming.stem``); entity keys keep ``KEY_LANGUAGE``,
    recall passes the text's own (``graph.stemming.language_of``)."""
    return [stem(w, language) for w in words(text) if w not in FUNCTION_WORDS]


def stem_key(name: str) -> str:
    """The stem key of a name: its content stems joined by a space ("" when there are none)."""
    return " ".join(content_stems(name))


def name_key(name: str) -> str:
    """The exact-match key of a name: its normalised words joined by a space."""
    return " ".join(words(name))


def clean_name(name: str) -> str:
    """A display name without leading function words ("с Игорем" -> "Игорем")."""
    parts = " ".join(name.split()).split(" ")
    while len(parts) > 1 and normalise(parts[0]) in FUNCTION_WORDS:
        parts.pop(0)
    return " ".join(parts).strip()


def entity_keys(name: str, aliases: Iterable[str] = ()) -> tuple[list[str], list[str]]:
    """(exact keys, stem keys) of a name and its aliases, deduplicated, empties dropped."""
    exact: list[str] = []
    stems: list[str] = []
    for value in (name, *aliases):
        key = name_key(value)
        if key and key not in exact:
            exact.append(key)
        skey = stem_key(value)
        if skey and skey not in stems:
            stems.append(skey)
    return exact, stems


def text_grams(text: str, max_gram: int = MAX_GRAM) -> dict[str, int]:
    """Every run of 1..max_gram consecutive content stems of ``text`` -> its first position.

    Function words break nothing: they are removed before the runs are formed, so the grams
    line up with ``stem_key`` of a multi-word name ("Банк of England" -> "банк england").
    """
    stems = content_stems(text)
    grams: dict[str, int] = {}
    for start in range(len(stems)):
        for size in range(1, max_gram + 1):
            if start + size > len(stems):
                break
            if size == 1 and len(stems[start]) < 2:
                continue  # a lone letter names nothing
            grams.setdefault(" ".join(stems[start : start + size]), start)
    return grams


def lucene_terms(text: str, limit: int = MAX_QUERY_WORDS) -> list[str]:
    """The distinct words of user text, safe to place in a Lucene query.

    Only letters, digits and underscore survive (``\\w+``), lower-cased, so no Lucene syntax
    (``AND OR NOT + - ! ( ) { } [ ] ^ " ~ * ? : \\ /``) can reach the parser.
    """
    seen: list[str] = []
    for word in words(text):
        if word not in seen:
            seen.append(word)
        if len(seen) >= limit:
            break
    return seen


_LATIN = re.compile(r"[a-z]")


def scripts(terms: Iterable[str]) -> set[str]:
    """Which of "cyrillic" and "latin" the (normalised) words are written in."""
    found: set[str] = set()
    for term in terms:
        if _CYRILLIC.search(term):
            found.add("cyrillic")
        if _LATIN.search(term):
            found.add("latin")
    return found


def scope_token(user_id: str) -> str:
    """A single Lucene token standing for the user, indexed beside the fact text.

    Letters-then-digits only, so every analyzer keeps it whole and unstemmed; full-text
    queries require it, which scopes them to the user inside the index, before any limit.
    """
    digest = hashlib.sha256(user_id.encode("utf-8")).hexdigest()[:24]
    return "u" + str(int(digest, 16))


PREFIX_MIN = 4       # shortest stem widened into a prefix query
PREFIX_BOOST = "0.3"  # a prefix hit counts for less than a matching stem


def stem_prefixes(terms: Iterable[str]) -> list[str]:
    """Snowball stems of the Cyrillic terms, to match as prefixes of the indexed stems.

    Russian snowball stems a noun and its verb or plural differently ("работа" -> "работ",
    "работаю" -> "работа"; "кроссовок" / "кроссовки" -> "кроссовк"); the index holds such
    stems, so the query's stem as a prefix finds the other forms. Only letters survive.
    """
    prefixes: list[str] = []
    for term in terms:
        if not _CYRILLIC.search(term):
            continue
        root = stem(term, "russian")
        if len(root) >= PREFIX_MIN and root.isalpha() and root not in prefixes:
            prefixes.append(root)
    return prefixes


def lucene_query(
    user_id: str, text: str, statuses: Sequence[str], *, prefixes: bool = False
) -> str | None:
    """The Lucene query for a user's full-text search, or None when ``text`` has no words.

    ``prefixes`` adds each Cyrillic stem as a low-weight prefix query (``stem_prefixes``).
    """
    terms = lucene_terms(text)
    if not terms or not statuses:
        return None
    status_clause = " ".join(statuses)  # enum values: plain lower-case words
    widened = [f"{root}*^{PREFIX_BOOST}" for root in stem_prefixes(terms)] if prefixes else []
    return (
        f"+scope:{scope_token(user_id)}^0 +status:({status_clause})^0 "
        f"+text:({' '.join(terms + widened)})"
    )
