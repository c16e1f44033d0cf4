"""``wave maintain --dry-run --json`` and ``wave reindex --check --json`` as a person runs
them (subprocess, real stores): the dry run lists what it would do and changes nothing; the
drift check is the same definition maintenance repairs."""

from __future__ import annotations

import json
import os
import subprocess
import sys

from graph.models import utcnow
from tests.integration.maintenance.conftest import days_ago
from wave_agent.services import Services
from wave_agent.settings import Settings
from wave_agent.write.writer import MemoryItem


def _wave(settings: Settings, *args: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("NEO4J_", "LLM_"))}
    env.update(DATA_DIR=str(settings.data_dir), NEO4J_URI=str(settings.neo4j_uri),
               HF_HUB_OFFLINE="1", LOG_LEVEL="WARNING")
    wave = os.path.join(os.path.dirname(sys.executable), "wave")
    return subprocess.run([wave, *args], env=env, capture_output=True, text=True,
                          timeout=300, check=False)


async def test_cli_dry_run_and_drift_check(settings: Settings, user_id: str,
                                           embedder: object) -> None:
    now = utcnow()
    async with Services(settings) as services:
        services._cache["embedder"] = embedder
        writer = await services.writer()
        (stale,) = await writer.remember_many(user_id, [
            MemoryItem("The user collects vintage fountain pens", created_at=days_ago(now, 40))])
        assert stale.fact is not None
        await (await services.archive()).delete(user_id, [stale.fact.id])
    # the archive's local directory is free again: the subprocesses can open it

    done = _wave(settings, "maintain", "--dry-run", "--json", "--user", user_id)
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert data["dry_run"] is True
    kinds = {a["kind"]: a["ids"] for job in data["jobs"] for a in job["actions"]}
    assert kinds["archived"] == [stale.fact.id]
    assert kinds["reindexed"] == [stale.fact.id]

    check = _wave(settings, "reindex", "--check", "--json", "--user", user_id)
    assert check.returncode == 0, check.stderr
    assert json.loads(check.stdout)["facts_without_vectors"] == [stale.fact.id]  # unchanged

    unknown = _wave(settings, "maintain", "--job", "tidy-up")
    assert unknown.returncode != 0 and "use one of: expire" in unknown.stderr
