"""What people type at the edges (CLI, bot): user ids made one per person, and text checked.

Every edge that takes a user id from a person (the CLI's ``--user``, ``DEFAULT_USER``) passes
it through ``normalise_user_id``: surrounding spaces go, the text is put in Unicode NFC (so
"Алёна" typed with a composed "ё" and with "е" plus a combining diaeresis is one person), and
an id that is empty, too long, not valid UTF-8 (a terminal in another encoding hands Python
lone surrogates) or holding control characters is refused with one line. The bot's ids
(``tg-<number>``) are plain already.

A text longer than one record holds (a forwarded article, an imported chat turn) is not
refused: ``pieces`` cuts it at paragraph, then sentence, then word boundaries into pieces of
about even length, each short enough for one record and for the embedding model to read whole.

File names made from ids go through ``episodes.paths.safe_user_dir`` (blocks, episodes,
snapshots) or ``export_stem`` (``wave export``): plain ids stay as they are, anything else
gets a hash of the whole id, so two ids never share a file.
"""

from __future__ import annotations

import hashlib
import re
import unicodedata

from wave_agent.errors import Refused

MAX_USER_ID_CHARS = 64
# A piece of a long text: e5 reads 512 tokens, about 1,500 characters of Russian or English
# prose; a piece longer than that would be embedded by its beginning only.
PIECE_CHARS = 1_200

_PARAGRAPH = re.compile(r"\n\s*\n")
_SENTENCE = re.compile(r"(?<=[.!?…])\s+|\n")
_EXPORT_PLAIN = re.compile(r"[\w-]{1,64}")  # letters of any script, digits, _ and -
_EXPORT_UNSAFE = re.compile(r"[^\w-]+")


class BadUserId(Refused):
    """A user id that cannot name a person's memory."""


class BadInput(Refused):
    """Text from a person that Wave cannot read (not UTF-8)."""


def not_utf8(text: str) -> bool:
    """True when ``text`` holds lone surrogates: bytes that were not UTF-8 (argv, stdin)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False


def refuse_not_utf8(text: str, what: str) -> str:
    """``text`` unchanged, or ``BadInput`` naming ``what`` when it is not valid UTF-8."""
    if not_utf8(text):
        raise BadInput(f"{what} is not valid UTF-8 text", next_step=(
            "retype it in a UTF-8 terminal (check `locale`), or convert a file with "
            "`iconv -t UTF-8`"))
    return text


def normalise_user_id(raw: str, *, source: str = "--user") -> str:
    """The one spelling of ``raw`` Wave stores memory under, or ``BadUserId`` naming ``source``."""
    example = "DEFAULT_USER=alena" if source == "DEFAULT_USER" else f"{source} alena"
    fix = f"give {source} a name or a number, e.g. {example}"
    if not_utf8(raw):
        raise BadUserId(f"{source} is not valid UTF-8 text", next_step=(
            "type the id again in a UTF-8 terminal (check `locale`), or use plain letters "
            "and digits"))
    user_id = unicodedata.normalize("NFC", raw.strip())
    if not user_id:
        raise BadUserId(f"{source} is empty", next_step=fix)
    if len(user_id) > MAX_USER_ID_CHARS:
        raise BadUserId(f"{source} is {len(user_id)} characters long; the limit is "
                        f"{MAX_USER_ID_CHARS}", next_step="use a shorter id")
    if any(unicodedata.category(c) in {"Cc", "Cs", "Cn"} for c in user_id):
        raise BadUserId(f"{source} holds control or unassigned characters",
                        next_step="use printable letters, digits and punctuation")
    return user_id


def export_stem(user_id: str) -> str:
    """A file-name stem for ``user_id`` that no other id shares and that stays in its folder.

    An id of letters (any script), digits, ``_`` and ``-`` is used as it is (``local``,
    ``tg-123``, ``Алёна``); any other gets its cleaned prefix, a dot and a hash of the whole
    id (plain stems never hold a dot, so the two forms cannot meet).
    """
    if _EXPORT_PLAIN.fullmatch(user_id) and unicodedata.is_normalized("NFC", user_id):
        return user_id
    cleaned = _EXPORT_UNSAFE.sub("_", user_id).strip("_")[:32] or "user"
    digest = hashlib.sha256(user_id.encode("utf-8", "surrogatepass")).hexdigest()[:16]
    return f"{cleaned}.{digest}"



def is_loopback(host: str) -> bool:
    """True for an address only this machine reaches (the MCP server's and the page's check
    before they listen without a secret)."""
    import ipaddress

    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def pieces(text: str, limit: int, target: int = PIECE_CHARS) -> list[str]:
    """``text`` as it is when it fits in ``limit`` characters; otherwise cut into pieces of
    about ``target`` characters (at most ``limit``), at paragraph breaks where it can, then at
    sentence ends, then between words; only a word longer than ``limit`` is cut inside.
    Joined with single spaces the pieces say what the text says: nothing dropped or repeated."""
    text = text.strip()
    if len(text) <= limit:
        return [text]
    count = -(-len(text) // min(target, limit))
    size = min(limit, -(-len(text) // count))  # even pieces, none over the limit

    def units(part: str, level: int) -> list[str]:
        """``part`` in pieces no longer than ``limit``, cut at the ``level``-th boundary."""
        if len(part) <= limit:
            return [part]
        if level == 0:
            found = [p.strip() for p in _PARAGRAPH.split(part)]
        elif level == 1:
            found = [p.strip() for p in _SENTENCE.split(part)]
        elif level == 2:
            found = part.split()
        else:
            return [part[i:i + limit] for i in range(0, len(part), limit)]
        found = [p for p in found if p]
        if len(found) <= 1:
            return units(part, level + 1)
        return [u for p in found for u in units(p, level + 1)]

    out: list[str] = []
    current = ""
    for unit in units(text, 0):
        joined = f"{current} {unit}" if current else unit
        if current and len(joined) > size:
            out.append(current)
            current = unit
        else:
            current = joined
        while len(current) > limit:  # only a unit cut inside a word can get here
            out.append(current[:limit])
            current = current[limit:]
    if current:
        out.append(current)
    return out
