"""The semantic archive: sentence embeddings in Qdrant, a derived index of the graph's facts.

``Embedder`` (sentence-transformers, bundled all-MiniLM-L6-v2 by default) and ``ArchiveStore``
(Qdrant local mode or a server). Never imports ``wave_agent``.
"""

from archive.errors import (
    ArchiveError,
    ArchiveInputError,
    ArchiveLocked,
    ArchiveUnavailable,
    EmbeddingModelError,
)
from archive.models import ArchiveHit, ArchiveRecord

__all__ = [
    "ArchiveError",
    "ArchiveHit",
    "ArchiveInputError",
    "ArchiveLocked",
    "ArchiveRecord",
    "ArchiveUnavailable",
    "EmbeddingModelError",
]
