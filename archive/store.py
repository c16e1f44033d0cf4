"""The semantic archive over Qdrant: a derived index of facts, rebuildable from the graph.

One synchronous ``QdrantClient`` per store, called through ``asyncio.to_thread``: Qdrant's
local mode is in-process numpy and ``AsyncQdrantLocal`` would run every scan on the event loop
thread. Local mode is single-threaded inside, so its calls are serialised by a lock (and run
with one BLAS thread, see ``_one_blas_thread``). The client
opens on first use (or ``await store.open()``), never in the constructor; a locked local
directory becomes ``ArchiveLocked`` and a later call retries the open.
"""

from __future__ import annotations

import asyncio
import logging
import math
import sqlite3
import threading
from collections.abc import Callable, Iterable, Mapping, Sequence
from contextlib import AbstractContextManager
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar, cast

import numpy as np
from qdrant_client import QdrantClient, models
from qdrant_client.common.client_exceptions import QdrantException
from qdrant_client.http.exceptions import ApiException
from threadpoolctl import ThreadpoolController

from archive.errors import ArchiveError, ArchiveInputError, ArchiveLocked, ArchiveUnavailable
from archive.layout import Layout, point_id, status_condition
from archive.models import (
    MUTABLE_FIELDS,
    PAYLOAD_TEXT_CHARS,
    TIME_FIELDS,
    ArchiveHit,
    ArchiveRecord,
    Vector,
)

if TYPE_CHECKING:
    from archive.embedder import Embedder

log = logging.getLogger("wave.archive.store")

T = TypeVar("T")

UPSERT_CHUNK = 256
SCROLL_PAGE = 1_000
# Local mode sorts every point id on each scroll call: few big pages, not many small ones.
LOCAL_SCROLL_PAGE = 100_000
MAX_LIMIT = 1_000
DEFAULT_STATUSES: tuple[str, ...] = ("active",)
# Local mode: a status-filtered search first asks for the best unfiltered candidates and
# filters them here (exact whenever enough of them pass); only if too few pass does it fall
# back to Qdrant's filter, which local mode evaluates point by point. See docs/benchmarks.md.
OVERFETCH_STEPS = (4, 32)
OVERFETCH_MIN = 40
_LOCK_MESSAGE = "already accessed by another instance"
# What the client raises for a server that is down or answers badly, a local storage that
# fails, or a request Qdrant refuses; translated to ArchiveUnavailable at this boundary.
_BACKEND_ERRORS: tuple[type[BaseException], ...] = (
    ApiException,
    QdrantException,
    OSError,
    sqlite3.Error,
    ValueError,
    RuntimeError,
)


class ArchiveStore:
    """Vectors of one embedding model, per user, in Qdrant local mode or on a server."""

    def __init__(
        self,
        *,
        model_name: str,
        dim: int,
        path: Path | None = None,
        url: str | None = None,
        api_key: str | None = None,
        timeout_s: float = 5.0,
        embedder: Embedder | None = None,
        per_user: bool | None = None,
    ) -> None:
        if (path is None) == (url is None):
            raise ArchiveInputError(
                "give exactly one of a local path or a server URL",
                next_step="use ArchiveStore.local(path, ...) or ArchiveStore.server(url, ...)",
            )
        if dim <= 0:
            raise ArchiveInputError(
                f"vector dimension must be positive, got {dim}",
                next_step="pass dim=embedder.dim",
            )
        if embedder is not None and embedder.model_name != model_name:
            raise ArchiveInputError(
                f"the embedder is {embedder.model_name!r} but the archive was opened for "
                f"{model_name!r}",
                next_step="open the archive with model_name=embedder.model_name",
            )
        self.model_name = model_name
        self.dim = dim
        self.path = Path(path).expanduser() if path is not None else None
        self.url = url
        self._api_key = api_key
        self._timeout_s = timeout_s
        self.embedder = embedder
        # Default layout: a collection per user locally, one shared collection on a server.
        self.layout = Layout(model_name, dim, per_user=self.is_local if per_user is None else per_user)
        self._client: QdrantClient | None = None
        self._closed = False
        self._open_lock = threading.Lock()
        # Local mode is not thread-safe; the server client is (httpx pool).
        self._io_lock: threading.Lock | None = threading.Lock() if self.is_local else None
        self._collections: set[str] = set()

    # Construction ------------------------------------------------------------------------

    @classmethod
    def local(
        cls,
        path: Path | str,
        *,
        model_name: str,
        dim: int,
        embedder: Embedder | None = None,
        per_user: bool = True,
    ) -> ArchiveStore:
        """Qdrant local mode under ``path``; ``per_user=False`` uses the server's shared layout
        (one collection, user filter), which tests and benchmarks exercise locally."""
        return cls(
            model_name=model_name, dim=dim, path=Path(path), embedder=embedder, per_user=per_user
        )

    @classmethod
    def server(
        cls,
        url: str,
        *,
        api_key: str | None = None,
        model_name: str,
        dim: int,
        timeout_s: float = 5.0,
        embedder: Embedder | None = None,
    ) -> ArchiveStore:
        return cls(
            model_name=model_name,
            dim=dim,
            url=url,
            api_key=api_key,
            timeout_s=timeout_s,
            embedder=embedder,
        )

    @property
    def is_local(self) -> bool:
        return self.path is not None

    @property
    def where(self) -> str:
        return str(self.path) if self.path is not None else str(self.url)

    # Lifecycle ---------------------------------------------------------------------------

    async def open(self) -> None:
        """Open the client now (else it opens on first use); raises ``ArchiveLocked``."""
        await asyncio.to_thread(self._client_sync)

    async def close(self) -> None:
        """Close the client and release the local directory. Idempotent."""
        await asyncio.to_thread(self._close_sync)

    def _close_sync(self) -> None:
        with self._open_lock:
            self._closed = True
            client, self._client = self._client, None
            self._collections.clear()
        if client is not None:
            if self._io_lock is not None:
                with self._io_lock:
                    client.close()
            else:
                client.close()

    def _client_sync(self) -> QdrantClient:
        client = self._client
        if client is not None:
            return client
        with self._open_lock:
            if self._closed:
                raise ArchiveError(
                    f"the semantic archive at {self.where} is closed",
                    next_step="open a new ArchiveStore (Services opens one per process)",
                )
            if self._client is None:
                self._client = self._open_client()
            return self._client

    def _open_client(self) -> QdrantClient:
        if self.path is not None:
            try:
                self.path.mkdir(parents=True, exist_ok=True)
                _probe_lock(self.path)
                client = QdrantClient(path=str(self.path))
            except RuntimeError as exc:
                if _LOCK_MESSAGE in str(exc):
                    raise ArchiveLocked(self.path) from exc
                raise ArchiveUnavailable(self.where, str(exc)) from exc
            except (OSError, sqlite3.Error, ValueError) as exc:
                raise ArchiveUnavailable(self.where, f"{type(exc).__name__}: {exc}") from exc
            for name in _local_collection_names(client):
                _tune_local_storage(client, name)
            log.info("opened the local archive at %s", self.path)
            return client
        client = QdrantClient(
            url=self.url,
            api_key=self._api_key,
            timeout=max(1, math.ceil(self._timeout_s)),
            check_compatibility=False,
        )
        try:
            client.get_collections()
        except Exception as exc:
            client.close()
            raise ArchiveUnavailable(self.where, _describe(exc)) from exc
        log.info("connected to the Qdrant server at %s", self.url)
        return client

    async def _run(self, fn: Callable[[QdrantClient], T]) -> T:
        return await asyncio.to_thread(self._call, fn)

    def _call(self, fn: Callable[[QdrantClient], T]) -> T:
        client = self._client_sync()
        try:
            if self._io_lock is None:
                return fn(client)
            with self._io_lock, _one_blas_thread():
                return fn(client)
        except _BACKEND_ERRORS as exc:
            raise ArchiveUnavailable(self.where, _describe(exc)) from exc

    # Collections -------------------------------------------------------------------------

    def _has_collection(self, client: QdrantClient, name: str) -> bool:
        if name in self._collections:
            return True
        if client.collection_exists(name):
            self._collections.add(name)
            return True
        return False

    def _ensure_collection(self, client: QdrantClient, name: str) -> None:
        if self._has_collection(client, name):
            return
        if self.is_local:
            # Vectors are unit length (normalised here), so dot product is cosine similarity;
            # local mode's COSINE would renormalise the whole matrix on every query (~3x).
            params = models.VectorParams(size=self.dim, distance=models.Distance.DOT)
            client.create_collection(name, vectors_config=params)
            _tune_local_storage(client, name)
        else:
            params = models.VectorParams(size=self.dim, distance=models.Distance.COSINE)
            _create_server_collection(client, name, params)
        self._collections.add(name)
        log.info("created archive collection %s", name)

    # Writes ------------------------------------------------------------------------------

    async def upsert(self, user_id: str, records: Sequence[ArchiveRecord]) -> int:
        """Store records (embedding those without a vector in one batch); returns the count."""
        _check_user(user_id)
        items = list(records)
        if not items:
            return 0
        missing = [i for i, r in enumerate(items) if r.vector is None]
        vectors: list[np.ndarray | None] = [
            None if r.vector is None else self._vector(r.vector) for r in items
        ]
        if missing:
            embedded = await self._embedder_for("upsert records without vectors").embed(
                [items[i].text for i in missing]
            )
            for i, row in zip(missing, embedded, strict=True):
                vectors[i] = self._vector(row)
        points = [
            models.PointStruct(
                id=point_id(user_id, r.fact_id),
                vector=vec.tolist(),
                payload=_payload(user_id, r),
            )
            for r, vec in zip(items, vectors, strict=True)
            if vec is not None
        ]
        collection = self.layout.collection(user_id)

        def write(client: QdrantClient) -> None:
            self._ensure_collection(client, collection)
            for start in range(0, len(points), UPSERT_CHUNK):
                client.upsert(collection, points=points[start : start + UPSERT_CHUNK], wait=True)

        await self._run(write)
        return len(points)

    async def set_payload(self, user_id: str, fact_id: str, **fields: Any) -> bool:
        """Change status/tier/type/times without re-embedding; False if the fact has no vector."""
        _check_user(user_id)
        unknown = set(fields) - MUTABLE_FIELDS
        if unknown:
            raise ArchiveInputError(
                f"set_payload cannot change {sorted(unknown)}; it changes {sorted(MUTABLE_FIELDS)}",
                next_step="re-upsert the record to change its text (that re-embeds it)",
            )
        if not fields:
            return await self.has(user_id, fact_id)
        payload = {
            key: _epoch(value, key) if key in TIME_FIELDS else str(value)
            for key, value in fields.items()
        }
        collection = self.layout.collection(user_id)
        pid = point_id(user_id, fact_id)

        def write(client: QdrantClient) -> bool:
            if not self._has_collection(client, collection):
                return False
            if not client.retrieve(collection, ids=[pid], with_payload=False):
                return False
            client.set_payload(collection, payload=payload, points=[pid], wait=True)
            return True

        return await self._run(write)

    async def delete(self, user_id: str, fact_ids: Iterable[str]) -> None:
        """Remove the vectors of these facts (absent ones are ignored)."""
        _check_user(user_id)
        ids: list[models.ExtendedPointId] = [
            point_id(user_id, f) for f in dict.fromkeys(fact_ids)
        ]
        if not ids:
            return
        collection = self.layout.collection(user_id)

        def write(client: QdrantClient) -> None:
            if self._has_collection(client, collection):
                client.delete(collection, points_selector=models.PointIdsList(points=ids), wait=True)

        await self._run(write)

    async def drop_user(self, user_id: str) -> None:
        """Remove every vector of a user (``wave reindex`` rebuilds from the graph)."""
        _check_user(user_id)
        collection = self.layout.collection(user_id)

        def write(client: QdrantClient) -> None:
            if not self._has_collection(client, collection):
                return
            if self.layout.per_user:
                client.delete_collection(collection)
                self._collections.discard(collection)
            else:
                scope = self.layout.scope(user_id) or models.Filter()
                selector = models.FilterSelector(filter=scope)
                client.delete(collection, points_selector=selector, wait=True)

        await self._run(write)

    # Reads -------------------------------------------------------------------------------

    async def search(
        self,
        user_id: str,
        vector: Vector,
        *,
        limit: int = 10,
        statuses: Sequence[str] | None = DEFAULT_STATUSES,
    ) -> list[ArchiveHit]:
        """Nearest facts of one user, best first; ``statuses=None`` means every status."""
        _check_user(user_id)
        if not 1 <= limit <= MAX_LIMIT:
            raise ArchiveInputError(
                f"limit must be between 1 and {MAX_LIMIT}, got {limit}",
                next_step=f"ask for at most {MAX_LIMIT} hits and re-rank them",
            )
        wanted = None if statuses is None else tuple(str(s) for s in statuses)
        if wanted is not None and not wanted:
            return []
        query = self._vector(vector).tolist()
        collection = self.layout.collection(user_id)

        def read(client: QdrantClient) -> list[models.ScoredPoint]:
            if not self._has_collection(client, collection):
                return []
            if self.layout.per_user and wanted is not None:
                return _overfetch(client, collection, query, limit, wanted)
            result = client.query_points(
                collection,
                query=query,
                query_filter=self.layout.scope(user_id, wanted),
                limit=limit,
                with_payload=True,
            )
            return result.points

        points = await self._run(read)
        return [_hit(p) for p in points]

    async def search_text(
        self,
        user_id: str,
        text: str,
        *,
        limit: int = 10,
        statuses: Sequence[str] | None = DEFAULT_STATUSES,
    ) -> list[ArchiveHit]:
        """Embed ``text`` with the store's embedder, then ``search``."""
        vectors = await self._embedder_for("search_text").embed([text])
        return await self.search(user_id, vectors[0], limit=limit, statuses=statuses)

    async def has(self, user_id: str, fact_id: str) -> bool:
        _check_user(user_id)
        collection = self.layout.collection(user_id)
        pid = point_id(user_id, fact_id)

        def read(client: QdrantClient) -> bool:
            if not self._has_collection(client, collection):
                return False
            return bool(client.retrieve(collection, ids=[pid], with_payload=False))

        return await self._run(read)

    async def vectors(self, user_id: str, fact_ids: Iterable[str]) -> dict[str, np.ndarray]:
        """Stored (normalised) vectors of these facts; ids without a vector are left out.

        Recall uses them for context windows and MMR without embedding anything again."""
        _check_user(user_id)
        wanted = list(dict.fromkeys(fact_ids))
        if not wanted:
            return {}
        collection = self.layout.collection(user_id)
        by_point = {point_id(user_id, fid): fid for fid in wanted}

        def read(client: QdrantClient) -> dict[str, np.ndarray]:
            if not self._has_collection(client, collection):
                return {}
            points = client.retrieve(collection, ids=list(by_point), with_payload=False,
                                     with_vectors=True)
            return {by_point[str(p.id)]: np.asarray(p.vector, dtype=np.float32)
                    for p in points if str(p.id) in by_point and p.vector is not None}

        return await self._run(read)

    async def fact_ids(self, user_id: str) -> set[str]:
        """Every fact id with a vector for this user (the drift check compares with the graph)."""
        _check_user(user_id)
        collection = self.layout.collection(user_id)
        scope = self.layout.scope(user_id)

        def read(client: QdrantClient) -> set[str]:
            found: set[str] = set()
            if not self._has_collection(client, collection):
                return found
            offset: Any = None
            while True:
                page, offset = client.scroll(
                    collection,
                    scroll_filter=scope,
                    limit=LOCAL_SCROLL_PAGE if self.is_local else SCROLL_PAGE,
                    offset=offset,
                    with_payload=["fact_id"],
                    with_vectors=False,
                )
                found.update(str((p.payload or {})["fact_id"]) for p in page)
                if offset is None:
                    return found

        return await self._run(read)

    async def count(self, user_id: str, *, statuses: Sequence[str] | None = None) -> int:
        _check_user(user_id)
        collection = self.layout.collection(user_id)
        wanted = None if statuses is None else tuple(str(s) for s in statuses)

        def read(client: QdrantClient) -> int:
            if not self._has_collection(client, collection):
                return 0
            scope = self.layout.scope(user_id, wanted)
            return int(client.count(collection, count_filter=scope, exact=True).count)

        return await self._run(read)

    # Helpers -----------------------------------------------------------------------------

    def _embedder_for(self, what: str) -> Embedder:
        if self.embedder is None:
            raise ArchiveInputError(
                f"{what} needs an embedder, and this archive was opened without one",
                next_step="pass embedder= to ArchiveStore.local/server, or give vectors",
            )
        return self.embedder

    def _vector(self, vector: Vector) -> np.ndarray:
        array = np.asarray(vector, dtype=np.float32).reshape(-1)
        if array.shape[0] != self.dim:
            raise ArchiveInputError(
                f"vector has {array.shape[0]} dimensions, the archive for {self.model_name!r} "
                f"holds {self.dim}",
                next_step="embed with the archive's model (EMBEDDING_MODEL) or run `wave reindex`",
            )
        norm = float(np.linalg.norm(array))
        if not math.isfinite(norm) or norm == 0.0:
            raise ArchiveInputError(
                "vector is zero or not finite; it cannot be normalised",
                next_step="embed a non-empty text with the archive's embedder",
            )
        return array / norm


def _overfetch(
    client: QdrantClient, collection: str, query: list[float], limit: int, wanted: tuple[str, ...]
) -> list[models.ScoredPoint]:
    """Exact status-filtered top-``limit`` from unfiltered candidates, else Qdrant's filter.

    Candidates come best first; if at least ``limit`` of the best ``n`` pass the filter, they
    are the filtered top-``limit``. If fewer than ``n`` came back, the whole collection was
    seen and whatever passed is the complete answer.
    """
    allowed = set(wanted)
    for factor in OVERFETCH_STEPS:
        n = min(MAX_LIMIT * 4, max(OVERFETCH_MIN, limit * factor))
        points = client.query_points(collection, query=query, limit=n, with_payload=True).points
        passed = [p for p in points if (p.payload or {}).get("status") in allowed]
        if len(passed) >= limit or len(points) < n:
            return passed[:limit]
    scope = models.Filter(must=[status_condition(wanted)])
    return client.query_points(
        collection, query=query, query_filter=scope, limit=limit, with_payload=True
    ).points


def _create_server_collection(
    client: QdrantClient, name: str, params: models.VectorParams
) -> None:
    try:
        client.create_collection(
            name,
            vectors_config=params,
            # Per-tenant HNSW graphs only: every query is scoped to one user_id.
            hnsw_config=models.HnswConfigDiff(payload_m=16, m=0),
        )
    except Exception:
        if not client.collection_exists(name):  # lost a creation race: fine; else re-raise
            raise
    keyword = models.KeywordIndexParams(type=models.KeywordIndexType.KEYWORD, is_tenant=True)
    client.create_payload_index(name, "user_id", field_schema=keyword, wait=True)
    for field in ("status", "tier", "type", "fact_id"):
        client.create_payload_index(
            name, field, field_schema=models.PayloadSchemaType.KEYWORD, wait=True
        )
    for field in TIME_FIELDS:
        client.create_payload_index(
            name, field, field_schema=models.PayloadSchemaType.FLOAT, wait=True
        )


_blas: ThreadpoolController | None = None
_blas_lock = threading.Lock()


def _one_blas_thread() -> AbstractContextManager[object]:
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


def _probe_lock(path: Path) -> None:
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


def _local_collection_names(client: QdrantClient) -> list[str]:
    return [c.name for c in client.get_collections().collections]


def _tune_local_storage(client: QdrantClient, name: str) -> None:
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


def _payload(user_id: str, record: ArchiveRecord) -> dict[str, Any]:
    created = _epoch(record.created_at, "created_at")
    confirmed = (
        created
        if record.last_confirmed_at is None
        else _epoch(record.last_confirmed_at, "last_confirmed_at")
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


def _epoch(value: object, name: str) -> float:
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


def _hit(point: models.ScoredPoint) -> ArchiveHit:
    payload: Mapping[str, Any] = point.payload or {}
    return ArchiveHit(fact_id=str(payload["fact_id"]), score=float(point.score), payload=dict(payload))


def _check_user(user_id: str) -> None:
    if not user_id or not user_id.strip():
        raise ArchiveInputError("user_id is empty", next_step="pass the user's id")


def _describe(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()[0] if str(exc).strip() else ""
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__
