"""The Letta server stopped mid-conversation: the turn goes on without blocks, and the block
update written meanwhile lands once the server is back (the real server process is stopped
and started again with scripts/letta_stack.sh)."""

from __future__ import annotations

import time
from collections.abc import Callable

import pytest

from tests.integration.letta.stack import LettaStack
from wave_agent.blocks.letta_store import BlockUpdateQueued, LettaBlockStore, LettaUnavailable
from wave_agent.blocks.store import HUMAN, PERSONA, BlockStoreUnavailable, BlockTooLong

pytestmark = [pytest.mark.letta, pytest.mark.slow]

MakeStore = Callable[..., LettaBlockStore]


async def test_updates_written_while_letta_is_down_land_when_it_is_back(
    make_store: MakeStore, letta_stack: LettaStack, uid: str
) -> None:
    store = make_store(max_retries=0)
    await store.set(uid, HUMAN, "Marta, lives in Poznań", reason="turn 1")
    await store.set(uid, PERSONA, "Wave for Marta", reason="turn 1")

    await letta_stack.stop_server()
    try:
        # The turn reads its blocks: a fast, translated failure it can go on without.
        started = time.monotonic()
        with pytest.raises(LettaUnavailable) as info:
            await store.get(uid, HUMAN)
        assert time.monotonic() - started < 5
        assert isinstance(info.value, BlockStoreUnavailable)
        assert info.value.next_step and "scripts/letta_stack.sh up" in info.value.next_step

        # The post-processor's update is kept, in order, durably.
        with pytest.raises(BlockUpdateQueued) as queued:
            await store.set(uid, HUMAN, "Marta, moved to Gdynia", reason="turn 2: she moved")
        assert str(store.pending_path) in str(queued.value)
        # A retry of the same update (the outbox retries failed steps) is not queued twice.
        with pytest.raises(BlockUpdateQueued):
            await store.set(uid, HUMAN, "Marta, moved to Gdynia", reason="turn 2: she moved")
        with pytest.raises(BlockUpdateQueued):
            await store.set(uid, PERSONA, "Wave for Marta, brief", reason="turn 2: style")
        # Wave's limit holds while the server is away too: refused, not queued.
        with pytest.raises(BlockTooLong):
            await store.set(uid, HUMAN, "z" * 3001, reason="too long")
        assert await store.pending_count() == 2
        await store.close()  # the process ends before Letta is back
    finally:
        await letta_stack.up()

    # Later, a new process: reading the block applies its queued update first.
    later = make_store()
    human = await later.get(uid, HUMAN)
    assert (human.value, human.version) == ("Marta, moved to Gdynia", 2)
    history = await later.history(uid, HUMAN)
    assert history[-1].reason.startswith("turn 2: she moved (written while Letta was unreachable")
    assert await later.pending_count() == 1
    # The rest lands without a read, e.g. from a maintenance pass.
    assert await later.flush_pending() == 1
    assert await later.pending_count() == 0
    persona = await later.get(uid, PERSONA)
    assert (persona.value, persona.version) == ("Wave for Marta, brief", 2)
