"""Qdrant local mode, made fit for Wave: each measure here is measured in docs/benchmarks.md.

- ``probe_lock``: refuse a held directory before the client loads every point.
- ``tune_storage``: WAL for each collection's sqlite file (one fsync per point otherwise).
- ``one_blas_thread``: the search's matrix-vector product on one BLAS thread.
- ``overfetch``: exact status filtering without local mode's point-by-point payload filter.
"""

from __future__ import annotations

import logging
import sqlite3
import threading
from contextlib import AbstractContextManager
from pathlib import Path
from typing import cast

from qdrant_client import QdrantClient, models
from threadpoolctl import ThreadpoolController

from archive.errors import ArchiveLocked
from archive.layout import status_condition

log = logging.getLogger("wave.archive.local")

# The client's message when another instance holds the directory (translated to ArchiveLocked).
LOCK_MESSAGE = "already accessed by another instance"
# A status-filtered search first asks for the best unfiltered candidates and filters them here
# (exact whenever enough of them pass); only if too few pass does it fall back to Qdrant's
# filter, which local mode evaluates point by point.
OVERFETCH_STEPS = (4, 32)
OVERFETCH_MIN = 40
MAX_CANDIDATES = 4_000


_blas: ThreadpoolController | None = None
_blas_lock = threading.Lock()


def one_blas_thread() -> AbstractContextManager[object]:
    """Local-mode search is one numpy matrix-vector product over the user's vectors.

    OpenBLAS splits it over every core; on a busy machine (2 cores shared here) the threads
    wait on each other and a 10k-point product took ~25 ms instead of ~2.5 ms single-threaded.
    The limit is process-wide while it lasts (other numpy calls run single-threaded too).
    """
    global _blas
    if _blas is None:
        with _blas_lock:
            if _blas is None:
                _blas = ThreadpoolController()
    return cast("AbstractContextManager[object]", _blas.limit(limits=1, user_api="blas"))


def probe_lock(path: Path) -> None:
    """Fail fast with ``ArchiveLocked`` when another client holds ``path``.

    ``QdrantClient(path=...)`` reads every collection into memory before it tries its lock, so
    a refused open would cost seconds on a large archive, on every retry. This takes the same
    ``flock`` on ``<path>/.lock`` (non-blocking) and releases it at once; the rare race that
    remains is still translated from the client's own RuntimeError.
    """
    lock_file = path / ".lock"
    if not lock_file.exists():
        return
    import portalocker  # qdrant-client's own dependency for this lock

    with lock_file.open("r+") as handle:
        try:
            portalocker.lock(
                handle, portalocker.LockFlags.EXCLUSIVE | portalocker.LockFlags.NON_BLOCKING
            )
        except portalocker.exceptions.LockException as exc:
            raise ArchiveLocked(path) from exc
        portalocker.unlock(handle)


def collection_names(client: QdrantClient) -> list[str]:
    return [c.name for c in client.get_collections().collections]


def tune_storage(client: QdrantClient, name: str) -> None:
    """WAL + synchronous=NORMAL on a local collection's sqlite file.

    qdrant-client commits every point on its own; with the default rollback journal each
    commit is an fsync (~13 ms here: ~70 points/s). WAL makes it ~5,000 points/s. A crash can
    lose the last commits of this derived index, never corrupt it; ``wave reindex`` and the
    drift check repair it from the graph. Skipped quietly if the client's internals differ.
    """
    inner = getattr(client, "_client", None)
    collection = getattr(inner, "collections", {}).get(name)
    storage = getattr(getattr(collection, "storage", None), "storage", None)
    if not isinstance(storage, sqlite3.Connection):
        log.debug("local collection %s: storage tuning not applicable", name)
        return
    try:
        storage.execute("PRAGMA journal_mode=WAL")
        storage.execute("PRAGMA synchronous=NORMAL")
    except sqlite3.Error as exc:
        log.warning("local collection %s: could not enable WAL (%s)", name, exc)


def compact_storage(client: QdrantClient, name: str) -> bool:
    """Checkpoint and VACUUM a local collection's SQLite file, so a deleted point's payload
    (its text) is not left in the WAL or in free pages. False if not applicable."""
    inner = getattr(client, "_client", None)
    collection = getattr(inner, "collections", {}).get(name)
    storage = getattr(getattr(collection, "storage", None), "storage", None)
    if not isinstance(storage, sqlite3.Connection):
        return False
    storage.commit()
    storage.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    storage.execute("VACUUM")
    storage.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    return True


def overfetch(
    client: QdrantClient, collection: str, query: list[float], limit: int, wanted: tuple[str, ...]
) -> list[models.ScoredPoint]:
    """Exact status-filtered top-``limit`` from unfiltered candidates, else Qdrant's filter.

    Candidates come best first; if at least ``limit`` of the best ``n`` pass the filter, they
    are the filtered top-``limit``. If fewer than ``n`` came back, the whole collection was
    seen and whatever passed is the complete answer.
    """
    allowed = set(wanted)
    for factor in OVERFETCH_STEPS:
        n = min(MAX_CANDIDATES, max(OVERFETCH_MIN, limit * factor))
        points = client.query_points(collection, query=query, limit=n, with_payload=True).points
        passed = [p for p in points if (p.payload or {}).get("status") in allowed]
        if len(passed) >= limit or len(points) < n:
            return passed[:limit]
    scope = models.Filter(must=[status_condition(wanted)])
    return client.query_points(
        collection, query=query, query_filter=scope, limit=limit, with_payload=True
    ).points
