"""The post-processor built from its own parts, without the composition root (``Services``):
the real Neo4j and writer, a local archive, the outbox, the session log, the episode log and
markdown core blocks, each handed in as what it is.

What a person notices: a stable fact said in an exchange ends up in memory, in the day's
episode log and in their core block; and a layer that cannot be opened when the job runs costs
a retry, not the fact, and the retry writes nothing twice.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import TypeVar

import pytest

from episodes.store import EpisodeStore
from graph.models import FactType
from graph.store import GraphStore
from wave_agent.blocks.markdown_store import MarkdownBlockStore
from wave_agent.conversation.session import SessionLog, Sessions
from wave_agent.infra.outbox import DONE, Outbox
from wave_agent.llm.offline import ExtractedFact, OfflineClient
from wave_agent.postprocess.extract import to_json
from wave_agent.postprocess.fanout import FanoutStores, PostProcessor
from wave_agent.write.events import ChangeKind
from wave_agent.write.writer import Writer

pytestmark = pytest.mark.neo4j

T = TypeVar("T")
FACT = "Моя любимая еда — пельмени со сметаной"


def ready(store: T) -> Callable[[], Awaitable[T]]:
    """An already open store, as the post-processor asks for it."""

    async def open_store() -> T:
        return store

    return open_store


def queue_exchange(outbox: Outbox, user_id: str, key: str) -> None:
    """A finished exchange waiting for post-processing, its extraction already recorded (as
    after a first attempt), so the test does not depend on what the offline model extracts."""
    outbox.enqueue(key, "exchange", user_id, {
        "user_text": FACT, "reply": "Запомню!", "at": datetime.now(UTC).isoformat()})
    outbox.mark(key, "extract", to_json([ExtractedFact(FACT, FactType.PREFERENCE, ())]))


async def test_an_exchange_reaches_every_layer_through_a_processor_built_from_its_parts(
    tmp_path: Path, graph: GraphStore, writer: Writer, user_id: str
) -> None:
    outbox = Outbox(tmp_path / "outbox.sqlite3")
    episodes = EpisodeStore(tmp_path / "episodes")
    blocks = MarkdownBlockStore(tmp_path / "blocks")
    session_log = SessionLog(tmp_path / "sessions.sqlite3")
    sessions = Sessions(session_log, idle=timedelta(minutes=30))
    changed: list[str] = []
    writer.changes.subscribe(
        lambda change: changed.append(change.user_id) if change.kind is ChangeKind.EXTRACTED else None)
    processor = PostProcessor(
        outbox,
        FanoutStores(graph=ready(graph), writer=ready(writer), sessions=ready(sessions),
                     episodes=ready(episodes), blocks=ready(blocks)),
        OfflineClient(),
    )
    queue_exchange(outbox, user_id, "x-parts")
    try:
        report = await processor.drain(timeout_s=60)
    finally:
        session_log.close()

    assert (report.processed, report.failed, report.pending) == (1, 0, 0)
    assert outbox.status("x-parts") == DONE
    assert [f.text for f in await graph.list_facts(user_id)] == [FACT]
    [day] = await episodes.days(user_id)
    assert [line.text for line in (await episodes.read_day(user_id, day)).entries] == [FACT]
    assert "пельмени" in (await blocks.get(user_id, "human")).value
    assert changed == [user_id]  # the day log and block change is announced once
    outbox.close()


async def test_a_layer_that_cannot_be_opened_costs_a_retry_not_the_fact(
    tmp_path: Path, graph: GraphStore, writer: Writer, user_id: str
) -> None:
    outbox = Outbox(tmp_path / "outbox.sqlite3")
    episodes = EpisodeStore(tmp_path / "episodes")
    blocks = MarkdownBlockStore(tmp_path / "blocks")
    attempts: list[int] = []

    async def episodes_not_yet_reachable() -> EpisodeStore:
        """The episode log's disk is missing at the first attempt and back at the second."""
        attempts.append(len(attempts) + 1)
        if len(attempts) == 1:
            raise OSError("the episode log's disk is not mounted")
        return episodes

    async def no_sessions() -> Sessions:
        raise AssertionError("an exchange without a session id never opens the session log")

    processor = PostProcessor(
        outbox,
        FanoutStores(graph=ready(graph), writer=ready(writer), sessions=no_sessions,
                     episodes=episodes_not_yet_reachable, blocks=ready(blocks)),
        OfflineClient(),
    )
    queue_exchange(outbox, user_id, "x-retry")

    first = await processor.drain(timeout_s=1)  # fails, then waits out its backoff: stop
    assert (first.processed, first.failed, first.pending) == (0, 1, 1)
    assert "disk is not mounted" in (first.last_error or "")
    assert [f.text for f in await graph.list_facts(user_id)] == [FACT]  # written before the failure

    again = await processor.drain(timeout_s=60)  # a retry (``wave drain``, or the backoff ending)
    assert (again.processed, again.pending) == (1, 0)
    assert attempts == [1, 2]
    assert [f.text for f in await graph.list_facts(user_id)] == [FACT]  # not written twice
    [day] = await episodes.days(user_id)
    assert [line.text for line in (await episodes.read_day(user_id, day)).entries] == [FACT]
    outbox.close()
