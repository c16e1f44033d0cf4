"""The four voices of recall, each a ranked list of fact ids, each allowed to fail alone.

A voice that raises or exceeds its timeout (Neo4j down, the archive locked by ``wave run``)
is dropped with a log line and noted in ``Degraded``; the others still answer.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, TypeVar

import numpy as np

from graph import kin
from graph.models import Entity, EntityType, Fact, Status

if TYPE_CHECKING:
    from archive.store import ArchiveStore
    from graph.store import GraphStore

log = logging.getLogger("wave.recall")

T = TypeVar("T")


@dataclass(slots=True)
class VoiceResult:
    """One voice's answer: ids best first, the facts it already loaded, raw scores, and the
    query vector (semantic voice)."""

    ids: list[str] = field(default_factory=list)
    facts: dict[str, Fact] = field(default_factory=dict)
    scores: dict[str, float] = field(default_factory=dict)
    query_vector: np.ndarray | None = None


@dataclass(slots=True)
class Degraded:
    """Which voices (or steps) failed in the last call, and why; empty when all answered."""

    reasons: dict[str, str] = field(default_factory=dict)
    timings_ms: dict[str, float] = field(default_factory=dict)

    def __bool__(self) -> bool:
        return bool(self.reasons)


async def guarded(
    name: str,
    make: Callable[[], Awaitable[T]],
    default: T,
    timeout_s: float,
    degraded: Degraded,
) -> T:
    """Run one voice with a timeout; on any failure log it, note it, return ``default``."""
    started = time.perf_counter()
    try:
        async with asyncio.timeout(timeout_s):
            return await make()
    except TimeoutError:
        degraded.reasons[name] = f"timed out after {timeout_s * 1000:.0f} ms"
        log.warning("recall voice %s timed out after %.0f ms; answering without it",
                    name, timeout_s * 1000)
    except asyncio.CancelledError:
        raise
    except Exception as exc:  # a failing voice never fails the call
        degraded.reasons[name] = f"{type(exc).__name__}: {exc}"
        log.warning("recall voice %s failed, answering without it: %s", name, exc)
    finally:
        degraded.timings_ms[name] = (time.perf_counter() - started) * 1000
    return default


async def lexical(graph: GraphStore, user_id: str, query: str, statuses: Sequence[Status],
                  limit: int) -> VoiceResult:
    scored = await graph.fulltext_search(user_id, query, statuses=statuses, limit=limit)
    result = VoiceResult()
    for item in scored:
        result.ids.append(item.fact.id)
        result.facts[item.fact.id] = item.fact
        result.scores[item.fact.id] = float(item.score)
    return result


async def semantic(archive: ArchiveStore, user_id: str, vector: np.ndarray, statuses: Sequence[Status],
                   limit: int, created: tuple[datetime, datetime] | None = None) -> VoiceResult:
    """The archive's nearest records; ``created``: only those created in ``[start, end)``."""
    extra = {} if created is None else {"created": created}
    hits = await archive.search(user_id, vector, limit=limit,
                                statuses=tuple(s.value for s in statuses), **extra)
    result = VoiceResult(query_vector=np.asarray(vector, dtype=np.float32))
    for hit in hits:
        fid, score = (str(hit[0]), float(hit[1])) if isinstance(hit, tuple) else (
            hit.fact_id, float(hit.score))
        result.ids.append(fid)
        result.scores[fid] = score
    return result


async def temporal(graph: GraphStore, user_id: str, statuses: Sequence[Status], limit: int) -> VoiceResult:
    facts = await graph.recent_facts(user_id, limit=limit, statuses=statuses)
    return VoiceResult(ids=[f.id for f in facts], facts={f.id: f for f in facts})


async def graph_walk(graph: GraphStore, user_id: str, entity_ids: Sequence[str],
                     statuses: Sequence[Status], limit: int) -> VoiceResult:
    if not entity_ids:
        return VoiceResult()
    scored = await graph.neighbourhood(user_id, list(entity_ids), hops=2, limit=limit,
                                       statuses=statuses)
    return VoiceResult(ids=[s.fact.id for s in scored], facts={s.fact.id: s.fact for s in scored},
                       scores={s.fact.id: float(s.score) for s in scored})


async def mentioned_entities(graph: GraphStore, user_id: str, query: str) -> list[str]:
    """The known entities a query names; a role word followed by a name ("жену Олега") names
    Oleg's wife, not the person's own, so it spots nobody by that role."""
    return [e.id for e in await named(graph, user_id, query)]


async def named(graph: GraphStore, user_id: str, query: str) -> list[Entity]:
    """The known entities a query names, as entities (``mentioned_entities``' read, which the
    entity step, ``recall.about``, reads too: one search asks it once)."""
    return await graph.entities_in_text(user_id, kin.without_named_roles(query))


def shared(read: Awaitable[T]) -> asyncio.Future[T]:
    """``read`` started now, to be awaited by several steps of one search (each through
    ``asyncio.shield``, so one step's timeout never cancels a query in flight: a query
    cancelled half-read left its pooled connection broken). Its failure is each waiter's
    to note; nobody waiting is no error."""
    future = asyncio.ensure_future(read)
    future.add_done_callback(lambda f: f.cancelled() or f.exception())
    return future


async def relatives(graph: GraphStore, user_id: str, roles: Sequence[str]) -> list[Entity]:
    """The person's relatives in ``roles`` ("son", "wife"): person entities carrying one of
    the role's words as an alias (the writer gives them: ``graph.kin``)."""
    if not roles:
        return []
    words = [w for role in roles for w in kin.role_words(role)]
    wanted = set(words)
    return [e for e in await graph.entities_in_text(user_id, " ".join(words))
            if e.type is EntityType.PERSON and wanted & {a.lower() for a in e.aliases}]
