"""What erasing a record leaves behind in the graph, and erasing it too.

A record's traces are the entities only it named (with their ``EntityKey`` nodes and their
relations), its id in the provenance of relations other records also support (a relation with
no provenance left goes), and the proposals and conflicts that concern it (whatever their
status: a decided proposal still quotes the text). The record's own node is deleted by the
writer (``Writer.delete``); these queries never touch a record node, only what hangs off it.
"""

from __future__ import annotations

from dataclasses import dataclass

from graph.errors import ProposalNotFound
from graph.models import Proposal
from graph.queries.base import Executor
from graph.records import proposal_from


@dataclass(frozen=True, slots=True)
class GraphTraces:
    """What went with a record from the graph (counts; ids of what was removed)."""

    entities: tuple[str, ...] = ()
    entity_names: tuple[str, ...] = ()
    relations: int = 0
    relations_trimmed: int = 0
    proposals: tuple[str, ...] = ()
    conflicts: tuple[str, ...] = ()


class ErasureQueries(Executor):
    async def erase_record_traces(self, user_id: str, record_id: str) -> GraphTraces:
        """Remove what hangs off one record (before the writer deletes the record itself)."""
        async with self._atomic() as ops:
            reviews = await ops._write(
                """
                MATCH (n)-[:CONCERNS]->(r {id: $rid}) WHERE r.user_id = $user_id
                  AND (n:Proposal OR n:Conflict) AND n.user_id = $user_id
                WITH n, labels(n) AS kinds, n.id AS nid
                DETACH DELETE n
                RETURN collect(CASE WHEN 'Proposal' IN kinds THEN nid END) AS proposals,
                       collect(CASE WHEN 'Conflict' IN kinds THEN nid END) AS conflicts
                """,
                rid=record_id, user_id=user_id,
            )
            trimmed = await ops._write(
                """
                MATCH (a:Entity)-[rel]->(b:Entity)
                WHERE rel.user_id = $user_id AND $rid IN coalesce(rel.provenance, [])
                SET rel.provenance = [p IN rel.provenance WHERE p <> $rid]
                WITH rel, size(rel.provenance) = 0 AS empty
                FOREACH (_ IN CASE WHEN empty THEN [1] ELSE [] END | DELETE rel)
                RETURN count(*) AS touched, sum(CASE WHEN empty THEN 1 ELSE 0 END) AS removed
                """,
                rid=record_id, user_id=user_id,
            )
            orphans = await ops._write(
                """
                MATCH (r {id: $rid})-[:ABOUT]->(e:Entity) WHERE r.user_id = $user_id
                  AND e.user_id = $user_id
                  AND NOT EXISTS {
                    MATCH (other)-[:ABOUT]->(e) WHERE other.id <> $rid
                  }
                  AND NOT EXISTS {
                    MATCH (e)-[rel]-(:Entity) WHERE size(coalesce(rel.provenance, [])) > 0
                  }
                  AND NOT EXISTS { MATCH (:Proposal)-[:CONCERNS]->(e) }
                OPTIONAL MATCH (k:EntityKey)-[:NAMES]->(e)
                  WHERE NOT EXISTS { MATCH (k)-[:NAMES]->(e2:Entity) WHERE e2 <> e }
                WITH e, collect(k) AS keys, e.id AS eid, e.name AS ename
                FOREACH (k IN keys | DETACH DELETE k)
                DETACH DELETE e
                RETURN collect(eid) AS ids, collect(ename) AS names
                """,
                rid=record_id, user_id=user_id,
            )
        row = reviews[0] if reviews else None
        t = trimmed[0] if trimmed else None
        o = orphans[0] if orphans else None
        removed = int(t["removed"] or 0) if t else 0
        return GraphTraces(
            entities=tuple(o["ids"]) if o else (),
            entity_names=tuple(o["names"]) if o else (),
            relations=removed,
            relations_trimmed=(int(t["touched"] or 0) - removed) if t else 0,
            proposals=tuple(row["proposals"]) if row else (),
            conflicts=tuple(row["conflicts"]) if row else (),
        )

    async def delete_proposal(self, user_id: str, proposal_id: str) -> Proposal:
        """Erase one proposal (its text with it); raises ``ProposalNotFound``."""
        records = await self._write(
            """
            MATCH (n:Proposal {id: $id}) WHERE n.user_id = $user_id
            WITH n, properties(n) AS props
            DETACH DELETE n
            RETURN props
            """,
            id=proposal_id, user_id=user_id,
        )
        if not records:
            raise ProposalNotFound(user_id, proposal_id)
        return proposal_from(records[0]["props"])

    async def clear_proposal_text(self, user_id: str, proposal_id: str) -> bool:
        """Drop a decided proposal's text, and the reason that quotes it (its kind, targets and
        status stay: maintenance does not propose a rejected set again)."""
        records = await self._write(
            """
            MATCH (n:Proposal {id: $id}) WHERE n.user_id = $user_id
            REMOVE n.text
            SET n.reason = $reason
            RETURN n.id AS id
            """,
            id=proposal_id, user_id=user_id, reason="declined; its text was erased",
        )
        return bool(records)

    async def user_node_count(self, user_id: str) -> int:
        """How many nodes of any label carry this user id (0 after a complete erasure)."""
        records = await self._read(
            "MATCH (n) WHERE n.user_id = $user_id RETURN count(n) AS n", user_id=user_id
        )
        return int(records[0]["n"]) if records else 0
