"""``wave reindex --to-server URL`` as a person runs it: a local install (Qdrant local mode under
DATA_DIR) moves to a Qdrant server with a progress bar, and says what to set next."""

from __future__ import annotations

import os
import subprocess
import sys
import uuid
from pathlib import Path

import pytest

from archive.embedder import Embedder
from wave_agent.services import Services
from wave_agent.settings import Settings
from wave_agent.write.writer import MemoryItem

pytestmark = [pytest.mark.neo4j, pytest.mark.slow]

WAVE = str(Path(sys.executable).with_name("wave"))


def _env(data: Path, neo4j_uri: str) -> dict[str, str]:
    wave_vars = {name.upper() for name in Settings.model_fields}
    env = {k: v for k, v in os.environ.items() if k.upper() not in wave_vars}
    env.update(DATA_DIR=str(data), NEO4J_URI=neo4j_uri, HF_HUB_OFFLINE="1",
               TRANSFORMERS_OFFLINE="1", LOG_LEVEL="WARNING")
    return env


def test_a_bad_url_is_one_line(tmp_path: Path, neo4j_uri: str) -> None:
    done = subprocess.run([WAVE, "reindex", "--to-server", "qdrant.example:6333"],
                          env=_env(tmp_path / "data", neo4j_uri), capture_output=True,
                          text=True, timeout=180, cwd=tmp_path)
    assert done.returncode == 2
    assert "--to-server" in done.stderr and "http://127.0.0.1:6333" in done.stderr
    assert "Traceback" not in done.stderr


async def test_local_install_moves_to_the_server(
    tmp_path: Path, neo4j_uri: str, qdrant_server: str, embedder: Embedder
) -> None:
    data = tmp_path / "data"
    user = f"move-{uuid.uuid4().hex[:8]}"
    local = Settings(_env_file=None, data_dir=data, neo4j_uri=neo4j_uri)  # type: ignore[call-arg]
    async with Services(local, embedder=embedder) as services:
        writer = await services.writer()
        await writer.remember_many(user, [MemoryItem("Я каждое утро пью зелёный чай"),
                                          MemoryItem("Моя сестра Анна живёт в Варшаве")])

    done = subprocess.run([WAVE, "reindex", "--to-server", qdrant_server, "--user", user],
                          env=_env(data, neo4j_uri), capture_output=True, text=True,
                          timeout=600, cwd=tmp_path)

    assert done.returncode == 0, done.stderr[-2000:]
    said = " ".join(done.stdout.split())  # rich wraps lines at the terminal width
    assert "moved 2 records of 1 people" in said
    assert "2 vectors copied, 0 embedded" in said
    assert f"QDRANT_URL={qdrant_server}" in said
    assert "to server" in done.stderr  # the progress bar
    on_server = local.model_copy(update={"qdrant_url": qdrant_server})
    async with Services(on_server, embedder=embedder) as services:
        hits = await (await services.archive()).search_text(user, "зелёный чай по утрам", limit=1)
    assert hits[0].payload["text"] == "Я каждое утро пью зелёный чай"
