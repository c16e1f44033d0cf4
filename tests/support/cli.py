"""Running the ``wave`` command as a person would: a fresh process, an environment that holds
none of the developer's Wave settings, and the working directory beside its DATA_DIR."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import uuid
from pathlib import Path

from wave_agent.settings import Settings

WAVE = str(Path(sys.executable).with_name("wave"))


def cli_env(data_dir: Path, neo4j_uri: str, **settings: str) -> dict[str, str]:
    """The process environment with every Wave setting of the caller's shell removed, a fresh
    person and ``DATA_DIR``, offline model hubs, and ``settings`` on top."""
    names = {n.upper() for n in Settings.model_fields}
    env = {k: v for k, v in os.environ.items() if k.upper() not in names}
    env.update(DATA_DIR=str(data_dir), NEO4J_URI=neo4j_uri, HF_HUB_OFFLINE="1",
               TRANSFORMERS_OFFLINE="1", DEFAULT_USER=f"cli-{uuid.uuid4().hex[:8]}",
               LOG_LEVEL="WARNING")
    env.update(settings)
    return env


def wave(env: dict[str, str], *args: str, timeout: float = 900) -> subprocess.CompletedProcess[str]:
    return subprocess.run([WAVE, *args], env=env, capture_output=True, text=True,
                          timeout=timeout, cwd=Path(env["DATA_DIR"]).parent)


def ok_json(env: dict[str, str], *args: str, timeout: float = 900) -> object:
    """``wave ARGS --json``, which must succeed; its output parsed."""
    done = wave(env, *args, "--json", timeout=timeout)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)
