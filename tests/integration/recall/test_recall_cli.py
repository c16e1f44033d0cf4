"""`wave recall --json` through the real command line (one subprocess)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from wave_agent.services import Services
from wave_agent.settings import Settings

pytestmark = pytest.mark.neo4j


async def test_wave_recall_json_shape(settings: Settings, user_id: str) -> None:
    async with Services(settings) as services:
        writer = await services.writer()
        await writer.remember(user_id, "My daughter Zoe plays football on Thursdays")
        await writer.remember(user_id, "I am allergic to peanuts")
    env = {**os.environ, "DATA_DIR": str(settings.data_dir), "NEO4J_URI": str(settings.neo4j_uri),
           "HF_HUB_OFFLINE": "1", "LOG_LEVEL": "WARNING"}
    wave = Path(sys.executable).with_name("wave")
    done = subprocess.run(
        [str(wave), "recall", "when does Zoe play football", "--k", "2", "--json",
         "--user", user_id],
        capture_output=True, text=True, env=env, timeout=300, check=False,
    )
    assert done.returncode == 0, done.stderr
    hits = json.loads(done.stdout)
    assert hits and "Zoe" in hits[0]["text"]
    assert {"id", "text", "score", "tier", "status", "ranks"} <= set(hits[0])
    assert set(hits[0]["ranks"]) == {"lexical", "semantic", "temporal", "graph", "dated"}
    assert hits[0]["status"] == "active" and hits[0]["score"] >= hits[-1]["score"]
