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
    from episodes.store import EpisodeStore
    from graph.store import GraphStore
    from snapshots.store import SnapshotStore
    from wave_agent.blocks.store import BlockStore
    from wave_agent.writer import Writer

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

    # Writer ------------------------------------------------------------------------------------

    async def writer(self) -> Writer:
        """The one write path; works with the archive unavailable (writes flagged for reindex)."""
        async with self._lock("writer"):
            if "writer" not in self._cache:
                from archive.errors import ArchiveError
                from wave_agent.archive_sync import ArchiveSync
                from wave_agent.writer import Writer

                graph = await self.graph()
                try:
                    sync = ArchiveSync(self.embedder(), await self.archive())
                except ArchiveError as exc:
                    log.warning("writer without the archive (updates pending): %s", exc)
                    sync = ArchiveSync(self.embedder(), None, problem=str(exc))
                self._cache["writer"] = Writer(graph, sync)
            return self._cache["writer"]  # type: ignore[no-any-return]

    # Core blocks, episodes, snapshots ----------------------------------------------------------

    async def blocks(self) -> BlockStore:
        """Letta blocks when LETTA_BASE_URL is set, else markdown files under DATA_DIR/blocks."""
        async with self._lock("blocks"):
            if "blocks" not in self._cache:
                store: BlockStore
                if self.settings.letta_base_url:
                    store = await _letta_blocks(self.settings)
                else:
                    from wave_agent.blocks.markdown_store import MarkdownBlockStore

                    store = MarkdownBlockStore(
                        self.settings.blocks_dir, limit=self.settings.block_limit
                    )
                self._stack.push_async_callback(store.close)
                self._cache["blocks"] = store
            return self._cache["blocks"]  # type: ignore[no-any-return]

    async def episodes(self) -> EpisodeStore:
        async with self._lock("episodes"):
            if "episodes" not in self._cache:
                from episodes.store import EpisodeStore

                store = EpisodeStore(self.settings.episodes_dir, timezone=self.settings.timezone)
                self._stack.push_async_callback(store.close)
                self._cache["episodes"] = store
            return self._cache["episodes"]  # type: ignore[no-any-return]

    async def snapshots(self) -> SnapshotStore:
        async with self._lock("snapshots"):
            if "snapshots" not in self._cache:
                from snapshots.store import SnapshotStore

                store = SnapshotStore(self.settings.snapshots_dir)
                self._stack.push_async_callback(store.close)
                self._cache["snapshots"] = store
            return self._cache["snapshots"]  # type: ignore[no-any-return]


async def _letta_blocks(settings: Settings) -> BlockStore:
    """The Letta store, built by ``LettaBlockStore.from_settings`` (sync or async)."""
    import inspect

    try:
        from wave_agent.blocks.letta_store import LettaBlockStore
    except ImportError as exc:
        from wave_agent.errors import ConfigError

        raise ConfigError(
            "LETTA_BASE_URL",
            f"is set but the Letta block store cannot be loaded ({exc})",
            "unset LETTA_BASE_URL to keep core blocks as markdown files under DATA_DIR/blocks, "
            "or install Wave with its Letta support (wave_agent/blocks/letta_store.py, letta-client)",
        ) from exc
    made = LettaBlockStore.from_settings(settings)
    store = await made if inspect.isawaitable(made) else made
    return store  # type: ignore[no-any-return]
