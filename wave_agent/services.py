"""The composition root: builds, opens and closes every store, lazily.

A command or the bot opens ``Services`` once (``async with Services(settings) as services``)
and asks for what it needs; only what is asked for is opened. Each accessor is the single
place where its store is constructed. Tests build ``Services`` with their own ``Settings``.
"""

from __future__ import annotations

import asyncio
import importlib
import logging
from contextlib import AsyncExitStack
from types import TracebackType
from typing import TYPE_CHECKING, Any
from zoneinfo import ZoneInfo

from wave_agent.infra import localneo4j
from wave_agent.write.events import ChangeKind, MemoryChange, MemoryChanges

if TYPE_CHECKING:
    from archive.embedder import Embedder
    from archive.store import ArchiveStore
    from episodes.store import EpisodeStore
    from graph.store import GraphStore
    from snapshots.store import SnapshotStore
    from wave_agent.app.reflect import Reflector
    from wave_agent.blocks.store import BlockStore
    from wave_agent.commitments.ledger import Commitments
    from wave_agent.conversation.session import Sessions
    from wave_agent.conversation.turn import TurnService
    from wave_agent.infra.outbox import Outbox
    from wave_agent.llm.client import LLMClient
    from wave_agent.ops.erasure import Eraser
    from wave_agent.ops.stores import OpsStores
    from wave_agent.postprocess.fanout import PostProcessor
    from wave_agent.recall import Recall
    from wave_agent.settings import Settings
    from wave_agent.write.writer import Writer

log = logging.getLogger("wave.services")


class Services:
    """Lazily opened stores for one process. Not thread-safe; one event loop."""

    def __init__(
        self, settings: Settings, *, autostart_neo4j: bool = False, embedder: Embedder | None = None
    ) -> None:
        self.settings = settings
        self.autostart_neo4j = autostart_neo4j
        self._stack = AsyncExitStack()
        # An already loaded embedder may be handed in (tests, benchmarks: one model load).
        self._cache: dict[str, Any] = {"embedder": embedder} if embedder is not None else {}
        self._locks: dict[str, asyncio.Lock] = {}
        # The process's one board of memory changes: the writer, the eraser, the
        # post-processor and maintenance announce on it; the turn's note cache listens.
        self.changes = MemoryChanges()
        self.changes.subscribe(self._keep_turns_fresh)

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
            from wave_agent.world.kinds import share_embedder

            self._cache["embedder"] = Embedder(
                self.settings.embedding_model, device=self.settings.embedding_device
            )
            share_embedder(self._cache["embedder"])  # the reader's illness step: one e5, not two
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
                        grpc_port=self.settings.qdrant_grpc_port,
                        model_name=embedder.model_name,
                        dim=embedder.dim,
                        embedder=embedder,
                    )
                else:
                    from archive.door import SharedArchive

                    # held here, or reached through the process that holds it
                    store = SharedArchive(
                        self.settings.qdrant_local_path,
                        model_name=embedder.model_name,
                        dim=embedder.dim,
                        embedder=embedder,
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
                from wave_agent.infra.person_lock import PersonLocks
                from wave_agent.write.archive_sync import ArchiveSync
                from wave_agent.write.block_lines import BlockLines
                from wave_agent.write.writer import Writer

                graph = await self.graph()
                try:
                    sync = ArchiveSync(self.embedder(), await self.archive())
                except ArchiveError as exc:
                    log.warning("writer without the archive (updates pending): %s", exc)
                    sync = ArchiveSync(self.embedder(), None, problem=str(exc))
                self._cache["writer"] = Writer(
                    graph, sync, locks=PersonLocks(self.settings.data_dir / "locks"),
                    changes=self.changes, blocks=BlockLines(self.blocks))
            return self._cache["writer"]  # type: ignore[no-any-return]

    # Recall ------------------------------------------------------------------------------------

    async def recall(self) -> Recall:
        """Hybrid recall; without the archive (locked, down) it answers with the other voices."""
        async with self._lock("recall"):
            if "recall" not in self._cache:
                # qdrant_client takes about a second to import (it builds its pydantic
                # models): on a cold start it loads in a thread while the graph connects
                loading = None
                if "archive" not in self._cache:
                    loading = asyncio.create_task(
                        asyncio.to_thread(importlib.import_module, "archive.store"))
                from archive.errors import ArchiveError
                from wave_agent.recall import Recall, RecallConfig

                try:
                    graph = await self.graph()
                finally:
                    if loading is not None:
                        await loading
                archive, problem = None, None
                try:
                    archive = await self.archive()
                except ArchiveError as exc:
                    log.warning("recall without the semantic voice: %s", exc)
                    problem = str(exc)
                self._cache["recall"] = Recall(
                    graph, archive, self.embedder(), archive_problem=problem,
                    config=RecallConfig(voice_timeout_s=self.settings.store_timeout_s,
                                        ranker=self.settings.recall_ranker,
                                        newer_first=self.settings.recall_newer_first or None,
                                        query_adapter=self.settings.recall_query_adapter,
                                        learned_mmr_lambda=(
                                            self.settings.recall_learned_mmr_lambda or None)),
                    tz=ZoneInfo(self.settings.timezone),
                )
            return self._cache["recall"]  # type: ignore[no-any-return]

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

    # The turn: LLM, outbox, sessions, post-processor, turn service -----------------------------

    def llm(self) -> LLMClient:
        """The OpenAI-compatible client when LLM_BASE_URL is set, else the offline client."""
        if "llm" not in self._cache:
            from wave_agent.llm import build_client

            client = build_client(self.settings)
            self._stack.push_async_callback(client.close)
            self._cache["llm"] = client
        return self._cache["llm"]  # type: ignore[no-any-return]

    def outbox(self) -> Outbox:
        """The durable post-processing outbox (SQLite under DATA_DIR)."""
        if "outbox" not in self._cache:
            from wave_agent.infra.outbox import Outbox

            box = Outbox(self.settings.outbox_path)
            self._stack.callback(box.close)
            self._cache["outbox"] = box
        return self._cache["outbox"]  # type: ignore[no-any-return]

    async def sessions(self) -> Sessions:
        async with self._lock("sessions"):
            if "sessions" not in self._cache:
                from datetime import timedelta

                from wave_agent.conversation.session import SessionLog, Sessions

                session_log = SessionLog(self.settings.sessions_path)
                self._stack.callback(session_log.close)
                self._cache["sessions"] = Sessions(
                    session_log,
                    idle=timedelta(minutes=self.settings.session_idle_minutes),
                    snapshots=await self.snapshots(),
                    timeout_s=self.settings.store_timeout_s,
                )
            return self._cache["sessions"]  # type: ignore[no-any-return]

    async def commitments(self) -> Commitments:
        """A person's promises with due times (over the graph); the zone and hour default to
        ``TIMEZONE`` and ``REMINDER_HOUR`` until the person sets their own."""
        async with self._lock("commitments"):
            if "commitments" not in self._cache:
                from wave_agent.commitments.ledger import Commitments

                self._cache["commitments"] = Commitments(
                    await self.graph(), default_timezone=self.settings.timezone,
                    reminder_hour=self.settings.reminder_hour)
            return self._cache["commitments"]  # type: ignore[no-any-return]

    def postprocessor(self) -> PostProcessor:
        """Runs outbox jobs in the background; closed (cancelled) with the services."""
        if "postprocessor" not in self._cache:
            from wave_agent.postprocess.fanout import FanoutStores, PostProcessor

            stores = FanoutStores(graph=self.graph, writer=self.writer, sessions=self.sessions,
                                  episodes=self.episodes, blocks=self.blocks,
                                  commitments=self.commitments)
            worker = PostProcessor(self.outbox(), stores, self.llm())
            self._stack.push_async_callback(worker.close)
            self._cache["postprocessor"] = worker
        return self._cache["postprocessor"]  # type: ignore[no-any-return]

    async def turns(self) -> TurnService:
        """The turn service shared by the bot and ``wave chat``."""
        async with self._lock("turns"):
            if "turns" not in self._cache:
                from wave_agent.conversation.reads import ReadStores, TurnReads
                from wave_agent.conversation.tools import ToolDispatcher, build_handlers
                from wave_agent.conversation.turn import TurnService

                reads = TurnReads(ReadStores(
                    graph=self.graph, blocks=self.blocks, episodes=self.episodes,
                    snapshots=self.snapshots, recall=self.recall, embedder=self.embedder,
                    commitments=self.commitments,
                ))
                handlers = build_handlers(self.recall, self.writer, self.reflect)
                service = TurnService(
                    memory=reads,
                    sessions=await self.sessions(),
                    llm=self.llm(),
                    outbox=self.outbox(),
                    tools=ToolDispatcher(handlers),
                    budget_chars=self.settings.prompt_budget_chars,
                    store_timeout_s=self.settings.store_timeout_s,
                    store_slow_s=self.settings.store_slow_s,
                )
                self._stack.push_async_callback(service.close)
                self._cache["turns"] = service
            return self._cache["turns"]  # type: ignore[no-any-return]

    def _keep_turns_fresh(self, change: MemoryChange) -> None:
        """Whatever changed a person's memory in this process (a write, the web page, a
        maintenance job, an erasure) makes the turn's cached notes and blocks stale; an erased
        person is dropped from the turn's caches altogether."""
        turns: TurnService | None = self._cache.get("turns")
        if turns is None:  # no turn served yet: nothing cached
            return
        if change.kind is ChangeKind.PERSON_ERASED:
            turns.forget_user(change.user_id)
        else:
            turns.memory_changed(change.user_id)

    # memory_reflect -------------------------------------------------------------------------

    async def reflect(self) -> Reflector:
        """memory_reflect over recall, the graph, episodes and snapshots (tool, /reflect, CLI)."""
        if "reflect" not in self._cache:
            from wave_agent.app.reflect import Reflector, ReflectSources

            self._cache["reflect"] = Reflector(self.llm(), self.embedder(), ReflectSources(
                recall=self.recall, graph=self.graph, episodes=self.episodes,
                snapshots=self.snapshots,
            ))
        return self._cache["reflect"]  # type: ignore[no-any-return]

    # Maintenance and the health report ---------------------------------------------------------

    def ops_stores(self) -> OpsStores:
        """Every layer, opened when a maintenance job or the health report first uses it
        (``run_maintenance``, ``start_scheduler``, ``health_report`` take this)."""
        from wave_agent.ops.stores import OpsStores

        return OpsStores(
            graph=self.graph, archive=self.archive, writer=self.writer,
            episodes=self.episodes, blocks=self.blocks, embedder=self.embedder,
            outbox=self.outbox, data_dir=self.settings.data_dir,
            sqlite_files=(self.settings.sessions_path, self.settings.outbox_path,
                          self.settings.letta_pending_path),
            changes=self.changes,
            archive_is_local=not self.settings.qdrant_url,
        )

    # Erasure -----------------------------------------------------------------------------------

    async def eraser(self) -> Eraser:
        """Erasure across every layer (``wave delete``, ``wave forget-me``, ``/forget_me``).
        Core blocks that cannot be opened (Letta misconfigured) are reported as pending."""
        from wave_agent.ops.erasure import Eraser, ErasureStores

        blocks: BlockStore | None
        try:
            blocks = await self.blocks()
        except Exception as exc:  # reported by the eraser as a layer it could not reach
            log.warning("erasure without core blocks: %s", exc)
            blocks = None
        return Eraser(ErasureStores(
            writer=await self.writer(), graph=await self.graph(),
            episodes=await self.episodes(), snapshots=await self.snapshots(), blocks=blocks,
            sessions=await self.sessions(), data_dir=self.settings.data_dir,
            session_log=(await self.sessions()).log, outbox=self.outbox(),
        ))


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
    return store
