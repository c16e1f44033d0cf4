"""The local-mode measures hold on the installed qdrant-client (a canary for upgrades)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import portalocker
import pytest

from archive.errors import ArchiveLocked
from archive.models import ArchiveRecord
from archive.store import ArchiveStore


def _store(path: Path) -> ArchiveStore:
    return ArchiveStore.local(path, model_name="local-mode-test", dim=3)


async def test_collections_are_written_in_wal_mode(tmp_path: Path) -> None:
    store = _store(tmp_path / "qdrant")
    await store.upsert("u", [ArchiveRecord("f-1", "t", "event", "fact", "active", 1.0,
                                           vector=[0.0, 1.0, 0.0])])
    await store.close()

    [db] = (tmp_path / "qdrant").rglob("storage.sqlite")
    with sqlite3.connect(db) as con:
        assert con.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


async def test_a_held_directory_is_refused_before_qdrant_loads_it(tmp_path: Path) -> None:
    holder = _store(tmp_path / "qdrant")
    await holder.upsert("u", [ArchiveRecord("f-1", "t", "event", "fact", "active", 1.0,
                                            vector=[1.0, 0.0, 0.0])])
    try:
        with pytest.raises(ArchiveLocked) as caught:
            await _store(tmp_path / "qdrant").open()
    finally:
        await holder.close()

    # Refused by our own probe of the lock file, not by the client after reading every point.
    assert isinstance(caught.value.__cause__, portalocker.exceptions.LockException)
