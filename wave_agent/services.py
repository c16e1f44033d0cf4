"""The composition root: builds, opens and closes every store, lazily.

A command or the bot opens ``Services`` once (``async with Services(settings) as services``)
and asks for what it needs; only what is asked for is opened. Each accessor is the single
place where its store is constructed. Tests build ``Services`` with their own ``Settings``.
"""

from __future__ import annotations

import asyncio
import logging
from contextlib import AsyncExitStack
from types import TracebackType
from typing import TYPE_CHECKING, Any

from wave_agent import localneo4j
from wave_agent.settings import Settings

if TYPE_CHECKING:
    from archive.embedder import Embedder
    from archive.store import ArchiveStore
    from graph.store import GraphStore

log = logging.getLogger("wave.services")


class Services:
    """Lazily opened stores for one process. Not thread-safe; one event loop."""

    def __init__(self, settings: Settings, *, autostart_neo4j: bool = False) -> None:
        self.settings = settings
        self.autostart_neo4j = autostart_neo4j
        self._stack = AsyncExitStack()
        self._cache: dict[str, Any] = {}
        self._locks: dict[str, asyncio.Lock] = {}

    async def __aenter__(self) -> Services:
        await self._stack.__aenter__()
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self._stack.__aexit__(exc_type, exc, tb)
        self._cache.clear()

    def _lock(self, name: str) -> asyncio.Lock:
        return self._locks.setdefault(name, asyncio.Lock())

    # Neo4j -------------------------------------------------------------------------------

    def ensure_local_neo4j(self) -> None:
        """Start the embedded Neo4j when NEO4J_URI is unset (``wave run``/``wave chat``)."""
        if self.settings.neo4j_uri is None:
            localneo4j.up(self.settings)

    async def graph(self) -> GraphStore:
        async with self._lock("graph"):
            if "graph" not in self._cache:
                from graph.store import GraphStore

                if self.autostart_neo4j:
                    await asyncio.to_thread(self.ensure_local_neo4j)
                store = await GraphStore.connect(
                    self.settings.effective_neo4j_uri,
                    self.settings.neo4j_user,
                    self.settings.neo4j_password,
                    database=self.settings.neo4j_database,
                )
                self._stack.push_async_callback(store.close)
                await store.ensure_schema()
                self._cache["graph"] = store
            return self._cache["graph"]  # type: ignore[no-any-return]

    # Archive -------------------------------------------------------------------------------

    def embedder(self) -> Embedder:
        if "embedder" not in self._cache:
            from archive.embedder import Embedder

            self._cache["embedder"] = Embedder(
                self.settings.embedding_model, device=self.settings.embedding_device
            )
        return self._cache["embedder"]  # type: ignore[no-any-return]

    async def archive(self) -> ArchiveStore:
        async with self._lock("archive"):
            if "archive" not in self._cache:
                from archive.store import ArchiveStore

                embedder = self.embedder()
                if self.settings.qdrant_url:
                    store = ArchiveStore.server(
                        self.settings.qdrant_url,
                        api_key=self.settings.qdrant_api_key,
                        model_name=embedder.model_name,
                        dim=embedder.dim,
                    )
                else:
                    store = ArchiveStore.local(
                        self.settings.qdrant_local_path,
                        model_name=embedder.model_name,
                        dim=embedder.dim,
                    )
                self._stack.push_async_callback(store.close)
                self._cache["archive"] = store
            return self._cache["archive"]  # type: ignore[no-any-return]

    # Further accessors (writer, recall, blocks, episodes, snapshots, llm, outbox, turn)
    # are added below by the issues that own them; each constructs exactly one thing.
