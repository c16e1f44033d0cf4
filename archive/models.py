"""Plain data for the semantic archive: what goes in (``ArchiveRecord``) and what comes out.

Pure data: no client, no I/O. ``type``/``tier``/``status`` are plain strings so the archive
does not depend on ``graph``; ``graph.models`` enums are ``StrEnum`` and pass as they are.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

import numpy as np

# Payload fields ``set_payload`` may change without re-embedding.
MUTABLE_FIELDS = frozenset({"type", "tier", "status", "created_at", "last_confirmed_at"})
TIME_FIELDS = frozenset({"created_at", "last_confirmed_at"})
# The payload keeps a short copy of the text (for display and debugging), not the whole fact.
PAYLOAD_TEXT_CHARS = 500

Vector = np.ndarray | Sequence[float]


@dataclass(frozen=True, slots=True)
class ArchiveRecord:
    """One fact as the archive stores it. ``vector`` is optional: missing ones are embedded."""

    fact_id: str
    text: str
    type: str
    tier: str
    status: str
    created_at: datetime | float
    last_confirmed_at: datetime | float | None = None
    vector: Vector | None = field(default=None, compare=False, repr=False)


@dataclass(frozen=True, slots=True)
class ArchiveHit:
    """One search result: cosine similarity in [-1, 1] and the stored payload."""

    fact_id: str
    score: float
    payload: dict[str, Any]
