"""Wave's blocks attached to a Letta agent (no model call): a Letta deployment sees them."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

import pytest
from letta_client import AsyncLetta

from wave_agent.blocks.letta_store import EXTERNAL_EDIT_REASON, LettaBlockStore, user_tag
from wave_agent.blocks.store import DEFAULT_PERSONA, HUMAN, PERSONA

pytestmark = pytest.mark.letta

MakeStore = Callable[..., LettaBlockStore]


async def _agent_blocks(raw: AsyncLetta, agent_id: str) -> dict[str, str]:
    return {b.label: b.value async for b in raw.agents.blocks.list(agent_id)}


async def test_the_agent_holds_the_blocks_wave_writes(
    make_store: MakeStore, raw_letta: AsyncLetta, uid: str
) -> None:
    store = make_store()
    await store.set(uid, HUMAN, "Ola, 29, Wrocław", reason="first")
    agent_id = await store.attach_to_agent(uid)

    # Never-written persona is created with its default text, still version 0 for Wave.
    assert await _agent_blocks(raw_letta, agent_id) == {
        HUMAN: "Ola, 29, Wrocław",
        PERSONA: DEFAULT_PERSONA,
    }
    assert (await store.get(uid, PERSONA)).version == 0

    # A later write by Wave is what the agent sees; attaching again finds the same agent.
    await store.set(uid, HUMAN, "Ola, 29, Wrocław; learns Japanese", reason="second")
    assert (await _agent_blocks(raw_letta, agent_id))[HUMAN] == "Ola, 29, Wrocław; learns Japanese"
    assert await store.attach_to_agent(uid) == agent_id

    # An edit the agent makes to its own memory is recorded by Wave as a version.
    await raw_letta.agents.blocks.update(HUMAN, agent_id=agent_id, value="Ola, 30, Wrocław")
    block = await store.get(uid, HUMAN)
    assert (block.value, block.version) == ("Ola, 30, Wrocław", 3)
    assert (await store.history(uid, HUMAN))[-1].reason == EXTERNAL_EDIT_REASON


async def test_each_user_gets_an_agent_with_only_their_blocks(
    make_store: MakeStore, raw_letta: AsyncLetta, uid: str
) -> None:
    store = make_store()
    await store.set(f"{uid}-a", HUMAN, "user a", reason="test")
    await store.set(f"{uid}-b", HUMAN, "user b", reason="test")
    agent_a, again_a, agent_b = await asyncio.gather(
        store.attach_to_agent(f"{uid}-a"),
        store.attach_to_agent(f"{uid}-a"),
        store.attach_to_agent(f"{uid}-b"),
    )
    assert agent_a == again_a  # racing callers get one agent
    assert agent_a != agent_b
    found = [a async for a in raw_letta.agents.list(tags=[user_tag(f"{uid}-a")])]
    assert [a.id for a in found] == [agent_a]
    assert (await _agent_blocks(raw_letta, agent_a))[HUMAN] == "user a"
    assert (await _agent_blocks(raw_letta, agent_b))[HUMAN] == "user b"
