"""The core-block store contract: one test class every ``BlockStore`` backend must pass.

Use it from a backend's test module::

    from tests.contract.blocks_contract import BlockStoreContract, StoreFactory

    class TestMyBlocks(BlockStoreContract):
        @pytest.fixture
        async def block_store_factory(self, tmp_path) -> AsyncIterator[StoreFactory]:
            made = []
            async def factory(limit: int = 3000) -> BlockStore:
                store = MyStore(..., limit=limit)   # a NEW store over the SAME backend data
                made.append(store)
                return store
            yield factory
            for store in made:
                await store.close()

Two stores made by one factory must see the same data (the reopen test relies on it).
Every test uses a fresh random user id, so a shared server (Letta) needs no cleanup.
"""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import Awaitable, Callable
from datetime import datetime

import pytest

from wave_agent.blocks.store import (
    DEFAULT_PERSONA,
    HUMAN,
    LABELS,
    PERSONA,
    Block,
    BlockStore,
    BlockTooLong,
    BlockVersionNotFound,
    InvalidBlockUser,
    UnknownBlockLabel,
)

StoreFactory = Callable[..., Awaitable[BlockStore]]

LIMIT = 600
PORTRAIT = "Анна, 34, lives in Kraków.\nWorks as a product designer.\nLikes climbing 🧗 and tea."


class BlockStoreContract:
    """Subclass and provide the ``block_store_factory`` fixture (see the module docstring)."""

    @pytest.fixture
    def uid(self) -> str:
        return f"contract-{uuid.uuid4().hex[:12]}"

    @pytest.fixture
    async def store(self, block_store_factory: StoreFactory) -> BlockStore:
        return await block_store_factory(limit=LIMIT)

    # Reading ------------------------------------------------------------------------------

    async def test_is_a_block_store(self, store: BlockStore) -> None:
        assert isinstance(store, BlockStore)
        assert store.limit == LIMIT

    async def test_unwritten_blocks_return_defaults_at_version_zero(
        self, store: BlockStore, uid: str
    ) -> None:
        human = await store.get(uid, HUMAN)
        persona = await store.get(uid, PERSONA)
        assert (human.user_id, human.label, human.value, human.version) == (uid, HUMAN, "", 0)
        assert persona.value == DEFAULT_PERSONA
        assert persona.version == 0
        assert human.limit == persona.limit == LIMIT
        assert await store.history(uid, HUMAN) == []

    async def test_unknown_label_is_refused_with_the_labels(
        self, store: BlockStore, uid: str
    ) -> None:
        for call in (
            store.get(uid, "system"),
            store.set(uid, "system", "x", reason="test"),
            store.history(uid, "system"),
            store.revert(uid, "system", 1),
        ):
            with pytest.raises(UnknownBlockLabel) as info:
                await call
            assert info.value.next_step is not None
            assert all(label in info.value.next_step for label in LABELS)

    async def test_empty_user_is_refused(self, store: BlockStore) -> None:
        with pytest.raises(InvalidBlockUser):
            await store.get("", HUMAN)
        with pytest.raises(InvalidBlockUser):
            await store.set("  ", HUMAN, "x", reason="test")

    # Writing -------------------------------------------------------------------------------

    async def test_set_round_trips_unicode_and_newlines(self, store: BlockStore, uid: str) -> None:
        written = await store.set(uid, HUMAN, PORTRAIT, reason="first portrait")
        assert isinstance(written, Block)
        assert written.value == PORTRAIT
        assert written.version == 1
        assert isinstance(written.updated_at, datetime)
        assert written.updated_at.tzinfo is not None
        read = await store.get(uid, HUMAN)
        assert read.value == PORTRAIT
        assert read.version == 1

    async def test_versions_count_up_and_history_keeps_every_one(
        self, store: BlockStore, uid: str
    ) -> None:
        values = ["one", "one\ntwo", "one\ntwo\nthree"]
        for i, value in enumerate(values, start=1):
            block = await store.set(uid, HUMAN, value, reason=f"step {i}")
            assert block.version == i
        history = await store.history(uid, HUMAN)
        assert [h.version for h in history] == [1, 2, 3]
        assert [h.value for h in history] == values
        assert [h.reason for h in history] == ["step 1", "step 2", "step 3"]
        assert all(h.updated_at.tzinfo is not None for h in history)
        assert history[0].updated_at <= history[-1].updated_at

    async def test_setting_the_same_value_adds_no_version(self, store: BlockStore, uid: str) -> None:
        await store.set(uid, HUMAN, "same", reason="first")
        again = await store.set(uid, HUMAN, "same", reason="again")
        assert again.version == 1
        assert len(await store.history(uid, HUMAN)) == 1

    async def test_a_block_can_be_cleared(self, store: BlockStore, uid: str) -> None:
        await store.set(uid, HUMAN, "something", reason="first")
        cleared = await store.set(uid, HUMAN, "", reason="person asked to clear it")
        assert cleared.value == ""
        assert cleared.version == 2
        assert (await store.get(uid, HUMAN)).value == ""

    async def test_labels_and_users_are_isolated(self, store: BlockStore, uid: str) -> None:
        other = f"{uid}-other"
        await store.set(uid, HUMAN, "mine", reason="test")
        await store.set(uid, PERSONA, "my persona", reason="test")
        assert (await store.get(other, HUMAN)).value == ""
        assert (await store.get(other, PERSONA)).value == DEFAULT_PERSONA
        assert (await store.get(uid, HUMAN)).value == "mine"
        assert await store.history(other, HUMAN) == []

    # The limit (Wave's, never the backend's) ----------------------------------------------------

    async def test_value_at_the_limit_is_accepted(self, store: BlockStore, uid: str) -> None:
        value = "я" * LIMIT  # characters, not bytes
        block = await store.set(uid, HUMAN, value, reason="at limit")
        assert block.value == value
        assert block.chars == LIMIT

    async def test_over_the_limit_is_refused_with_size_limit_and_next_step(
        self, store: BlockStore, uid: str
    ) -> None:
        await store.set(uid, HUMAN, "kept", reason="first")
        with pytest.raises(BlockTooLong) as info:
            await store.set(uid, HUMAN, "x" * (LIMIT + 1), reason="too long")
        err = info.value
        assert (err.size, err.limit, err.label) == (LIMIT + 1, LIMIT, HUMAN)
        assert f"{LIMIT + 1:,}" in str(err) and f"{LIMIT:,}" in str(err)
        assert err.next_step and "shorten" in err.next_step
        # nothing stored, nothing truncated
        assert (await store.get(uid, HUMAN)).value == "kept"
        assert len(await store.history(uid, HUMAN)) == 1

    async def test_limit_comes_from_the_store(
        self, block_store_factory: StoreFactory, uid: str
    ) -> None:
        small = await block_store_factory(limit=250)
        assert (await small.get(uid, PERSONA)).limit == 250
        with pytest.raises(BlockTooLong):
            await small.set(uid, HUMAN, "y" * 251, reason="test")

    # Revert ---------------------------------------------------------------------------------

    async def test_revert_writes_the_old_value_as_a_new_version(
        self, store: BlockStore, uid: str
    ) -> None:
        await store.set(uid, PERSONA, "v1 text", reason="first")
        await store.set(uid, PERSONA, "v2 text", reason="second")
        reverted = await store.revert(uid, PERSONA, 1)
        assert reverted.value == "v1 text"
        assert reverted.version == 3
        assert (await store.get(uid, PERSONA)).value == "v1 text"
        history = await store.history(uid, PERSONA)
        assert [h.value for h in history] == ["v1 text", "v2 text", "v1 text"]
        assert "revert" in history[-1].reason.lower()

    async def test_revert_to_a_missing_version_names_the_versions(
        self, store: BlockStore, uid: str
    ) -> None:
        await store.set(uid, HUMAN, "only", reason="first")
        with pytest.raises(BlockVersionNotFound) as info:
            await store.revert(uid, HUMAN, 7)
        assert info.value.available == [1]
        assert info.value.next_step and "history" in info.value.next_step
        assert (await store.get(uid, HUMAN)).version == 1

    # Durability and concurrency ---------------------------------------------------------------

    async def test_data_survives_a_new_store(
        self, block_store_factory: StoreFactory, store: BlockStore, uid: str
    ) -> None:
        await store.set(uid, HUMAN, PORTRAIT, reason="first")
        await store.set(uid, HUMAN, PORTRAIT + "\nNew line.", reason="second")
        reopened = await block_store_factory(limit=LIMIT)
        block = await reopened.get(uid, HUMAN)
        assert block.value == PORTRAIT + "\nNew line."
        assert block.version == 2
        assert [h.reason for h in await reopened.history(uid, HUMAN)] == ["first", "second"]

    async def test_concurrent_sets_get_distinct_consecutive_versions(
        self, store: BlockStore, uid: str
    ) -> None:
        results = await asyncio.gather(
            *(store.set(uid, HUMAN, f"value {i}", reason=f"writer {i}") for i in range(5))
        )
        assert sorted(b.version for b in results) == [1, 2, 3, 4, 5]
        history = await store.history(uid, HUMAN)
        assert [h.version for h in history] == [1, 2, 3, 4, 5]
        assert (await store.get(uid, HUMAN)).value == history[-1].value

    async def test_close_is_idempotent(self, block_store_factory: StoreFactory) -> None:
        extra = await block_store_factory(limit=LIMIT)
        await extra.close()
        await extra.close()
