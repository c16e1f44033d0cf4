"""The reader's e5 illness step runs on the process's own e5 embedder when there is one (a
second copy of the model would cost the bot about 0.5-0.8 GB and seconds on its first doctor)."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from archive.embedder import Embedder
from wave_agent.world import kinds


@pytest.fixture
def fresh_index():
    saved = kinds._e5_index, kinds._e5_shared
    kinds._e5_index, kinds._e5_shared = None, None
    kinds.e5_illness.cache_clear()
    yield
    kinds._e5_index, kinds._e5_shared = saved
    kinds.e5_illness.cache_clear()


def test_the_illness_step_reads_with_the_shared_e5(fresh_index: None) -> None:
    embedder = Embedder(kinds.E5_READS)
    kinds.share_embedder(embedder)
    assert kinds.e5_illness("гипотиреоз")
    assert kinds._e5_index is not None and kinds._e5_index[0] is embedder


def test_another_model_is_not_shared(fresh_index: None) -> None:
    kinds.share_embedder(SimpleNamespace(model_name="all-MiniLM-L6-v2"))
    assert kinds._e5_shared is None
