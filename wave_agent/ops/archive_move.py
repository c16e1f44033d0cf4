"""Moving an install's semantic archive to a Qdrant server (``wave reindex --to-server URL``).

The graph is the system of record, so the move reads every person's records (every status:
history stays searchable) from Neo4j and writes them to the server. A record's vector is
copied from the current archive when it has one (same model and dimension: a fact's text never
changes, so neither does its vector) and embedded otherwise; nothing is taken from the old
archive that the graph does not hold. Then, per person, vectors on the server without a
record are removed, records the writer had flagged ``needs_index`` are re-sent and cleared
(through the one writer), and the server's ids are checked against the graph's. Running it
again is safe: points are keyed by (user, fact id), so a second run rewrites the same points.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from archive.errors import ArchiveError
from wave_agent.ops.maintenance.base import users_in_graph
from wave_agent.write.archive_sync import ArchiveSync, archive_record

if TYPE_CHECKING:
    from archive.embedder import Embedder
    from archive.store import ArchiveStore
    from graph.store import GraphStore

log = logging.getLogger("wave.archive.move")

BATCH = 256
Progress = Callable[[int, int], None]


@dataclass
class MoveReport:
    target: str
    users: int = 0
    records: int = 0
    copied: int = 0
    embedded: int = 0
    removed: int = 0
    cleared: int = 0
    # Per person: records in the graph that the server still lacks after the move (empty = ok).
    missing: dict[str, list[str]] = field(default_factory=dict)

    def as_json(self) -> dict[str, Any]:
        return {"target": self.target, "users": self.users, "records": self.records,
                "copied_vectors": self.copied, "embedded": self.embedded,
                "removed_vectors": self.removed, "cleared_pending": self.cleared,
                "missing": self.missing}


async def move_archive(
    graph: GraphStore,
    target: ArchiveStore,
    embedder: Embedder,
    *,
    source: ArchiveStore | None,
    users: Sequence[str] | None = None,
    progress: Progress = lambda done, total: None,
) -> MoveReport:
    """Write every record of ``users`` (default: everyone in the graph) to ``target``."""
    from wave_agent.write.writer import Writer

    report = MoveReport(target=target.where)
    people = list(users) if users is not None else await users_in_graph(graph)
    facts_of = {user: await graph.list_facts(user) for user in people}
    total = sum(len(facts) for facts in facts_of.values())
    done = 0
    progress(0, total)
    for user, facts in facts_of.items():
        report.users += 1
        for start in range(0, len(facts), BATCH):
            chunk = facts[start:start + BATCH]
            known = await _old_vectors(source, user, [f.id for f in chunk])
            todo = [f for f in chunk if f.id not in known]
            if todo:
                fresh = await embedder.embed([f.text for f in todo])
                known.update({f.id: v for f, v in zip(todo, fresh, strict=True)})
            await target.upsert(user, [archive_record(f, known[f.id]) for f in chunk])
            report.copied += len(chunk) - len(todo)
            report.embedded += len(todo)
            done += len(chunk)
            progress(done, total)
        ids = {f.id for f in facts}
        stored = await target.fact_ids(user)
        stale = sorted(stored - ids)
        if stale:
            await target.delete(user, stale)
            report.removed += len(stale)
        report.cleared += await Writer(graph, ArchiveSync(embedder, target)).repair_index(user)
        lacking = sorted(ids - stored)
        if lacking:
            report.missing[user] = lacking
        report.records += len(facts)
    return report


async def _old_vectors(
    source: ArchiveStore | None, user: str, fact_ids: list[str]
) -> dict[str, np.ndarray]:
    """Vectors the current archive already holds; {} when there is none or it fails."""
    if source is None:
        return {}
    try:
        return await source.vectors(user, fact_ids)
    except ArchiveError as exc:
        log.warning("old archive unreadable for %s, embedding instead: %s", user, exc)
        return {}
