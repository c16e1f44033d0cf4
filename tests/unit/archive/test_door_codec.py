"""What crosses the archive's door comes out as it went in: vectors bit for bit, times with
their zone, records, hits, sets and generators of ids."""

from __future__ import annotations

import json
from datetime import UTC, datetime

import numpy as np

from archive.door import decode, door_path, encode
from archive.models import ArchiveHit, ArchiveRecord


def _through(value: object) -> object:
    return decode(json.loads(json.dumps(encode(value))))


def test_a_call_round_trips_through_json() -> None:
    vector = np.random.default_rng(7).standard_normal(384).astype(np.float32)
    when = datetime(2026, 12, 2, 7, 0, tzinfo=UTC)
    record = ArchiveRecord("f-1", "Сестра живёт в Казани", "identity", "fact", "active", when,
                           None, vector)
    args = ("u", [record], (s for s in ("active", "archived")), {"f-1", "f-2"})
    back = _through(args)
    assert isinstance(back, list)
    user, records, statuses, ids = back
    assert user == "u" and statuses == ["active", "archived"] and ids == {"f-1", "f-2"}
    assert records[0] == record and records[0].created_at == when
    assert np.array_equal(records[0].vector, vector)


def test_results_round_trip() -> None:
    hits = [ArchiveHit("f-1", 0.93, {"fact_id": "f-1", "created_at": 1.5, "text": "Кот"})]
    assert _through(hits) == hits
    vectors = {"f-1": np.ones(4, dtype=np.float32)}
    back = _through(vectors)
    assert isinstance(back, dict) and np.array_equal(back["f-1"], vectors["f-1"])


def test_every_process_meaning_one_directory_knocks_on_one_short_door(tmp_path: object) -> None:
    from pathlib import Path

    folder = Path(str(tmp_path)) / ("long-" * 30) / "qdrant"
    same = folder.parent / "." / "qdrant"
    assert door_path(folder) == door_path(same)
    assert len(str(door_path(folder))) < 100  # a Unix socket path must stay short
