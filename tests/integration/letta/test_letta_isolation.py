"""What Wave stores in Letta, seen through letta-client directly: users apart, Wave's limit,
history kept in the server, edits made in Letta recorded, errors translated."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from letta_client import AsyncLetta

from wave_agent.blocks.letta_store import (
    EXTERNAL_EDIT_REASON,
    LettaBlockStore,
    LettaUnavailable,
    user_tag,
)
from wave_agent.blocks.store import (
    DEFAULT_PERSONA,
    HUMAN,
    PERSONA,
    BlockStore,
    BlockStoreUnavailable,
    BlockTooLong,
)
from wave_agent.services import Services
from wave_agent.settings import Settings

pytestmark = pytest.mark.letta

MakeStore = Callable[..., LettaBlockStore]


async def _blocks_of(raw: AsyncLetta, user_id: str) -> list[object]:
    return [b async for b in raw.blocks.list(tags=[user_tag(user_id)], limit=100)]


async def test_two_users_never_see_each_others_blocks(
    make_store: MakeStore, raw_letta: AsyncLetta, uid: str
) -> None:
    # "…-1" is a prefix of "…-10": tags must match exactly, not by prefix.
    alice, bob = f"{uid}-1", f"{uid}-10"
    store_a, store_b = make_store(), make_store()
    await store_a.set(alice, HUMAN, "Alice: lives in Gdańsk", reason="test")
    await store_a.set(alice, PERSONA, "Wave, for Alice", reason="test")
    await store_b.set(bob, HUMAN, "Bob: lives in Łódź", reason="test")

    assert (await store_b.get(bob, HUMAN)).value == "Bob: lives in Łódź"
    assert (await store_b.get(bob, PERSONA)).value == DEFAULT_PERSONA
    assert (await store_b.get(alice, HUMAN)).value == "Alice: lives in Gdańsk"
    assert [h.value for h in await store_a.history(bob, HUMAN)] == ["Bob: lives in Łódź"]

    # In the server: each block carries its user's tag and metadata, and nobody else's.
    alice_blocks = await _blocks_of(raw_letta, alice)
    bob_blocks = await _blocks_of(raw_letta, bob)
    assert {b.label for b in alice_blocks} == {  # type: ignore[attr-defined]
        "human",
        "persona",
        "wave-history-human",
        "wave-history-persona",
    }
    assert {b.label for b in bob_blocks} == {"human", "wave-history-human"}  # type: ignore[attr-defined]
    assert all(b.metadata["wave_user"] == alice for b in alice_blocks)  # type: ignore[attr-defined]
    assert all(b.metadata["wave_user"] == bob for b in bob_blocks)  # type: ignore[attr-defined]
    assert not {b.id for b in alice_blocks} & {b.id for b in bob_blocks}  # type: ignore[attr-defined]


async def test_user_ids_with_odd_characters_round_trip(make_store: MakeStore, uid: str) -> None:
    store = make_store()
    odd = f"{uid} tg:42/ü"
    await store.set(odd, HUMAN, "odd id", reason="test")
    assert (await store.get(odd, HUMAN)).value == "odd id"
    assert (await store.get(f"{uid} tg:42", HUMAN)).version == 0


async def test_wave_refuses_what_the_server_would_accept(
    make_store: MakeStore, raw_letta: AsyncLetta, uid: str
) -> None:
    store = make_store(3000)
    block = await store.set(uid, HUMAN, "kept", reason="first")
    with pytest.raises(BlockTooLong) as info:
        await store.set(uid, HUMAN, "x" * 3001, reason="too long")
    assert info.value.next_step and "shorten it by at least 1 character" in info.value.next_step
    [current] = [b async for b in raw_letta.blocks.list(label=HUMAN, tags=[user_tag(uid)])]
    assert current.value == "kept" and current.limit == 3000

    # Why Wave checks itself: the server takes 3,001 characters on a 3,000 limit block.
    await raw_letta.blocks.update(current.id, value="y" * 3001)
    assert len((await raw_letta.blocks.retrieve(current.id)).value) == 3001
    # Wave records that outside edit as a version and keeps it (nothing is truncated).
    seen = await store.get(uid, HUMAN)
    assert (seen.value, seen.version) == ("y" * 3001, block.version + 1)


async def test_an_edit_made_in_letta_becomes_a_new_version(
    make_store: MakeStore, raw_letta: AsyncLetta, uid: str
) -> None:
    store = make_store()
    await store.set(uid, PERSONA, "Wave v1", reason="first")
    [current] = [b async for b in raw_letta.blocks.list(label=PERSONA, tags=[user_tag(uid)])]
    await raw_letta.blocks.update(current.id, value="Wave v1, edited in the ADE")

    block = await store.get(uid, PERSONA)
    assert (block.value, block.version) == ("Wave v1, edited in the ADE", 2)
    history = await store.history(uid, PERSONA)
    assert [(h.version, h.reason) for h in history] == [(1, "first"), (2, EXTERNAL_EDIT_REASON)]
    # Reading again does not record it twice; revert still works across it.
    assert (await store.get(uid, PERSONA)).version == 2
    reverted = await store.revert(uid, PERSONA, 1)
    assert (reverted.value, reverted.version) == ("Wave v1", 3)


async def test_a_lost_history_entry_is_filled_in_from_the_current_block(
    make_store: MakeStore, raw_letta: AsyncLetta, uid: str
) -> None:
    """A crash between writing the block and its history block loses no version."""
    store = make_store()
    await store.set(uid, HUMAN, "v1", reason="one")
    await store.set(uid, HUMAN, "v2", reason="two")
    [v2] = [
        b
        async for b in raw_letta.blocks.list(label="wave-history-human", tags=[user_tag(uid)])
        if b.metadata["wave_version"] == 2
    ]
    await raw_letta.blocks.delete(v2.id)  # as if the process died before writing it
    await store.set(uid, HUMAN, "v3", reason="three")
    history = await store.history(uid, HUMAN)
    assert [(h.version, h.value, h.reason) for h in history] == [
        (1, "v1", "one"),
        (2, "v2", "two"),
        (3, "v3", "three"),
    ]


async def test_a_server_that_does_not_answer_names_the_next_step(
    make_store: MakeStore, uid: str
) -> None:
    import socket

    with socket.socket() as sock:  # a port nobody listens on
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    store = make_store(url=f"http://127.0.0.1:{port}", max_retries=0)
    with pytest.raises(LettaUnavailable) as info:
        await store.get(uid, HUMAN)
    message = str(info.value)
    assert f"Letta at http://127.0.0.1:{port} is unavailable" in message or str(port) in message
    assert "scripts/letta_stack.sh up" in message and "unset LETTA_BASE_URL" in message


async def test_a_server_that_is_not_letta_is_refused_with_the_next_step(
    make_store: MakeStore, letta_url: str, uid: str
) -> None:
    store = make_store(url=f"{letta_url}/not-letta")
    with pytest.raises(BlockStoreUnavailable) as info:
        await store.get(uid, HUMAN)
    assert not isinstance(info.value, LettaUnavailable)
    assert "HTTP 404" in str(info.value)
    assert info.value.next_step and "LETTA_BASE_URL" in info.value.next_step


async def test_services_open_the_letta_store_when_letta_base_url_is_set(
    letta_url: str, tmp_path: Path, uid: str
) -> None:
    settings = Settings(  # type: ignore[call-arg]
        _env_file=None, data_dir=tmp_path / "data", letta_base_url=letta_url, block_limit=1234
    )
    async with Services(settings) as services:
        store: BlockStore = await services.blocks()
        assert isinstance(store, LettaBlockStore)
        assert store.limit == 1234
        assert store.pending_path.parent == tmp_path / "data"
        written = await store.set(uid, HUMAN, "via Services", reason="test")
    assert written.version == 1
    again = LettaBlockStore.from_settings(settings)
    try:
        assert (await again.get(uid, HUMAN)).value == "via Services"
    finally:
        await again.close()
