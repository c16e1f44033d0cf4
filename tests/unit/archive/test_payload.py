"""What the archive writes as payload, and the errors it refuses bad input with."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone

import pytest

from archive.errors import ArchiveError, ArchiveInputError, ArchiveLocked, EmbeddingModelError
from archive.models import PAYLOAD_TEXT_CHARS, ArchiveRecord
from archive.payload import epoch as _epoch
from archive.payload import to_payload as _payload

WHEN = datetime(2026, 5, 1, 9, 30, tzinfo=UTC)


def test_payload_carries_filterable_fields_as_epoch_floats() -> None:
    record = ArchiveRecord(
        fact_id="f-1", text="x" * (PAYLOAD_TEXT_CHARS + 50), type="event", tier="fact",
        status="active", created_at=WHEN, last_confirmed_at=WHEN + timedelta(days=1),
    )

    payload = _payload("alice", record)

    assert payload == {
        "user_id": "alice",
        "fact_id": "f-1",
        "text": "x" * PAYLOAD_TEXT_CHARS,
        "type": "event",
        "tier": "fact",
        "status": "active",
        "created_at": WHEN.timestamp(),
        "last_confirmed_at": (WHEN + timedelta(days=1)).timestamp(),
    }


def test_last_confirmed_defaults_to_created() -> None:
    record = ArchiveRecord("f-1", "t", "event", "fact", "active", created_at=1_700_000_000)
    assert _payload("alice", record)["last_confirmed_at"] == 1_700_000_000.0


def test_times_must_be_aware_or_epoch() -> None:
    assert _epoch(datetime(2026, 1, 1, 3, tzinfo=timezone(timedelta(hours=3))), "t") == (
        datetime(2026, 1, 1, tzinfo=UTC).timestamp()
    )
    with pytest.raises(ArchiveInputError, match="naive") as caught:
        _epoch(datetime(2026, 1, 1), "created_at")  # noqa: DTZ001
    assert caught.value.next_step
    with pytest.raises(ArchiveInputError, match="epoch"):
        _epoch("yesterday", "created_at")
    with pytest.raises(ArchiveInputError):
        _epoch(True, "created_at")


def test_errors_write_their_own_message_and_next_step() -> None:
    locked = ArchiveLocked("/data/qdrant")
    assert isinstance(locked, ArchiveError)
    assert str(locked).startswith("the semantic archive at /data/qdrant is in use")
    assert ". Next: stop that process" in str(locked)

    model = EmbeddingModelError("bad/model", "OSError: not found")
    assert "EMBEDDING_MODEL='bad/model'" in str(model)
    assert model.next_step and "unset it" in model.next_step
