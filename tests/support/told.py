"""A person's messages written one after another, some days ago: shared by the integration tests
that ask recall about values said at different times."""

from __future__ import annotations

from datetime import timedelta

from graph.models import Fact, Veracity, utcnow
from wave_agent.write.writer import MemoryItem, Writer


async def told(writer: Writer, user_id: str, texts: list[str], days_ago: int) -> list[str]:
    """Each text said by the person, one after another, ``days_ago`` days ago; their ids."""
    now = utcnow()
    ids = []
    for i, text in enumerate(texts):
        result = await writer.remember(user_id, text, veracity=Veracity.STATED,
                                       created_at=now - timedelta(days=days_ago, minutes=-i))
        assert result.fact is not None, result.message
        ids.append(result.fact.id)
    return ids


async def told_at_once(writer: Writer, user_id: str, lines: list[tuple[str | None, str, int]],
                       veracity: Veracity = Veracity.STATED) -> list[Fact]:
    """``(speaker, text, days_ago)`` lines written in one batch (``speaker`` None: the person);
    the records stored."""
    now = utcnow()
    results = await writer.remember_many(user_id, [
        MemoryItem(text, veracity=veracity, created_at=now - timedelta(days=days), speaker=speaker)
        for speaker, text, days in lines])
    return [r.fact for r in results if r.fact is not None]
