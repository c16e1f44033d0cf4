"""The quarantine bench's vector cache is shared by every bench and training run on the machine:
two runs saving at once keep both their vectors, and a broken cache file is computed again."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from wave_agent.bench.quarantine_vectors import VectorCache


def _with(cache: VectorCache, key: str, value: float) -> VectorCache:
    cache._vectors[key] = np.full(384, value, dtype=np.float32)
    return cache


def test_two_runs_saving_one_cache_keep_both_their_vectors(tmp_path: Path) -> None:
    first, second = VectorCache(tmp_path), VectorCache(tmp_path)  # both loaded the empty cache
    _with(first, "a", 1.0).save()
    _with(second, "b", 2.0).save()  # loaded before "a" was saved: must not drop it
    again = VectorCache(tmp_path)
    assert set(again._vectors) == {"a", "b"}
    assert float(again._vectors["a"][0]) == 1.0 and float(again._vectors["b"][0]) == 2.0
    assert [p.name for p in tmp_path.iterdir() if p.suffix == ".npz"] == ["vectors.npz"]


def test_a_broken_cache_file_is_started_again_not_an_error(tmp_path: Path) -> None:
    (tmp_path / "vectors.npz").write_bytes(b"not a numpy file")
    cache = VectorCache(tmp_path)
    assert cache._vectors == {}
    _with(cache, "a", 1.0).save()
    assert set(VectorCache(tmp_path)._vectors) == {"a"}
