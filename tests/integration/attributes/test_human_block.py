"""The core block follows the graph, against the real Neo4j and markdown blocks: exchanges
go through the post-processor as a chat's do (the offline extractor reads the real text), and
when an attribute changes the ``human`` block's line about it changes in the same edit (one
new version, with why), never keeping the old value."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import TypeVar

import pytest

from episodes.store import EpisodeStore
from graph.models import Status
from graph.store import GraphStore
from wave_agent.blocks.markdown_store import MarkdownBlockStore
from wave_agent.conversation.session import SessionLog, Sessions
from wave_agent.infra.outbox import Outbox
from wave_agent.llm.offline import OfflineClient
from wave_agent.postprocess.fanout import FanoutStores, PostProcessor
from wave_agent.write.writer import Writer

pytestmark = pytest.mark.neo4j

T = TypeVar("T")


def ready(store: T) -> Callable[[], Awaitable[T]]:
    async def open_store() -> T:
        return store

    return open_store


async def test_the_human_block_shows_the_new_city_and_pet_only(
    tmp_path: Path, graph: GraphStore, writer: Writer, user_id: str
) -> None:
    outbox = Outbox(tmp_path / "outbox.sqlite3")
    blocks = MarkdownBlockStore(tmp_path / "blocks")
    session_log = SessionLog(tmp_path / "sessions.sqlite3")
    processor = PostProcessor(
        outbox,
        FanoutStores(graph=ready(graph), writer=ready(writer),
                     sessions=ready(Sessions(session_log, idle=timedelta(minutes=30))),
                     episodes=ready(EpisodeStore(tmp_path / "episodes")), blocks=ready(blocks)),
        OfflineClient(),
    )
    said = ["Я живу в Самаре, работаю бухгалтером.", "У меня есть кот Рыжик.",
            "В мае переехала в Казань.", "Рыжика больше нет, вчера похоронили."]
    start = datetime(2026, 11, 2, 9, 0, tzinfo=UTC)
    try:
        for n, text in enumerate(said):
            outbox.enqueue(f"x-{n}", "exchange", user_id, {
                "user_text": text, "reply": "Запомню.",
                "at": (start + timedelta(days=n)).isoformat()})
            report = await processor.drain(timeout_s=120)
            assert report.failed == 0 and report.pending == 0, report
    finally:
        session_log.close()

    block = (await blocks.get(user_id, "human")).value
    assert "Казан" in block, block
    assert "Самар" not in block, block
    assert "Рыжик" not in block, block
    history = await blocks.history(user_id, "human")
    assert any("city Самара -> Казань" in v.reason for v in history), [v.reason for v in history]
    assert any("Самар" in v.value for v in history)  # the old version stays in the history
    active = [f.text for f in await graph.list_facts(user_id, statuses=[Status.ACTIVE])]
    assert not any("Самар" in t for t in active), active
