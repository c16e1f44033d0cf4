"""Core-block updates written while Letta is down: the health report names them and the
``blocks`` job keeps them (an error in its report, never an exception) until Letta answers.

Letta is really down here: the store points at a port nothing listens on. The landing side,
with a real Letta server, is ``tests/integration/letta/test_letta_queue_maintenance.py``."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys

import pytest

from archive.embedder import Embedder
from tests.integration.maintenance.conftest import share_embedder
from wave_agent.blocks.letta_store import BlockUpdateQueued, LettaBlockStore
from wave_agent.blocks.store import HUMAN, PERSONA
from wave_agent.ops.health import health_report, render_text
from wave_agent.ops.maintenance.runner import run_maintenance
from wave_agent.services import Services
from wave_agent.settings import Settings


def _dead_url() -> str:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return f"http://127.0.0.1:{sock.getsockname()[1]}"


def _wave(settings: Settings, *args: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("NEO4J_", "LLM_", "LETTA_"))}
    env.update(DATA_DIR=str(settings.data_dir), NEO4J_URI=str(settings.neo4j_uri),
               LETTA_BASE_URL=str(settings.letta_base_url), HF_HUB_OFFLINE="1",
               LOG_LEVEL="WARNING", COLUMNS="200")
    wave = os.path.join(os.path.dirname(sys.executable), "wave")
    return subprocess.run([wave, *args], env=env, capture_output=True, text=True,
                          timeout=300, check=False)


async def test_updates_queued_while_letta_is_down_are_reported_and_kept(
    settings: Settings, embedder: Embedder, user_id: str
) -> None:
    down = settings.model_copy(update={"letta_base_url": _dead_url()})
    async with Services(down) as services:
        share_embedder(services, embedder)
        blocks = await services.blocks()
        assert isinstance(blocks, LettaBlockStore)
        with pytest.raises(BlockUpdateQueued):
            await blocks.set(user_id, HUMAN, "Marta, moved to Gdynia", reason="turn 2: she moved")
        with pytest.raises(BlockUpdateQueued):
            await blocks.set(user_id, PERSONA, "Wave for Marta, brief", reason="turn 2: style")

        report = await health_report(services.ops_stores(), user_id)
        assert report.letta_pending == 2
        assert report.letta_pending_since is not None
        [warning] = [w for w in report.warnings() if "core-block" in w]
        assert warning.startswith("2 core-block update(s) waiting for Letta since ")
        assert "`wave maintain --job blocks`" in warning
        data = report.as_json()
        assert data["letta_pending"] == 2 and data["letta_pending_since"]
        assert warning in data["warnings"]
        assert "core-block updates waiting for Letta: 2" in render_text(report)
        # Another person's report does not count this person's updates.
        other = await health_report(services.ops_stores(), f"{user_id}-other")
        assert other.letta_pending == 0
        assert not [w for w in other.warnings() if "core-block" in w]

        (dry,) = await run_maintenance(services.ops_stores(), jobs=["blocks"], dry_run=True)
        assert dry.ok and sorted(a.ids for a in dry.actions) == [(HUMAN,), (PERSONA,)]
        assert all(a.user_id == user_id and not a.applied for a in dry.actions)

        (run,) = await run_maintenance(services.ops_stores(), jobs=["blocks"])
        assert run.errors and "Letta" in run.errors[0]
        assert "retried next run" in run.summary()
        assert not any(a.applied for a in run.actions)
        assert await blocks.pending_count() == 2  # kept, in order, for the next run

        (scoped,) = await run_maintenance(services.ops_stores(), jobs=["blocks"], user_ids=[user_id])
        assert len(scoped.errors) == 2 and all(user_id in e for e in scoped.errors)
        assert await blocks.pending_count() == 2

    # As a person runs it: the job's error, exit status 1, the entries still queued.
    done = _wave(down, "maintain", "--job", "blocks", "--json")
    assert done.returncode == 1, done.stderr
    [job] = json.loads(done.stdout)["jobs"]
    assert job["job"] == "blocks" and job["errors"]
    assert {a["user_id"] for a in job["actions"]} == {user_id}
    text = _wave(down, "maintain", "--job", "blocks", "--dry-run")
    assert text.returncode == 0, text.stderr
    assert f"block-update {user_id} [human] 1 update(s) queued since" in text.stdout
    async with Services(down) as services:
        assert await (await services.blocks()).pending_count() == 2  # type: ignore[attr-defined]


async def test_markdown_blocks_have_no_queue(
    settings: Settings, embedder: Embedder, user_id: str
) -> None:
    assert settings.letta_base_url is None
    async with Services(settings) as services:
        share_embedder(services, embedder)
        report = await health_report(services.ops_stores(), user_id)
        assert report.letta_pending is None and report.as_json()["letta_pending"] is None
        assert "core-block updates" not in render_text(report)
        (run,) = await run_maintenance(services.ops_stores(), jobs=["blocks"])
        assert run.ok and run.actions == []
