"""The semantic archive over Qdrant: a derived index of facts, rebuildable from the graph.

One synchronous ``QdrantClient`` per store, called through ``asyncio.to_thread``: Qdrant's
local mode is in-process numpy and ``AsyncQdrantLocal`` would run every scan on the event loop
thread. Local mode is single-threaded inside, so its calls are serialised by a lock (and run
with one BLAS thread; ``archive.local_mode`` holds the local-mode measures). The client opens
on first use (or ``await store.open()``), never in the constructor; a locked local directory
becomes ``ArchiveLocked`` and a later call retries the open.
"""

from __future__ import annotations

import asyncio
import logging
import math
import sqlite3
import threading
from collections.abc import Callable, Iterable, Sequence
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import grpc
import numpy as np
from qdrant_client import QdrantClient, models
from qdrant_client.common.client_exceptions import ResourceExhaustedResponse
from qdrant_client.http.exceptions import ResponseHandlingException, UnexpectedResponse

from archive.errors import ArchiveError, ArchiveInputError, ArchiveLocked, ArchiveUnavailable
from archive.layout import PREFIX, Layout, point_id
from archive.local_mode import (
    LOCK_MESSAGE,
    collection_names,
    compact_storage,
    holder_pid,
    one_blas_thread,
    overfetch,
    probe_lock,
    tune_storage,
)
from archive.models import MUTABLE_FIELDS, TIME_FIELDS, ArchiveHit, ArchiveRecord, Vector
from archive.payload import epoch, to_hit, to_payload
from archive.server_mode import create_server_collection

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
# What the client raises when the archive cannot be reached: a server that is down, refuses
# the key, or answers 5xx/429; a local storage whose file cannot be read or written. Only these
# are translated to ArchiveUnavailable at this boundary (the writer then marks the record
# pending). Anything else (a ValueError, a 4xx refusing a request, a RuntimeError) is a bug in
# how the archive is called and propagates as it is: an outage must not hide it.
_TRANSPORT_ERRORS: tuple[type[BaseException], ...] = (
    ResponseHandlingException,  # httpx transport errors: refused, reset, timed out
    ResourceExhaustedResponse,
    OSError,
    sqlite3.OperationalError,  # the local storage's file: locked, I/O error, disk full
)


# gRPC status codes of an outage (server down or restarting, timed out, overloaded, key refused);
# any other code (INVALID_ARGUMENT, NOT_FOUND, ...) is a bug in the call and stays loud.
_GRPC_OUTAGE = frozenset({
    grpc.StatusCode.UNAVAILABLE,
    grpc.StatusCode.DEADLINE_EXCEEDED,
    grpc.StatusCode.RESOURCE_EXHAUSTED,
    grpc.StatusCode.UNAUTHENTICATED,
    grpc.StatusCode.PERMISSION_DENIED,
    grpc.StatusCode.CANCELLED,
})


def _unavailable(exc: BaseException) -> bool:
    if isinstance(exc, grpc.RpcError):
        code = getattr(exc, "code", None)
        return callable(code) and code() in _GRPC_OUTAGE
    if isinstance(exc, UnexpectedResponse):
        code = exc.status_code or 0
        return code >= 500 or code in (401, 403, 408, 429)
    return isinstance(exc, _TRANSPORT_ERRORS)


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
        grpc_port: int | None = None,
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
        # Server only: talk gRPC on this port (bulk writes ~1.5x faster than REST, see
        # docs/benchmarks.md "Scale"); None keeps REST on ``url``.
        self.grpc_port = grpc_port if url is not None else None
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
        grpc_port: int | None = None,
    ) -> ArchiveStore:
        """A Qdrant server at ``url``; ``grpc_port`` (``QDRANT_GRPC_PORT``) switches the client
        to gRPC on the server's host and that port."""
        return cls(
            model_name=model_name,
            dim=dim,
            url=url,
            api_key=api_key,
            timeout_s=timeout_s,
            embedder=embedder,
            grpc_port=grpc_port,
        )

    @property
    def is_local(self) -> bool:
        return self.path is not None

    @property
    def where(self) -> str:
        if self.path is not None:
            return str(self.path)
        return f"{self.url} (gRPC port {self.grpc_port})" if self.grpc_port else str(self.url)

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
                probe_lock(self.path)
                client = QdrantClient(path=str(self.path))
            except RuntimeError as exc:
                # Only the lock is an outage; any other RuntimeError is a bug and stays loud.
                if LOCK_MESSAGE in str(exc):
                    raise ArchiveLocked(self.path, holder_pid(self.path / ".lock")) from exc
                raise
            except (OSError, sqlite3.Error) as exc:  # the storage itself: disk, files
                raise ArchiveUnavailable(self.where, f"{type(exc).__name__}: {exc}") from exc
            for name in collection_names(client):
                tune_storage(client, name)
            log.info("opened the local archive at %s", self.path)
            return client
        grpc: dict[str, Any] = (
            {"prefer_grpc": True, "grpc_port": self.grpc_port} if self.grpc_port else {}
        )
        client = QdrantClient(
            url=self.url,
            api_key=self._api_key,
            timeout=max(1, math.ceil(self._timeout_s)),
            check_compatibility=False,
            **grpc,
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
            with self._io_lock, one_blas_thread():
                return fn(client)
        except Exception as exc:
            if _unavailable(exc):
                raise ArchiveUnavailable(self.where, _describe(exc)) from exc
            raise

    # Collections -------------------------------------------------------------------------

    async def other_models(self, user_id: str) -> list[str]:
        """Collections of this user made by another embedding model or dimension (their
        ``<model>__<dim>`` part): an archive from before an EMBEDDING_MODEL change, which this
        store never searches. ``wave reindex`` embeds the graph's records with the current one."""
        _check_user(user_id)
        own = self.layout.collection(user_id)
        suffix = own[len(self.layout.base):]  # "__u_<hash>" locally, "" on a server

        def read(client: QdrantClient) -> list[str]:
            found = []
            for name in collection_names(client):
                if name == own or not name.startswith(PREFIX + "__"):
                    continue
                if suffix and not name.endswith(suffix):
                    continue
                middle = name[len(PREFIX) + 2: len(name) - len(suffix)]
                if middle.count("__") == 1 and client.count(name, exact=False).count:
                    found.append(middle)
            return sorted(found)

        return await self._run(read)

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
            tune_storage(client, name)
        else:
            params = models.VectorParams(size=self.dim, distance=models.Distance.COSINE)
            create_server_collection(client, name, params)
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
        rows: list[Vector | None] = [r.vector for r in items]
        if missing:
            embedded = await self._embedder_for("upsert records without vectors").embed(
                [items[i].text for i in missing]
            )
            for i, row in zip(missing, embedded, strict=True):
                rows[i] = row
        # One matrix, normalised at once, one ``tolist``: building the points is a small part of
        # a bulk write (wave bench scale); the payloads are validated before anything is sent.
        vectors = self._matrix([row for row in rows if row is not None]).tolist()
        points = [
            models.PointStruct(
                id=point_id(user_id, r.fact_id), vector=vec, payload=to_payload(user_id, r)
            )
            for r, vec in zip(items, vectors, strict=True)
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
            key: epoch(value, key) if key in TIME_FIELDS else str(value)
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

    async def compact(self, user_id: str) -> bool:
        """After an erasure, drop the old bytes a delete leaves in local mode's SQLite file (WAL
        checkpoint, then VACUUM). Server mode: Qdrant's optimizer vacuums segments itself
        (see README, "Privacy"); nothing to do here. True when compacted."""
        _check_user(user_id)
        if not self.is_local:
            return False
        collection = self.layout.collection(user_id)

        def write(client: QdrantClient) -> bool:
            if not self._has_collection(client, collection):
                return True
            return compact_storage(client, collection)

        return await self._run(write)

    # Reads -------------------------------------------------------------------------------

    async def search(
        self,
        user_id: str,
        vector: Vector,
        *,
        limit: int = 10,
        statuses: Sequence[str] | None = DEFAULT_STATUSES,
        created: tuple[datetime, datetime] | None = None,
    ) -> list[ArchiveHit]:
        """Nearest facts of one user, best first; ``statuses=None`` means every status.

        ``created``: only records created in ``[start, end)`` (a question that names a date).
        """
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

        scope = self.layout.scope(user_id, wanted)
        if created is not None:
            period = models.FieldCondition(key="created_at", range=models.Range(
                gte=epoch(created[0], "created[0]"), lt=epoch(created[1], "created[1]")))
            scope = models.Filter(must=[*(scope.must if scope else []), period])  # type: ignore[misc]

        def read(client: QdrantClient) -> list[models.ScoredPoint]:
            if not self._has_collection(client, collection):
                return []
            if self.layout.per_user and wanted is not None and created is None:
                return overfetch(client, collection, query, limit, wanted)
            result = client.query_points(
                collection,
                query=query,
                query_filter=scope,
                limit=limit,
                with_payload=True,
            )
            return result.points

        points = await self._run(read)
        return [to_hit(p) for p in points]

    async def search_text(
        self,
        user_id: str,
        text: str,
        *,
        limit: int = 10,
        statuses: Sequence[str] | None = DEFAULT_STATUSES,
    ) -> list[ArchiveHit]:
        """Embed ``text`` with the store's embedder, then ``search``."""
        vectors = await self._embedder_for("search_text").embed_query([text])
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

    def _matrix(self, rows: Sequence[Vector]) -> np.ndarray:
        """The rows as one unit-length float32 matrix; the same checks as ``_vector``."""
        arrays = [np.asarray(row, dtype=np.float32).reshape(-1) for row in rows]
        for array in arrays:
            if array.shape[0] != self.dim:
                self._vector(array)  # raises the one-line error naming the dimensions
        matrix = np.stack(arrays) if arrays else np.zeros((0, self.dim), dtype=np.float32)
        norms = np.linalg.norm(matrix, axis=1)
        bad = ~np.isfinite(norms) | (norms == 0.0)
        if bad.any():
            self._vector(arrays[int(np.argmax(bad))])  # raises: zero or not finite
        normed: np.ndarray = matrix / norms[:, None]
        return normed

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


def _check_user(user_id: str) -> None:
    if not user_id or not user_id.strip():
        raise ArchiveInputError("user_id is empty", next_step="pass the user's id")


def _describe(exc: BaseException) -> str:
    if isinstance(exc, grpc.RpcError) and callable(getattr(exc, "code", None)):
        details = exc.details() if callable(getattr(exc, "details", None)) else ""
        return f"gRPC {exc.code().name}: {details}".rstrip(": ")
    text = str(exc).strip().splitlines()[0] if str(exc).strip() else ""
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__
