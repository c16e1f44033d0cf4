"""Wave against a Neo4j that checks credentials, the way a production server runs.

The launcher starts the same Neo4j 5.26 jars with authentication on (``NEO4J_AUTH=true``);
Wave reaches it only through ``NEO4J_URI``, ``NEO4J_USER`` and ``NEO4J_PASSWORD``. Wrong
credentials are one line naming the settings, never a traceback.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from archive.embedder import Embedder
from graph.errors import GraphAuthError
from graph.store import GraphStore
from wave_agent.infra import localneo4j
from wave_agent.services import Services
from wave_agent.settings import Settings, load_settings

pytestmark = [pytest.mark.neo4j, pytest.mark.slow]

WAVE = str(Path(sys.executable).with_name("wave"))
USER, PASSWORD = "wave-ops", "Волна-s3cret"


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.fixture(scope="module")
def secured_uri(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A second embedded Neo4j, authentication on, for this module only."""
    launcher = Settings(  # type: ignore[call-arg]
        _env_file=None, data_dir=tmp_path_factory.mktemp("neo4j-auth"), neo4j_port=_free_port(),
        neo4j_auth=True, neo4j_user=USER, neo4j_password=PASSWORD, neo4j_heap_mb=256,
    )
    localneo4j.up(launcher, wait_s=300)
    try:
        yield launcher.effective_neo4j_uri
    finally:
        localneo4j.down(launcher)


async def test_wave_writes_and_recalls_through_the_settings(
    secured_uri: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, embedder: Embedder
) -> None:
    for name, value in {"NEO4J_URI": secured_uri, "NEO4J_USER": USER,
                        "NEO4J_PASSWORD": PASSWORD, "DATA_DIR": str(tmp_path / "data"),
                        "STORE_TIMEOUT_S": "30"}.items():  # a cold JVM on a busy machine
        monkeypatch.setenv(name, value)
    user = f"auth-{uuid.uuid4().hex[:8]}"
    async with Services(load_settings(_env_file=None), embedder=embedder) as services:
        written = await (await services.writer()).remember(user, "Я работаю инженером в Гданьске")
        hits = await (await services.recall()).search(user, "где я работаю инженером", k=3)
    assert written.fact is not None
    assert [h.fact.id for h in hits][:1] == [written.fact.id]


async def test_no_credentials_and_a_wrong_password_are_refused(secured_uri: str) -> None:
    with pytest.raises(GraphAuthError) as caught:
        await GraphStore.connect(secured_uri, USER, "wrong")
    assert "NEO4J_USER" in str(caught.value) and "NEO4J_PASSWORD" in str(caught.value)
    with pytest.raises(GraphAuthError):
        await GraphStore.connect(secured_uri, None, None)


def test_wrong_credentials_are_one_line_in_the_cli(secured_uri: str, tmp_path: Path) -> None:
    wave_vars = {name.upper() for name in Settings.model_fields}
    env = {k: v for k, v in os.environ.items() if k.upper() not in wave_vars}
    env.update(NEO4J_URI=secured_uri, NEO4J_USER=USER, NEO4J_PASSWORD="not-the-password",
               DATA_DIR=str(tmp_path / "data"), HF_HUB_OFFLINE="1", TRANSFORMERS_OFFLINE="1")
    done = subprocess.run([WAVE, "facts", "--user", "someone"], env=env, capture_output=True,
                          text=True, timeout=300, cwd=tmp_path)
    lines = [line for line in done.stderr.splitlines() if line.strip()]
    assert done.returncode == 1
    assert len(lines) == 1, done.stderr
    assert "refused the credentials" in lines[0]
    assert "NEO4J_USER" in lines[0] and "NEO4J_PASSWORD" in lines[0]
    assert "Traceback" not in done.stderr
