"""Updates queued while Letta was down land through the ``blocks`` maintenance job once a
real Letta server answers, with no read of the block in between; health counts them until
then. (The queue lives in DATA_DIR, so a store on the down URL and one on the real server
share it, as a process restarted after the outage would.)"""

from __future__ import annotations

import socket
from pathlib import Path

import pytest

from archive.embedder import Embedder
from wave_agent.blocks.letta_store import BlockUpdateQueued, LettaBlockStore
from wave_agent.blocks.store import HUMAN, PERSONA
from wave_agent.ops.health import health_report
from wave_agent.ops.maintenance.runner import run_maintenance
from wave_agent.services import Services
from wave_agent.settings import Settings

pytestmark = pytest.mark.letta


def _dead_url() -> str:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return f"http://127.0.0.1:{sock.getsockname()[1]}"


async def test_the_blocks_job_lands_updates_queued_while_letta_was_down(
    letta_url: str, neo4j_uri: str, tmp_path: Path, embedder: Embedder, uid: str
) -> None:
    other = f"{uid}-b"
    up = Settings(_env_file=None, data_dir=tmp_path / "data",  # type: ignore[call-arg]
                  neo4j_uri=neo4j_uri, letta_base_url=letta_url)
    down = up.model_copy(update={"letta_base_url": _dead_url()})
    async with Services(down, embedder=embedder) as services:
        blocks = await services.blocks()
        for who, label, value in ((uid, HUMAN, "Marta, moved to Gdynia"),
                                  (uid, PERSONA, "Wave for Marta, brief"),
                                  (other, HUMAN, "Olek, a nurse")):
            with pytest.raises(BlockUpdateQueued):
                await blocks.set(who, label, value, reason="written during the outage")

    async with Services(up, embedder=embedder) as services:
        blocks = await services.blocks()
        assert isinstance(blocks, LettaBlockStore)
        assert (await health_report(services.ops_stores(), uid)).letta_pending == 2

        # One person's run lands only that person's updates.
        (mine,) = await run_maintenance(services.ops_stores(), jobs=["blocks"], user_ids=[uid])
        assert mine.ok, mine.errors
        assert sorted(a.ids for a in mine.actions) == [(HUMAN,), (PERSONA,)]
        assert all(a.applied for a in mine.actions)
        assert [u.user_id for u in await blocks.pending_updates()] == [other]

        # The scheduled pass (every user) lands the rest.
        (everyone,) = await run_maintenance(services.ops_stores(), jobs=["blocks"])
        assert everyone.ok, everyone.errors
        assert [(a.user_id, a.ids, a.applied) for a in everyone.actions] == [
            (other, (HUMAN,), True)]
        assert await blocks.pending_count() == 0

        human = await blocks.get(uid, HUMAN)
        assert (human.value, human.version) == ("Marta, moved to Gdynia", 1)
        assert (await blocks.get(uid, PERSONA)).value == "Wave for Marta, brief"
        assert (await blocks.get(other, HUMAN)).value == "Olek, a nurse"
        [version] = await blocks.history(uid, HUMAN)
        assert version.reason.startswith("written during the outage (written while Letta was")

        report = await health_report(services.ops_stores(), uid)
        assert report.letta_pending == 0 and report.letta_pending_since is None
        assert not [w for w in report.warnings() if "core-block" in w]
        (again,) = await run_maintenance(services.ops_stores(), jobs=["blocks"])
        assert again.ok and again.actions == []
