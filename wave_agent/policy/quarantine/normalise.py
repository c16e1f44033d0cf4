"""Layer 1 of quarantine: the text as an agent would read it, whatever its disguise.

NFKC (full-width letters, ligatures), zero-width and soft-hyphen removal, mixed-script words
folded to their main script (a Latin "o" inside Russian "Игнорируй"), leetspeak digits inside
words, letters spaced or dotted apart joined, base64-looking runs decoded, and the bodies of
HTML comments, hidden elements and markdown comments read as ordinary text; words broken
across lines with a hyphen and letters written down a column joined, and reversed, letter-shifted (ROT13, Caesar) or transliterated text
decoded (``decode``) and read beside the text. ``notes`` names each disguise found: a disguise
is itself a reason to read the text with suspicion.

A speaker label at a line start ("user:", "assistant:", "Пользователь:") only says who spoke
in a chat history; it is dropped, and what was said is read like any other text.
"""

from __future__ import annotations

import base64
import binascii
import re
import unicodedata
from dataclasses import dataclass

from wave_agent.policy.quarantine import decode

_INVISIBLE = re.compile("[\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180b-\u180e\u200b-\u200f"
                        "\u202a-\u202e\u2060-\u206f\u3164\ufe00-\ufe0f\ufeff\uffa0]")
_LAT_TO_CYR = str.maketrans("aceopxyiAEKMHOPCTBXI", "асеорхуіАЕКМНОРСТВХІ")
_CYR_TO_LAT = str.maketrans("аеорсухіАЕКМНОРСТВХІ", "aeopcyxiAEKMHOPCTBXI")
_LEET_LAT = str.maketrans("013457", "oieast")
_LEET_CYR = str.maketrans("0346", "озач")
_WORD = re.compile(r"\w+", re.UNICODE)
_UNIT = re.compile(r"\d+(?:st|nd|rd|th|am|pm|k|m|g|kg|km|cm|mm|ml|l|gb|mb|tb|x|s|d|h|р|к|м|г|кг|км|см|мм|мл|л|гб|мб"
                   r"|тыс|руб|zł|zl|e|x)", re.IGNORECASE)
# single letters separated by a space, a dot or a hyphen, the dot or hyphen with a space either
# side or not ("I g n", "I.g.n", "I - G - N", "Z. A. P."), at least four of them (digits among
# them only as leetspeak: a run of mostly digits is a phone, a PIN, a date or an address)
# the same separator all along the run: "в п. 4 и 6" mixes them and is a reference, not a word
_SPACED = re.compile(r"(?<![\w])\w(?P<sep> ?[.\-\u00b7] ?| )(?:\w(?P=sep)){2,}\w(?![\w])", re.UNICODE)
# once a text spells words apart, its short words too ("A - N - D", "T. O"), a dot or hyphen apart
_SPACED_SHORT = re.compile(r"(?<![\w])\w(?P<sep> ?[.\-\u00b7] ?)(?:\w(?P=sep))?\w(?![\w])", re.UNICODE)
# and, when it spells words a space apart with a wider gap between them ("a s s i s t a n t  a l l"),
# its two- and three-letter words written so as well: "a l l", "s a y" between two such gaps
_SPACED_SHORT_WIDE = re.compile(r"(?<!\w)(?<!\w )[^\W\d_](?: [^\W\d_]){1,2}(?=\s\s|$)", re.UNICODE | re.MULTILINE)
# a word gap written as a separator between dots ("б.о.т.-.у.д.а.л.и"): a space
_DOTTED_GAP = re.compile(r"(?<=\w)\.[-_/|]\.(?=\w)", re.UNICODE)
# a word broken across lines with a hyphen, its rest in lower case on the next line ("Dz-\niękuj-\nemy",
# "Asy-\nstencie"): joined when a text breaks at least two words so (one is a hyphenated line end)
_BROKEN = re.compile(r"(?<=[^\W\d_])-[ \t]*\n[ \t]*(?=[a-zа-яёąćęłńóśźżäöüß])", re.UNICODE)
_SYLLABLES = re.compile(r"\b(?:[^\W\d_]{1,6}-){2,}[^\W\d_]{1,6}\b", re.UNICODE)  # letters: not "111-22-33"
# a run may follow "=" ("meta=QXN5…": a config value), not another base64 character
_B64 = re.compile(r"(?<![A-Za-z0-9+/])[A-Za-z0-9+/]{16,}={0,2}(?![A-Za-z0-9+/=])")
_COMMENT = re.compile(r"<!--(.*?)(?:-->|$)", re.DOTALL)
_MD_COMMENT = re.compile(r"^\s*\[(?://|comment|\s*)\]:\s*#\s*[(\"'](.*?)[)\"']\s*$", re.MULTILINE)
_HIDDEN = re.compile(r"<(\w+)[^>]*(?:display\s*:\s*none|font-size\s*:\s*0|visibility\s*:\s*hidden"
                     r"|\bhidden\b|opacity\s*:\s*0)[^>]*>", re.IGNORECASE)
_TAG = re.compile(r"</?[a-zA-Z][^<>]{0,200}>")
_FENCE = re.compile(r"```\w*")
_SPEAKER = re.compile(r"^[ \t]*(?:user|assistant|human|ai|me|пользователь|ассистент|я|użytkownik|asystent)[ \t]*:[ \t]*",
                      re.IGNORECASE | re.MULTILINE)


@dataclass(frozen=True, slots=True)
class Normalised:
    text: str  # what the rules and the classifier read
    notes: tuple[str, ...]  # disguises found, e.g. "zero-width characters"


def _is_cyr(ch: str) -> bool:
    return "\u0400" <= ch <= "\u04ff"


def _fold_word(word: str) -> str:
    letters = [c for c in word if c.isalpha()]
    cyr = sum(_is_cyr(c) for c in letters)
    lat = sum(c.isascii() for c in letters)
    if not (cyr and lat):
        return word
    only_cyr = any(_is_cyr(c) and c.translate(_CYR_TO_LAT) == c for c in letters)
    only_lat = any(c.isascii() and c.translate(_LAT_TO_CYR) == c for c in letters)
    if only_cyr != only_lat:
        return word.translate(_LAT_TO_CYR) if only_cyr else word.translate(_CYR_TO_LAT)
    return word.translate(_LAT_TO_CYR) if cyr >= lat else word.translate(_CYR_TO_LAT)


def _leet_word(word: str) -> str:
    letters = sum(c.isalpha() for c in word)
    digits = sum(c.isdigit() for c in word)
    if not digits or not letters or len(word) < 2:
        return word
    if _UNIT.fullmatch(word) or re.fullmatch(r"[^\W\d_]+\d+", word):
        return word  # 5th, 10pm, 47К, base64, mp3: numbers with a unit or a name, not leetspeak
    cyr = any(_is_cyr(c) for c in word)
    table = _LEET_CYR if cyr else _LEET_LAT
    read = word.lower().translate(table)
    if any(c.isdigit() for c in read) or (letters < 3 and not decode.is_known(read)):
        return word  # a code, a seat, a flat: "12A", "4к2", "A1B2C3" (a digit no letter looks like)
    return read


def _numeric(run: str) -> bool:
    """Whether a run of single characters is a number written apart, not letters: no more
    letters than digits ("8 9 1 2", "1.2.3.4", "A-7-B-9")."""
    return sum(c.isalpha() for c in run) <= sum(c.isdigit() for c in run)


def _decode_b64(run: str) -> str | None:
    if not re.search(r"[A-Z]", run) or not re.search(r"[a-z]", run) or len(run) % 4 == 1:
        return None
    try:
        raw = base64.b64decode(run + "=" * (-len(run) % 4), validate=True)
        decoded = raw.decode("utf-8")
    except (binascii.Error, ValueError):
        return None
    letters = sum(c.isalpha() or c.isspace() for c in decoded)
    if len(decoded) < 8 or letters < 0.8 * len(decoded) or " " not in decoded:
        return None
    return decoded


def normalise(text: str) -> Normalised:
    notes: list[str] = []
    out = unicodedata.normalize("NFKC", text)
    if out != unicodedata.normalize("NFC", text) and any(
            "\uff01" <= c <= "\uff5e" for c in text):
        notes.append("full-width letters")
    stripped = _INVISIBLE.sub("", out)
    if stripped != out:
        notes.append("zero-width characters")
        out = stripped
    out = _SPEAKER.sub("", out)
    if len(_BROKEN.findall(out)) >= 2:
        notes.append("words broken across lines")
        out = _BROKEN.sub("", out)
    column = decode.join_columns(out)
    if column is not None:
        notes.append("letters split across lines")
        out = column
    # comment and hidden-markup bodies become sentences of their own
    if _COMMENT.search(out):
        notes.append("an HTML comment")
        out = _COMMENT.sub(lambda m: ". " + m.group(1).strip() + ". ", out)
    if _MD_COMMENT.search(out):
        notes.append("a markdown comment")
        out = _MD_COMMENT.sub(lambda m: ". " + m.group(1).strip() + ". ", out)
    if _HIDDEN.search(out):
        notes.append("hidden markup")
    if _TAG.search(out):
        out = _TAG.sub(" . ", out)
    out = _FENCE.sub(" . ", out)
    # base64-looking runs decoded and read alongside
    decoded: list[str] = []
    for run in _B64.findall(out):
        plain = _decode_b64(run)
        if plain is not None:
            decoded.append(plain)
    if decoded:
        notes.append("base64 text")
        out = _B64.sub(lambda m: (_decode_b64(m.group(0)) or m.group(0)) + ". ", out)
    # spaced or dotted letters joined ("I g n o r e", "И.г.н.о.р.и.р.у.й")
    if _SPACED.search(out):
        wide = bool(re.search(r"(?<![^\W\d_])[^\W\d_](?: [^\W\d_]){3,}  +[^\W\d_] [^\W\d_]", out))
        if wide:
            out = _SPACED_SHORT_WIDE.sub(lambda m: m.group(0).replace(" ", ""), out)
        out = _DOTTED_GAP.sub(" ", out)
        joined = _SPACED.sub(lambda m: m.group(0) if _numeric(m.group(0))
                             else re.sub(r"[ .\-\u00b7]", "", m.group(0)), out)
        if joined != out:
            notes.append("letters spaced apart")
            joined = _SPACED_SHORT.sub(lambda m: m.group(0) if _numeric(m.group(0))
                                       else re.sub(r"[ .\-\u00b7]", "", m.group(0)), joined)
            out = re.sub(r" {2,}", " ", joined)
    # syllables split by hyphens ("Иг-но-ри-руй")
    def _syll(m: re.Match[str]) -> str:
        return m.group(0).replace("-", "") if m.group(0).count("-") >= 2 else m.group(0)
    syllabled = _SYLLABLES.sub(_syll, out)
    if syllabled != out:
        notes.append("hyphenated syllables")
        out = syllabled
    # reversed, shifted or transliterated text: the decoded reading is read beside the text
    for disguise, reading in decode.decodings(out):
        notes.append(disguise)
        out = out + "\n" + reading
    # mixed-script words and leetspeak
    folded = _WORD.sub(lambda m: _fold_word(m.group(0)), out)
    if folded != out:
        notes.append("mixed-script letters")
        out = folded
    leet = _WORD.sub(lambda m: _leet_word(m.group(0)), out)
    if leet != out:
        notes.append("digits for letters")
        out = leet
    out = re.sub(r"[ \t]+", " ", out).strip()
    return Normalised(out, tuple(notes))
