"""Records to Qdrant payloads and scored points back to hits (plain conversion, no I/O)."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any

from qdrant_client import models

from archive.errors import ArchiveInputError
from archive.models import PAYLOAD_TEXT_CHARS, ArchiveHit, ArchiveRecord


def to_payload(user_id: str, record: ArchiveRecord) -> dict[str, Any]:
    created = epoch(record.created_at, "created_at")
    confirmed = (
        created
        if record.last_confirmed_at is None
        else epoch(record.last_confirmed_at, "last_confirmed_at")
    )
    if not record.fact_id:
        raise ArchiveInputError("a record needs a fact_id", next_step="pass the graph fact's id")
    return {
        "user_id": user_id,
        "fact_id": record.fact_id,
        "text": record.text[:PAYLOAD_TEXT_CHARS],
        "type": str(record.type),
        "tier": str(record.tier),
        "status": str(record.status),
        "created_at": created,
        "last_confirmed_at": confirmed,
    }


def epoch(value: object, name: str) -> float:
    if isinstance(value, datetime):
        if value.tzinfo is None:
            raise ArchiveInputError(
                f"{name} is a naive datetime",
                next_step="pass a timezone-aware datetime (datetime.now(UTC))",
            )
        return value.timestamp()
    if isinstance(value, int | float) and not isinstance(value, bool):
        return float(value)
    raise ArchiveInputError(
        f"{name} must be a datetime or epoch seconds, got {value!r}",
        next_step="pass a timezone-aware datetime",
    )


def to_hit(point: models.ScoredPoint) -> ArchiveHit:
    payload: Mapping[str, Any] = point.payload or {}
    return ArchiveHit(fact_id=str(payload["fact_id"]), score=float(point.score), payload=dict(payload))
