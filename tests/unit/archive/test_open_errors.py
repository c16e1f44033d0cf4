"""Opening the local archive: the lock and a broken disk are outages (pending, reindex later);
any other error is a bug and must not be hidden as 'archive unavailable'."""

from __future__ import annotations

from pathlib import Path

import pytest

import archive.store as store_module
from archive.errors import ArchiveUnavailable
from archive.store import ArchiveStore


def _failing_client(exc: Exception) -> type:
    class Client:
        def __init__(self, *args: object, **kwargs: object) -> None:
            raise exc

    return Client


@pytest.mark.parametrize("bug", [ValueError("bad vector size"), RuntimeError("unexpected state")])
def test_a_bug_while_opening_is_not_an_outage(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                               bug: Exception) -> None:
    monkeypatch.setattr(store_module, "QdrantClient", _failing_client(bug))
    archive = ArchiveStore.local(tmp_path / "qdrant", model_name="m", dim=4)
    with pytest.raises(type(bug)):
        archive._open_client()


def test_a_broken_disk_is_an_outage(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(store_module, "QdrantClient", _failing_client(OSError("read-only fs")))
    archive = ArchiveStore.local(tmp_path / "qdrant", model_name="m", dim=4)
    with pytest.raises(ArchiveUnavailable, match="read-only fs"):
        archive._open_client()
