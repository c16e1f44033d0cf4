"""The writer's side of the archive: every fact write updates the index in the same operation.

The graph is the system of record; the archive is derived. When the archive cannot be
reached (Qdrant local directory held by ``wave run``: ``ArchiveLocked``; a server down), the
graph write still happens and the fact carries ``needs_index=true``: ``wave reindex`` and
maintenance drift repair re-send it (``ArchiveSync.repair``) and clear the flag.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np

from archive.errors import ArchiveLocked, ArchiveUnavailable
from archive.models import ArchiveRecord
from graph.models import Fact
from wave_agent.write.result import ArchiveState

if TYPE_CHECKING:
    from archive.embedder import Embedder
    from archive.store import ArchiveStore

log = logging.getLogger("wave.writer.archive")

# An archive that cannot be reached (down, or the local directory held by another process):
# the write goes on and the record waits for reindex. Every other error (a vector of the wrong
# dimension, an embedding model that fails, a bug) is raised: "pending" would hide it forever.
_OUTAGE = (ArchiveLocked, ArchiveUnavailable)


def archive_record(fact: Fact, vector: np.ndarray | None = None) -> ArchiveRecord:
    return ArchiveRecord(
        fact_id=fact.id,
        text=fact.text,
        type=fact.type.value,
        tier=fact.tier.value,
        status=fact.status.value,
        created_at=fact.created_at,
        last_confirmed_at=fact.last_confirmed_at,
        vector=vector,
    )


class ArchiveSync:
    """Upserts and deletes against an archive that may be missing (``None``) or fail."""

    def __init__(
        self, embedder: Embedder, archive: ArchiveStore | None, *, problem: str | None = None
    ) -> None:
        self.embedder = embedder
        self.archive = archive
        self.problem = problem if archive is None else None

    @property
    def available(self) -> bool:
        return self.archive is not None

    async def upsert(
        self, user_id: str, facts: Sequence[Fact], vectors: np.ndarray | None = None
    ) -> ArchiveState:
        """Index ``facts`` (their current state); PENDING when the archive is unavailable."""
        if not facts:
            return ArchiveState.NONE
        if self.archive is None:
            return ArchiveState.PENDING
        if vectors is None:
            vectors = await self.embedder.embed([f.text for f in facts])
        records = [archive_record(f, v) for f, v in zip(facts, vectors, strict=True)]
        try:
            await self.archive.upsert(user_id, records)
        except _OUTAGE as exc:
            self._lost(exc)
            return ArchiveState.PENDING
        self._back()
        return ArchiveState.INDEXED

    async def delete(self, user_id: str, fact_ids: Sequence[str]) -> ArchiveState:
        if self.archive is None:
            return ArchiveState.PENDING
        try:
            await self.archive.delete(user_id, list(fact_ids))
        except _OUTAGE as exc:
            self._lost(exc)
            return ArchiveState.PENDING
        return ArchiveState.REMOVED

    async def search(
        self, user_id: str, vector: np.ndarray, *, limit: int
    ) -> list[tuple[str, float]]:
        """Active records nearest to ``vector`` as (fact id, cosine); [] when unavailable."""
        if self.archive is None:
            return []
        try:
            hits = await self.archive.search(user_id, vector, limit=limit, statuses=("active",))
        except _OUTAGE as exc:
            self._lost(exc)
            return []
        out: list[tuple[str, float]] = []
        for hit in hits:
            if isinstance(hit, tuple):
                out.append((str(hit[0]), float(hit[1])))
            else:
                out.append((hit.fact_id, float(hit.score)))
        return out

    def _back(self) -> None:
        if self.problem is not None:
            log.warning("archive available again; `wave reindex` sends the records it missed")
            self.problem = None

    def _lost(self, exc: ArchiveLocked | ArchiveUnavailable) -> None:
        if self.problem != str(exc):  # once per outage, not once per write
            log.warning("archive unavailable, fact writes go to the graph with needs_index: %s",
                        exc)
        self.problem = str(exc)
