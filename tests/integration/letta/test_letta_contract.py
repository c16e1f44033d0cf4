"""The core-block contract (tests/contract/blocks_contract.py) on a real Letta server."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable

import pytest

from tests.contract.blocks_contract import BlockStoreContract, StoreFactory
from wave_agent.blocks.letta_store import LettaBlockStore
from wave_agent.blocks.store import BlockStore

pytestmark = pytest.mark.letta


class TestLettaBlockStore(BlockStoreContract):
    @pytest.fixture
    async def block_store_factory(
        self, make_store: Callable[..., LettaBlockStore]
    ) -> AsyncIterator[StoreFactory]:
        async def factory(limit: int = 3000) -> BlockStore:
            return make_store(limit)

        yield factory
