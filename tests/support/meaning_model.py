"""The quarantine meaning layer's inputs for tests: the e5 vector the writer computes, and a model
saved by a test, read back as the writer reads ``meaning.npz``."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import numpy as np

from archive.embedder import Embedder
from wave_agent.policy.quarantine import meaning


@lru_cache(maxsize=1)
def embedder() -> Embedder:
    """The e5 embedder the writer uses, loaded once for the tests that share it."""
    return Embedder()


def e5_vector(text: str) -> np.ndarray:
    """The e5 passage vector the writer computes for ``text``."""
    return embedder().embed_sync([text])[0]


def saved_model(path: Path) -> meaning.Model | None:
    """The model saved at ``path``, read through ``meaning.model`` (its cache cleared after)."""
    meaning.MODELS["test"] = path
    try:
        return meaning.model("test")
    finally:
        del meaning.MODELS["test"]
        meaning.model.cache_clear()
