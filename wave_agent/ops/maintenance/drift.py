"""Archive/graph drift: what the derived index (Qdrant) and the system of record (Neo4j)
disagree on, for one person.

- ``missing``: facts with no vector (a write while the archive was locked or down, a lost
  collection) -> re-sent through the writer's archive side;
- ``flagged``: facts carrying ``needs_index`` (the writer's own record of a missed update)
  -> ``Writer.repair_index`` re-sends them and clears the flag;
- ``orphans``: vectors whose fact is gone from the graph -> their vectors are removed (the
  text lives in the graph or nowhere; a vector is not a record).
Health reports the same numbers (``index_drift``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from graph.models import Fact

if TYPE_CHECKING:
    from archive.store import ArchiveStore
    from graph.store import GraphStore


@dataclass(frozen=True, slots=True)
class IndexDrift:
    user_id: str
    missing: tuple[str, ...] = ()
    flagged: tuple[str, ...] = ()
    orphans: tuple[str, ...] = ()
    facts: dict[str, Fact] = field(default_factory=dict, compare=False, repr=False)

    @property
    def total(self) -> int:
        return len(set(self.missing) | set(self.flagged)) + len(self.orphans)

    def as_json(self) -> dict[str, Any]:
        return {"missing_vectors": len(self.missing), "flagged": len(self.flagged),
                "orphan_vectors": len(self.orphans), "total": self.total}


async def index_drift(graph: GraphStore, archive: ArchiveStore, user_id: str) -> IndexDrift:
    """Compare the person's facts (every status: history is searchable) with the vectors."""
    facts = {f.id: f for f in await graph.list_facts(user_id)}
    vectors = set(await archive.fact_ids(user_id))
    return IndexDrift(
        user_id=user_id,
        missing=tuple(sorted(set(facts) - vectors)),
        flagged=tuple(sorted(fid for fid, f in facts.items() if f.needs_index)),
        orphans=tuple(sorted(vectors - set(facts))),
        facts=facts,
    )
