"""The question's e5 vector with its language taken out (``language.npz``;
``RecallConfig.language_neutral``).

multilingual-e5 puts two texts in one language closer than their meaning alone would: over a
mostly Russian memory an English or Polish question's nearest records include unrelated English
or Polish lines, pulled up by the language. ``language.npz`` holds an orthonormal basis ``B``
(DIM x r) of the directions between the per-language means of the tuning months' questions and
messages (``scripts/train_language.py``). ``neutral(q) = normalise(q - B B^T q)``: since
``(q - B B^T q) . d = q . (d - B B^T d)``, taking the component out of the question takes it out
of every cosine with a stored record too, and no stored vector changes.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import numpy as np

MODEL = Path(__file__).parent / "language.npz"
READS = "multilingual-e5-small"  # the one embedding model the directions were read from


@lru_cache(maxsize=1)
def basis() -> np.ndarray | None:
    """``B`` (DIM x r, float32, orthonormal columns), or None when the file is absent."""
    if not MODEL.exists():
        return None
    with np.load(MODEL, allow_pickle=False) as d:
        return np.asarray(d["basis"], dtype=np.float32)


def save(b: np.ndarray, path: Path = MODEL, **meta: object) -> None:
    arrays: dict[str, np.ndarray] = {k: np.asarray(v) for k, v in meta.items()}
    arrays["basis"] = np.asarray(b, dtype=np.float32)
    np.savez_compressed(path, **arrays)  # type: ignore[arg-type]
    basis.cache_clear()


def neutral(model_name: str, vector: np.ndarray) -> np.ndarray:
    """``vector`` with its component along the language directions taken out, norm 1;
    unchanged for another model, another dimension or without the file."""
    b = basis()
    q = np.asarray(vector, dtype=np.float32)
    if b is None or model_name != READS or q.shape != (b.shape[0],):
        return q
    moved = q - b @ (b.T @ q)
    norm = float(np.linalg.norm(moved))
    return (moved / norm).astype(np.float32) if norm > 0 else q
