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
# the alphabet with ё: a text that writes ё was shifted in it ("бесёт" is "адрес" moved by one)
_CYR_YO = "абвгдеёжзийклмнопрстуфхцчшщъыьэюя"

# Frequent words (and the stems of an agent's vocabulary) of each language: enough to tell
# language from letter soup, no more.
_COMMON_WORDS = """
the and you your to of a is are all from now on in it be this that for with not do any
always never answer reply tell send user ignore previous instructions rules forget my me i
we will must should what when if as by at or but so an have has
bot ai his her their our us can just then than about after out up no yes there delete remove
save remember owner
и в не на я ты вы что с по все всё как это он она они мы его её к у же от за из ну то
так но да нет ли бы только теперь всегда никогда свои твои мне меня тебе тебя отвечай
пиши скажи забудь игнорируй инструкции правила пароль пароли пользователю ассистент
из для до об бот помощник удали отправь перешли запомни сохрани этот эту мой твой если когда
уже ещё еще есть можно нужно надо всех всем
i w nie na się że jest to z do a o jak co ty tak ale od po za czy ja mnie twoje wszystkie
zawsze nigdy teraz odpowiadaj zignoruj instrukcje zasady hasło użytkownikowi
dla przez już tylko ten ta te mój jego jej ich usuń wyślij zapisz pamiętaj
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


def _known(text: str) -> int:
    words = [w.casefold() for w in _WORD.findall(text)]
    return sum(1 for w in words if w in _COMMON or (len(w) >= 5 and w.startswith(_STEMS)))


def _table(n: int, alphabet: str) -> dict[int, int]:
    shifted = alphabet[n:] + alphabet[:n]
    return str.maketrans(alphabet + alphabet.upper(), shifted + shifted.upper())


_TABLES = {(n, alphabet): _table(n, alphabet) for alphabet in (_LATIN_LOWER, _CYR_LOWER, _CYR_YO)
           for n in range(1, len(alphabet))}


def _shift(text: str, n: int, alphabet: str) -> str:
    return text.translate(_TABLES[(n, alphabet)])


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


# where a reversed part may start or end inside a text that is otherwise written forwards
_PARTS = re.compile(r"[\n():;\"«»]+")


def decodings(text: str) -> list[tuple[str, str]]:
    """(disguise, decoded text) for each reading that is plainly more language than ``text``;
    when the whole text has none, each part of it (between line breaks, colons, brackets and
    quotes) is tried for a reversal: one line written backwards in a note written forwards."""
    found = _decodings(text)
    if found:
        return found
    pieces = _PARTS.split(text)
    if len(pieces) < 2:
        return []  # one part: the whole text, read above
    # a part of at least four words of three letters or more: a phrase, not a list of codes ("No4, No11")
    for part in (p for p in pieces if sum(len(w) >= 3 for w in _WORD.findall(p)) >= 4):
        found += _decodings(part, shifts=False)
    return found[:1]


def _decodings(text: str, shifts: bool = True) -> list[tuple[str, str]]:
    words = _WORD.findall(text)
    if len(words) < 3:
        return []
    base = language_share(text)
    if base >= 0.45:
        return []  # already reads as language
    found: list[tuple[str, str]] = []
    candidates: list[tuple[str, str]] = [("reversed text", text[::-1]),
                                         ("words spelled backwards", re.sub(r"\w+", lambda m: m.group(0)[::-1], text))]
    if not shifts:  # a part of a text: reversal, and a shift when the part is short
        # and at least three more common words than the part as written: a short list line
        # ("no screens after 8") reverses into one ("on") and no more
        share, name, reading = max(((language_share(r), n, r) for n, r in candidates), key=lambda c: c[0])  # ties: reversed
        gained = _known(reading) - _known(text)
        if share >= 0.3 and share >= base + 0.2 and gained >= 3:
            return [(name, reading)]
        if len(text) > 3 * SAMPLE:
            return []  # shifts of every long part would cost more than they find
        # a shifted part in a note written plainly ("сдвиг на 1: рпнпъойл пурсбгэ …"): two more
        # common words of three letters or more than the part as written, at least
        read = _best_short(text, words, base, [], _shifts(text), _latin(text))
        if read and read[0][0] != "Russian in Latin letters" and _long_known(read[0][1]) - _long_known(text) >= 2:
            return read
        return []
    shifted = _shifts(text)
    if len(text) <= 3 * SAMPLE:  # every reading read whole: the shifts' shares from the words alone
        return _best_short(text, words, base, candidates, shifted, _latin(text))
    candidates += [(name, _shift(text, n, alphabet)) for name, n, alphabet in shifted]
    if _latin(text):
        candidates.append(("Russian in Latin letters", _translit(text)))
    best: tuple[float, str, str] | None = None
    for name, reading in _likeliest(candidates, text):
        share = language_share(reading)
        if share >= 0.3 and share >= base + 0.2 and (best is None or share > best[0]):
            best = (share, name, reading)
    if best is not None:
        found.append((best[1], best[2]))
    return found


def _latin(text: str) -> bool:
    latin = sum(c.isascii() and c.isalpha() for c in text)
    cyr = sum("\u0400" <= c <= "\u04ff" for c in text)
    return latin > cyr


def _long_known(text: str) -> int:
    return sum(1 for w in _WORD.findall(text) if len(w) >= 3 and is_known(w.casefold()))


def _shifts(text: str) -> list[tuple[str, int, str]]:
    """(name, shift, alphabet) of every letter shift of ``text``'s main script."""
    latin = sum(c.isascii() and c.isalpha() for c in text)
    cyr = sum("\u0400" <= c <= "\u04ff" for c in text)
    shifted: list[tuple[str, int, str]] = []
    if latin > cyr:
        shifted = [("ROT13" if n == 13 else f"letters shifted by {26 - n}", n, _LATIN_LOWER) for n in range(1, 26)]
    elif cyr:
        alphabet = _CYR_YO if "ё" in text.casefold() else _CYR_LOWER
        size = len(alphabet)
        shifted = [(f"letters shifted by {size - n}", n, alphabet) for n in range(1, size)]
    return shifted


def _best_short(text: str, words: list[str], base: float, candidates: list[tuple[str, str]],
                shifted: list[tuple[str, int, str]], latin: bool) -> list[tuple[str, str]]:
    """``_decodings``' choice for a short text, the same as reading each shift whole: a shift
    maps letters to letters, so its reading's words are the text's words shifted and its share
    is counted on the text's distinct words (a chat turn's 27 shifts cost a third of the
    check on LoCoMo's turns read whole; docs/benchmarks.md, "The floor of the phrase list")."""
    counts: dict[str, int] = {}
    for w in words:
        counts[w] = counts.get(w, 0) + 1

    distinct = list(counts.items())

    def share_shifted(n: int, alphabet: str) -> float:
        table = _TABLES[(n, alphabet)]
        known = sum(c for w, c in distinct if is_known(w.translate(table).casefold()))
        return float(known) / len(words)

    # (name, share, the shift that reads it or the reading itself), in the order readings are compared
    scored: list[tuple[str, float, tuple[int, str] | str]] = [
        (name, language_share(reading), reading) for name, reading in candidates]
    scored += [(name, share_shifted(n, alphabet), (n, alphabet)) for name, n, alphabet in shifted]
    if latin:
        reading = _translit(text)
        scored.append(("Russian in Latin letters", language_share(reading), reading))
    best: tuple[float, str, tuple[int, str] | str] | None = None
    for name, share, read in scored:
        if share >= 0.3 and share >= base + 0.2 and (best is None or share > best[0]):
            best = (share, name, read)
    if best is None:
        return []
    read = best[2]
    return [(best[1], read if isinstance(read, str) else _shift(text, *read))]


def is_known(word: str) -> bool:
    """Whether ``word`` (case-folded) is a common word or an agent's vocabulary."""
    return word in _COMMON or (len(word) >= 5 and word.startswith(_STEMS))


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
