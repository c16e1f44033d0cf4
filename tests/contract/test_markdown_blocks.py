"""The core-block contract on the markdown store (always runs; real files in a tmp dir)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from tests.contract.blocks_contract import BlockStoreContract, StoreFactory
from wave_agent.blocks.markdown_store import MarkdownBlockStore
from wave_agent.blocks.store import BlockStore


class TestMarkdownBlockStore(BlockStoreContract):
    @pytest.fixture
    async def block_store_factory(self, tmp_path: Path) -> AsyncIterator[StoreFactory]:
        made: list[BlockStore] = []

        async def factory(limit: int = 3000) -> BlockStore:
            store = MarkdownBlockStore(tmp_path / "blocks", limit=limit)
            made.append(store)
            return store

        yield factory
        for store in made:
            await store.close()
