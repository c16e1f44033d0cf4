"""Erasure tests: real Services (Neo4j, Qdrant local mode, files) over the test's DATA_DIR,
with conversations that went through the whole pipeline (turn, outbox, post-processor)."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from archive.embedder import Embedder
from wave_agent.services import Services
from wave_agent.settings import Settings

pytestmark = pytest.mark.neo4j


@pytest.fixture
async def services(settings: Settings, embedder: Embedder) -> AsyncIterator[Services]:
    async with Services(settings, embedder=embedder) as opened:
        await (await opened.turns()).warm_up()
        yield opened


async def converse(services: Services, user_id: str, *messages: str) -> None:
    """The person says each message (offline model), post-processing runs, the session ends
    (so a snapshot is written)."""
    turns = await services.turns()
    for text in messages:
        await turns.handle(user_id, text)
    report = await services.postprocessor().drain(120)
    assert report.pending == 0, report
    await turns.reset(user_id)


def files_holding(root: Path, needle: str) -> list[str]:
    """Every file under ``root`` whose bytes hold ``needle`` (UTF-8), relative paths.

    As in the graph's check, a needle of digits counts only where no digit or decimal point
    touches it, so a timestamp's fraction ("04.990512") is not taken for a safe's code.
    """
    pattern = re.compile(rb"(?<![0-9.])" + re.escape(needle.encode("utf-8")) + rb"(?![0-9])")
    return sorted(str(p.relative_to(root)) for p in root.rglob("*")
                  if p.is_file() and pattern.search(p.read_bytes()))


def tree_bytes(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*"))
            if p.is_file()}
