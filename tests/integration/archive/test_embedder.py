"""The bundled embedding model loads with the hub offline and no network, and embeds."""

from __future__ import annotations

import asyncio
import os
import socket

import numpy as np
import pytest

from archive.embedder import BUNDLED_DIM, Embedder
from archive.errors import ArchiveInputError, EmbeddingModelError


def test_bundled_model_loads_offline_without_network(monkeypatch: pytest.MonkeyPatch) -> None:
    assert os.environ.get("HF_HUB_OFFLINE") == "1"

    def refuse(*_args: object, **_kwargs: object) -> None:
        raise OSError("network access during an offline model load")

    monkeypatch.setattr(socket.socket, "connect", refuse)
    model = Embedder("sentence-transformers/all-MiniLM-L6-v2", device="cpu")

    vectors = model.embed_sync(["Мы переезжаем в Варшаву", "We are moving to Warsaw"])

    assert model.model_name == "all-MiniLM-L6-v2"
    assert model.dim == BUNDLED_DIM == 384
    assert vectors.shape == (2, 384) and vectors.dtype == np.float32
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)


async def test_embed_runs_off_the_loop_in_batches(embedder: Embedder) -> None:
    texts = [f"note number {i}" for i in range(150)] + ["note number 3"]

    vectors = await embedder.embed(texts)

    assert vectors.shape == (151, embedder.dim)
    assert np.allclose(vectors[3], vectors[150])
    assert (await embedder.embed([])).shape == (0, embedder.dim)


async def test_repeated_query_is_served_from_the_cache(embedder: Embedder) -> None:
    first = await embedder.embed(["what did I say about tea?"])
    first[0, 0] = 42.0  # callers may scribble on their copy

    again = await embedder.embed(["what did I say about tea?"])

    assert again[0, 0] != 42.0
    assert np.isclose(np.linalg.norm(again[0]), 1.0, atol=1e-5)


async def test_bulk_calls_do_not_churn_the_query_cache(embedder: Embedder) -> None:
    before = embedder.cached
    await embedder.embed([f"bulk reindex text {i}" for i in range(100)])
    assert embedder.cached == before

    await embedder.embed(["a fresh user message for the cache"])
    assert embedder.cached == min(before + 1, 512)


def test_one_string_is_refused(embedder: Embedder) -> None:
    with pytest.raises(ArchiveInputError, match="sequence"):
        embedder.embed_sync("not a list")  # type: ignore[arg-type]


def test_unknown_model_names_embedding_model_and_next_step() -> None:
    model = Embedder("no-such-org/no-such-model-xyz", device="cpu")

    with pytest.raises(EmbeddingModelError) as caught:
        model.embed_sync(["hello"])

    message = str(caught.value)
    assert "EMBEDDING_MODEL='no-such-org/no-such-model-xyz'" in message
    assert "bundled all-MiniLM-L6-v2" in message
    assert caught.value.next_step


async def test_concurrent_embeds_from_many_tasks(embedder: Embedder) -> None:
    """The writer and recall embed at the same time; one shared tokenizer must not break."""
    texts = [[f"concurrent message {i} about the weekend trip"] for i in range(12)]

    results = await asyncio.gather(*(embedder.embed(t) for t in texts))

    assert all(r.shape == (1, embedder.dim) for r in results)
    assert not np.allclose(results[0], results[1])
