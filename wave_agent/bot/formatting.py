"""Telegram text: HTML escaping and splitting below the 4,096-character message limit.

Telegram counts a message's length in UTF-16 code units after entity parsing. We measure the
raw text we send (tags included, UTF-16), which is never less than what Telegram counts, and
keep a margin, so a chunk is never refused for length.

Splitting prefers, in order: a paragraph break, a line break, a space, and only then a hard cut
(a single word longer than a chunk). In HTML it never cuts inside a tag or an entity (``&amp;``),
and tags open at the cut are closed at the end of the chunk and reopened at the start of the
next, so every chunk is valid HTML on its own.
"""

from __future__ import annotations

import html
import re
from typing import Literal

TELEGRAM_LIMIT = 4096
DEFAULT_CHUNK = 4000  # margin below Telegram's limit

ParseMode = Literal["html", "plain"]



def utf16_len(text: str) -> int:
    return len(text.encode("utf-16-le")) // 2


def escape(text: str) -> str:
    """Escape text for Telegram HTML (only ``<``, ``>``, ``&`` and quotes matter)."""
    return html.escape(text, quote=False)


def split_plain(text: str, limit: int = DEFAULT_CHUNK) -> list[str]:
    """Split plain text into chunks of at most ``limit`` UTF-16 units, on natural boundaries."""
    text = text.strip()
    if not text:
        return []
    chunks: list[str] = []
    rest = text
    while utf16_len(rest) > limit:
        cut = _best_cut(rest, limit)
        head, rest = rest[:cut].rstrip(), rest[cut:].lstrip()
        if head:
            chunks.append(head)
    if rest:
        chunks.append(rest)
    return chunks


def _prefix_fitting(text: str, limit: int) -> int:
    """The largest index i such that text[:i] fits ``limit`` UTF-16 units (no split pairs)."""
    if utf16_len(text) <= limit:
        return len(text)
    units = 0
    for index, char in enumerate(text):
        units += 2 if ord(char) > 0xFFFF else 1
        if units > limit:
            return index
    return len(text)


def _best_cut(text: str, limit: int) -> int:
    """Where to cut ``text`` so the head fits: paragraph, line, space, else hard."""
    window = _prefix_fitting(text, limit)
    head = text[:window]
    floor = window // 3  # a boundary too early would make a needlessly tiny chunk
    for separator in ("\n\n", "\n", " "):
        position = head.rfind(separator)
        if position > floor:
            return position + len(separator)
    return max(window, 1)


_MARKUP = re.compile(r"<[^<>]*>|&(?:#\d+|#x[0-9a-fA-F]+|[a-zA-Z]+);")
_TAG = re.compile(r"<\s*(/)?\s*([a-zA-Z0-9-]+)[^>]*?(/)?\s*>")
_CLOSE_RESERVE = 64  # room kept for closing tags (Telegram's tags are short and shallow)


def split_html(text: str, limit: int = DEFAULT_CHUNK) -> list[str]:
    """Split Telegram HTML into chunks each valid on its own and at most ``limit`` long."""
    text = text.strip()
    if not text:
        return []
    unsafe: set[int] = set()  # cut positions inside a tag or an entity
    events: list[tuple[int, int, bool, str, str]] = []  # (start, end, closes, name, tag text)
    for match in _MARKUP.finditer(text):
        unsafe.update(range(match.start() + 1, match.end()))
        tag = _TAG.fullmatch(match.group())
        if tag is not None and not tag.group(3):
            events.append(
                (match.start(), match.end(), bool(tag.group(1)), tag.group(2).lower(), match.group())
            )

    stack: list[tuple[str, str]] = []  # tags open at ``start`` (name, opening tag text)
    applied = 0  # events already folded into ``stack`` (cuts only move forward)

    def advance(position: int) -> None:
        nonlocal applied
        while applied < len(events) and events[applied][1] <= position:
            _, _, closes, name, token = events[applied]
            applied += 1
            if not closes:
                stack.append((name, token))
                continue
            for index in range(len(stack) - 1, -1, -1):
                if stack[index][0] == name:
                    del stack[index]
                    break

    chunks: list[str] = []
    start, reopen = 0, ""
    while start < len(text):
        room = limit - utf16_len(reopen)
        if len(text) - start <= room and utf16_len(text[start:]) <= room:
            cut = len(text)
        else:
            window = start + _prefix_fitting(text[start:start + room],
                                             max(room - _CLOSE_RESERVE, 1))
            cut = _html_cut(text, start, window, unsafe)
        advance(cut)
        body = reopen + text[start:cut].rstrip()
        closing = "".join(f"</{name}>" for name, _ in reversed(stack))
        if _visible(body):
            chunks.append(body + closing)
        reopen = "".join(token for _, token in stack)
        start = cut
        while start < len(text) and text[start] in " \n\t":
            start += 1
    return chunks


def _html_cut(text: str, start: int, window: int, unsafe: set[int]) -> int:
    """Best cut in ``text[start:window]``: paragraph, line, space, else the last safe place."""
    floor = start + (window - start) // 3
    for separator in ("\n\n", "\n", " "):
        position = text.rfind(separator, floor, window)
        while position != -1 and position in unsafe:
            position = text.rfind(separator, floor, position)
        if position != -1:
            return position + len(separator)
    cut = window
    while cut > start + 1 and cut in unsafe:
        cut -= 1
    if cut <= start + 1 and window in unsafe:  # one enormous tag: cut after it instead
        cut = window
        while cut in unsafe:
            cut += 1
    return cut


def _visible(chunk: str) -> bool:
    return bool(re.sub(r"<[^<>]*>", "", chunk).strip())


def split(text: str, mode: ParseMode, limit: int = DEFAULT_CHUNK) -> list[str]:
    return split_html(text, limit) if mode == "html" else split_plain(text, limit)


def strip_html(text: str) -> str:
    """Plain rendering of our own HTML (for ``TELEGRAM_PARSE_MODE=plain``)."""
    return html.unescape(re.sub(r"<[^<>]*>", "", text))
