"""A quarantine meaning model saved by a test, read back as the writer reads ``meaning.npz``."""

from __future__ import annotations

from pathlib import Path

from wave_agent.policy.quarantine import meaning


def saved_model(path: Path) -> meaning.Model | None:
    """The model saved at ``path``, read through ``meaning.model`` (its cache cleared after)."""
    meaning.MODELS["test"] = path
    try:
        return meaning.model("test")
    finally:
        del meaning.MODELS["test"]
        meaning.model.cache_clear()
