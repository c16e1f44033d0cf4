"""Disguises that need decoding, not folding: reversed text, ROT13 and other letter shifts,
letters split across lines, and Russian written in Latin letters.

Each decoder proposes a reading; a reading is kept only when it is plainly more language than
the text itself (more of its words are common Russian, English or Polish words), so an
ordinary note is never "decoded" into something else. The decoded reading is read beside the
text (``normalise``), and the disguise is named in the quarantine reason.
"""

from __future__ import annotations

import re

# words of two letters or more: a lone letter ("seat 3C", "A1B2C3", initials) shifts into a
# common word ("a", "i", "w", "в") too easily to be evidence of language
_WORD = re.compile(r"[^\W\d_]{2,}", re.UNICODE)
_LATIN_LOWER = "abcdefghijklmnopqrstuvwxyz"
_CYR_LOWER = "абвгдежзийклмнопрстуфхцчшщъыьэюя"

# Frequent words (and the stems of an agent's vocabulary) of each language: enough to tell
# language from letter soup, no more.
_COMMON_WORDS = """
the and you your to of a is are all from now on in it be this that for with not do any
always never answer reply tell send user ignore previous instructions rules forget my me i
we will must should what when if as by at or but so an have has
и в не на я ты вы что с по все всё как это он она они мы его её к у же от за из ну то
так но да нет ли бы только теперь всегда никогда свои твои мне меня тебе тебя отвечай
пиши скажи забудь игнорируй инструкции правила пароль пароли пользователю ассистент
i w nie na się że jest to z do a o jak co ty tak ale od po za czy ja mnie twoje wszystkie
zawsze nigdy teraz odpowiadaj zignoruj instrukcje zasady hasło użytkownikowi
"""
_COMMON = frozenset(_COMMON_WORDS.split())
_STEMS = ("игнор", "инструкц", "правил", "отвеча", "парол", "ассистент", "предыдущ", "забуд",
          "ignor", "instruc", "instrukc", "previous", "password", "assistant", "odpowiad")

# Russian in Latin letters (the usual transliterations), longest first.
_TRANSLIT = (("shch", "щ"), ("sch", "щ"), ("zh", "ж"), ("kh", "х"), ("ts", "ц"), ("ch", "ч"),
             ("sh", "ш"), ("yu", "ю"), ("ya", "я"), ("yo", "ё"), ("ye", "е"), ("iy", "ий"),
             ("yy", "ый"), ("ay", "ай"), ("oy", "ой"), ("uy", "уй"), ("ey", "ей"), ("'", "ь"),
             ("a", "а"), ("b", "б"), ("v", "в"), ("g", "г"), ("d", "д"), ("e", "е"), ("z", "з"),
             ("i", "и"), ("j", "й"), ("k", "к"), ("l", "л"), ("m", "м"), ("n", "н"), ("o", "о"),
             ("p", "п"), ("r", "р"), ("s", "с"), ("t", "т"), ("u", "у"), ("f", "ф"), ("h", "х"),
             ("c", "ц"), ("w", "в"), ("x", "кс"), ("y", "ы"), ("q", "к"))
_TRANSLIT_RE = re.compile("|".join(re.escape(a) for a, _ in _TRANSLIT))
_TRANSLIT_MAP = dict(_TRANSLIT)


# A long text's candidate readings are ranked on three slices of this many characters.
SAMPLE = 200


def language_share(text: str) -> float:
    """The share of ``text``'s words that are common words (or an agent's vocabulary)."""
    words: list[str] = [w.casefold() for w in _WORD.findall(text)]
    if not words:
        return 0.0
    known = sum(1 for w in words if w in _COMMON or (len(w) >= 5 and w.startswith(_STEMS)))
    return float(known) / len(words)


def _shift(text: str, n: int, alphabet: str) -> str:
    shifted = alphabet[n:] + alphabet[:n]
    return text.translate(str.maketrans(alphabet + alphabet.upper(), shifted + shifted.upper()))


def _translit(text: str) -> str:
    def word(m: re.Match[str]) -> str:
        w = m.group(0)
        out = _TRANSLIT_RE.sub(lambda t: _TRANSLIT_MAP[t.group(0)], w.lower())
        return out.capitalize() if w[:1].isupper() else out
    return re.sub(r"[A-Za-z']+", word, text)


def join_columns(text: str) -> str | None:
    """Letters written one (or a few) a line joined into words (an empty line between words is
    a space); None when no column of at least four such lines is there."""
    lines = text.split("\n")
    out: list[str] = []
    run: list[str] = []
    joined = False

    def flush() -> None:
        nonlocal joined
        filled = [p for p in run if p]
        if len(filled) >= 4 and sum(len(p) == 1 for p in filled) * 2 >= len(filled):
            out.append(re.sub(r" +", " ", "".join(p or " " for p in run)).strip())
            joined = True
        else:
            out.extend(run)
        run.clear()

    for line in lines:
        part = line.strip()
        if len(part) <= 3 and " " not in part:
            run.append(part)
        else:
            flush()
            out.append(line)
    flush()
    return "\n".join(out) if joined else None


def decodings(text: str) -> list[tuple[str, str]]:
    """(disguise, decoded text) for each reading that is plainly more language than ``text``."""
    words = _WORD.findall(text)
    if len(words) < 3:
        return []
    base = language_share(text)
    if base >= 0.45:
        return []  # already reads as language
    found: list[tuple[str, str]] = []
    candidates: list[tuple[str, str]] = [("reversed text", text[::-1]),
                                         ("words spelled backwards", re.sub(r"\w+", lambda m: m.group(0)[::-1], text))]
    latin = sum(c.isascii() and c.isalpha() for c in text)
    cyr = sum("\u0400" <= c <= "\u04ff" for c in text)
    if latin > cyr:
        candidates += [("ROT13" if n == 13 else f"letters shifted by {26 - n}", _shift(text, n, _LATIN_LOWER))
                       for n in range(1, 26)]
        candidates.append(("Russian in Latin letters", _translit(text)))
    elif cyr:
        candidates += [(f"letters shifted by {32 - n}", _shift(text, n, _CYR_LOWER)) for n in range(1, 32)]
    best: tuple[float, str, str] | None = None
    for name, reading in _likeliest(candidates, text):
        share = language_share(reading)
        if share >= 0.3 and share >= base + 0.2 and (best is None or share > best[0]):
            best = (share, name, reading)
    if best is not None:
        found.append((best[1], best[2]))
    return found


def _likeliest(candidates: list[tuple[str, str]], text: str) -> list[tuple[str, str]]:
    """The candidate readings worth reading whole: for a long text, the three whose slices
    (start, middle, end; ``SAMPLE`` characters each) read most like language. Reading 27 shifts
    of a 2,000-character piece whole cost more than the rest of the quarantine together on a
    LongMemEval history (docs/benchmarks.md, "Writing a long history: where the rest goes")."""
    if len(text) <= 3 * SAMPLE:
        return candidates
    mid = len(text) // 2 - SAMPLE // 2
    spans = ((0, SAMPLE), (mid, mid + SAMPLE), (len(text) - SAMPLE, len(text)))

    def sampled(reading: str) -> float:
        # a reversal maps the text's end to the reading's start: the same three slices
        return language_share(" ".join(reading[a:b] for a, b in spans))
    return sorted(candidates, key=lambda c: sampled(c[1]), reverse=True)[:3]
