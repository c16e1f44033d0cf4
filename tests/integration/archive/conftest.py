"""The archive contract runs on Qdrant local mode (its own per-user layout, and the server's
shared-collection layout with user filters) and, when WAVE_TEST_QDRANT_URL is set, on a Qdrant
server (the session's ``qdrant_url``: ``scripts/test.d/qdrant.up`` starts one, or the session
does when the binary exists), over REST and over gRPC (``QDRANT_GRPC_PORT``; the port is
WAVE_TEST_QDRANT_GRPC_PORT or the one the session's server listens on). Local stores live in ``tmp_path``; the embedder is the session's
bundled model. Server calls get a generous timeout: on a busy machine a 5 s default is not a
test of Wave."""

from __future__ import annotations

import os
from collections.abc import AsyncIterator, Callable
from pathlib import Path

import pytest

from archive.embedder import Embedder
from archive.store import ArchiveStore

SERVER_TIMEOUT_S = 60.0

StoreFactory = Callable[..., ArchiveStore]


@pytest.fixture(params=["local", "local-shared", "server", "server-grpc"])
async def make_store(
    request: pytest.FixtureRequest, tmp_path: Path, embedder: Embedder, qdrant_url: str | None,
    qdrant_grpc_port: int | None,
) -> AsyncIterator[StoreFactory]:
    """Builds stores of one backend; ``make_store(model_name=..., dim=...)`` for other models.

    Every store built here is closed after the test. On a server, tests are isolated by their
    fresh ``user_id``; locally each test has its own directory.
    """
    url = qdrant_url
    if request.param.startswith("server") and not url:
        from wave_agent.infra.localqdrant import missing_binary_reason

        pytest.skip(missing_binary_reason())
    if request.param == "server-grpc" and qdrant_grpc_port is None:
        pytest.skip("the Qdrant server's gRPC port is unknown (set WAVE_TEST_QDRANT_GRPC_PORT)")
    built: list[ArchiveStore] = []

    def build(
        *, model_name: str | None = None, dim: int | None = None, with_embedder: bool = True
    ) -> ArchiveStore:
        name = model_name or embedder.model_name
        size = dim or embedder.dim
        model = embedder if with_embedder and name == embedder.model_name else None
        if request.param.startswith("local"):
            store = ArchiveStore.local(
                tmp_path / "qdrant", model_name=name, dim=size, embedder=model,
                per_user=request.param == "local",
            )
        else:
            assert url is not None
            store = ArchiveStore.server(
                url,
                api_key=os.environ.get("WAVE_TEST_QDRANT_API_KEY"),
                model_name=name,
                dim=size,
                embedder=model,
                timeout_s=SERVER_TIMEOUT_S,
                grpc_port=qdrant_grpc_port if request.param == "server-grpc" else None,
            )
        built.append(store)
        return store

    yield build
    for store in built:
        await store.close()


@pytest.fixture
async def store(make_store: StoreFactory) -> ArchiveStore:
    return make_store()
