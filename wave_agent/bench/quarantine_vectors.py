"""The e5 passage embeddings of benchmark texts, cached on disk between runs.

The writer embeds every text it stores (``archive.Embedder.embed``, as a passage); the
quarantine's meaning layer reads that vector. The benchmark and the training script embed the
same way, once per text, and keep the vectors in ``<cache>/vectors.npz`` (texts hashed; the
cache is ``$WAVE_QUARANTINE_CACHE`` or ~/.cache/wave-quarantine), so a second run of ``wave
bench quarantine`` costs seconds, not minutes.
"""

from __future__ import annotations

import fcntl
import hashlib
import os
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from archive.embedder import Embedder

def _default_root() -> Path:
    return Path(os.environ.get("WAVE_QUARANTINE_CACHE", Path.home() / ".cache" / "wave-quarantine"))


def _key(text: str) -> str:
    return hashlib.sha1(text.encode("utf-8")).hexdigest()


class VectorCache:
    """Passage embeddings of texts, computed once (``multilingual-e5-small``, as the writer)."""

    def __init__(self, root: Path | None = None) -> None:
        self.path = (root or _default_root()) / "vectors.npz"
        self._vectors: dict[str, np.ndarray] = _read(self.path)
        self._embedder: Embedder | None = None

    def vectors(self, texts: Sequence[str], *, batch: int = 64) -> np.ndarray:
        keys = [_key(t) for t in texts]
        missing = list(dict.fromkeys(t for t, k in zip(texts, keys, strict=True) if k not in self._vectors))
        if missing:
            if self._embedder is None:
                from archive.embedder import Embedder

                self._embedder = Embedder()
            for start in range(0, len(missing), batch):
                chunk = missing[start:start + batch]
                rows = self._embedder.embed_sync(chunk)
                for text, row in zip(chunk, rows, strict=True):
                    self._vectors[_key(text)] = row.astype(np.float32)
                self.save()
        if not keys:
            return np.zeros((0, 384), dtype=np.float32)
        return np.stack([self._vectors[k] for k in keys])

    def save(self) -> None:
        """Write the cache; another process's vectors written since this one loaded are kept
        (merged under a lock), and the file is replaced whole from a temp file of this
        process's own, so two benches sharing one cache never overwrite each other's work."""
        self.path.parent.mkdir(parents=True, exist_ok=True)
        with open(self.path.with_suffix(".lock"), "a") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            for key, row in _read(self.path).items():
                self._vectors.setdefault(key, row)
            keys = list(self._vectors)
            fd, name = tempfile.mkstemp(dir=self.path.parent, prefix=".vectors-", suffix=".npz")
            try:
                with os.fdopen(fd, "wb") as out:
                    np.savez(out, keys=np.asarray(keys),
                             vectors=np.stack([self._vectors[k] for k in keys]))
                os.replace(name, self.path)
            except BaseException:
                Path(name).unlink(missing_ok=True)
                raise


def _read(path: Path) -> dict[str, np.ndarray]:
    """The cached vectors in ``path``; none when it is missing or unreadable (a cache: the
    vectors are computed again)."""
    if not path.exists():
        return {}
    try:
        with np.load(path) as data:
            return dict(zip(data["keys"].tolist(), data["vectors"], strict=True))
    except (OSError, ValueError, KeyError, EOFError):
        return {}
