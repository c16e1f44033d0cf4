"""Qdrant local mode lets one process open a directory: the second gets ArchiveLocked, plainly."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from archive.errors import ArchiveError, ArchiveLocked
from archive.models import ArchiveRecord
from archive.store import ArchiveStore

DIM = 4
MODEL = "lock-test-model"


def _store(path: Path) -> ArchiveStore:
    return ArchiveStore.local(path, model_name=MODEL, dim=DIM)


def _record(fact_id: str) -> ArchiveRecord:
    return ArchiveRecord(
        fact_id=fact_id, text=fact_id, type="event", tier="fact", status="active",
        created_at=1_700_000_000.0, vector=[1.0, 0.0, 0.0, 0.0],
    )


def _assert_plain(exc: ArchiveLocked, path: Path) -> None:
    text = str(exc)
    assert str(path) in text
    assert "another Wave process" in text and "wave run" in text
    assert "QDRANT_URL" in text and "outbox" in text
    assert "portalocker" not in text and "Traceback" not in text
    assert exc.next_step is not None


async def test_second_store_in_one_process_gets_archive_locked(tmp_path: Path) -> None:
    path = tmp_path / "qdrant"
    holder = _store(path)
    await holder.upsert("u", [_record("f-1")])
    second = _store(path)
    try:
        with pytest.raises(ArchiveLocked) as caught:
            await second.search("u", [1.0, 0.0, 0.0, 0.0], limit=1)
        _assert_plain(caught.value, path)
        assert isinstance(caught.value, ArchiveError)
    finally:
        await holder.close()

    # Once the holder lets go, the same store opens on its next call.
    [hit] = await second.search("u", [1.0, 0.0, 0.0, 0.0], limit=1)
    assert hit.fact_id == "f-1"
    await second.close()


async def test_directory_held_by_another_process(tmp_path: Path) -> None:
    path = tmp_path / "qdrant"
    holder_code = textwrap.dedent(
        f"""
        import sys, time
        from qdrant_client import QdrantClient
        client = QdrantClient(path={str(path)!r})
        print("held", flush=True)
        sys.stdin.readline()
        client.close()
        """
    )
    proc = subprocess.Popen(
        [sys.executable, "-c", holder_code],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
    )
    try:
        assert proc.stdout is not None and proc.stdout.readline().strip() == "held"
        store = _store(path)
        with pytest.raises(ArchiveLocked) as caught:
            await store.open()
        _assert_plain(caught.value, path)
        await store.close()
    finally:
        assert proc.stdin is not None
        proc.stdin.write("\n")
        proc.stdin.close()
        proc.wait(timeout=60)
    assert proc.returncode == 0


async def test_closed_store_refuses_with_next_step(tmp_path: Path) -> None:
    store = _store(tmp_path / "qdrant")
    await store.open()
    await store.close()
    await store.close()  # idempotent

    with pytest.raises(ArchiveError, match="closed") as caught:
        await store.count("u")
    assert caught.value.next_step
