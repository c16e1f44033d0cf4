"""The day file's text format: writing machine lines and parsing whatever is in the file.

A line Wave writes looks like::

    - 14:05 Decided to move the launch to May [f-abc123, f-def456] <!-- wave k=ex-42 s=1a2b3c4d -->

The trailing HTML comment (invisible when the markdown is rendered) marks the line as Wave's:
``k`` is the exchange's idempotency key, ``s`` a checksum of the visible part. A person may
change anything; a line whose checksum no longer matches is reported as hand-edited, and a
line without the marker as hand-written. The parser never fails: any text is some line.
"""

from __future__ import annotations

import hashlib
import re
from datetime import time

from episodes.models import EpisodeLine

_MARKER = re.compile(r"\s*<!--\s*wave\b(?P<attrs>[^>]*?)-->\s*$")
_ATTR = re.compile(r"(?P<name>[ks])=(?P<value>[A-Za-z0-9_.:-]+)")
_ITEM = re.compile(r"^\s*[-*+]\s+(?P<body>.*)$")
_TIME = re.compile(r"^(?P<h>[01]?\d|2[0-3])[:.](?P<m>[0-5]\d)\b\s*(?P<rest>.*)$")
_FACT_ID = r"[A-Za-z]{1,3}-[A-Za-z0-9_-]{1,64}"
_IDS = re.compile(rf"\s*\[(?P<ids>{_FACT_ID}(?:\s*,\s*{_FACT_ID})*)\]\s*$")
_SAFE_KEY = re.compile(r"[A-Za-z0-9_.:-]{1,64}")
_FACT_ID_FULL = re.compile(_FACT_ID)


def checksum(visible: str) -> str:
    return hashlib.sha256(visible.encode("utf-8")).hexdigest()[:8]


def safe_key(key: str) -> str:
    """An idempotency key usable inside the marker (hashed if it has other characters)."""
    if _SAFE_KEY.fullmatch(key):
        return key
    return "h" + hashlib.sha256(key.encode("utf-8", "surrogatepass")).hexdigest()[:20]


def clean_text(text: str) -> str:
    """One line of plain text: no newlines, no comment markers, no trailing id list look-alike."""
    flat = " ".join(text.split()).replace("<!--", "<! --").replace("-->", "-- >")
    if _IDS.search(flat):  # would read back as fact ids
        flat += "."
    return flat


def valid_fact_ids(ids: tuple[str, ...] | list[str]) -> tuple[str, ...]:
    return tuple(fid for fid in ids if _FACT_ID_FULL.fullmatch(fid))


def format_line(at: time, text: str, fact_ids: tuple[str, ...], key: str | None) -> str:
    visible = f"- {at.hour:02d}:{at.minute:02d} {clean_text(text)}"
    if fact_ids:
        visible += f" [{', '.join(fact_ids)}]"
    attrs = (f"k={safe_key(key)} " if key else "") + f"s={checksum(visible)}"
    return f"{visible} <!-- wave {attrs} -->"


def parse_line(number: int, raw: str) -> EpisodeLine:
    line = raw.rstrip("\r\n")
    visible = line
    machine = edited = False
    key: str | None = None
    marker = _MARKER.search(line)
    if marker:
        visible = line[: marker.start()].rstrip()
        attrs = {m["name"]: m["value"] for m in _ATTR.finditer(marker["attrs"])}
        key = attrs.get("k")
        if attrs.get("s") == checksum(visible):
            machine = True
        else:
            edited = True
    body = visible.strip()
    at: time | None = None
    item = _ITEM.match(visible)
    if item:
        body = item["body"].strip()
        stamp = _TIME.match(body)
        if stamp:
            at = time(int(stamp["h"]), int(stamp["m"]))
            body = stamp["rest"].strip()
    ids: tuple[str, ...] = ()
    found = _IDS.search(body)
    if found:
        ids = tuple(part.strip() for part in found["ids"].split(","))
        body = body[: found.start()].rstrip()
    return EpisodeLine(
        number=number,
        raw=line,
        text=body,
        at=at,
        fact_ids=ids,
        machine=machine,
        edited=edited,
        key=key,
    )


def parse_text(text: str) -> tuple[EpisodeLine, ...]:
    return tuple(parse_line(i, raw) for i, raw in enumerate(text.splitlines(), start=1))
