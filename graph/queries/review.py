"""Proposals (changes the agent only suggests) and conflicts (contradicting facts).

Both are nodes linked ``CONCERNS`` to the facts (or, for proposals, entities) they are about.
"""

from __future__ import annotations

from graph.errors import ConflictNotFound, ProposalNotFound
from graph.models import Conflict, Proposal, ProposalStatus, utcnow
from graph.queries.base import Executor
from graph.records import conflict_from, conflict_props, proposal_from, proposal_props

_CONCERNS = """
CALL (n) {
  UNWIND $target_ids AS tid
  OPTIONAL MATCH (f:Fact {id: tid}) WHERE f.user_id = $user_id
  OPTIONAL MATCH (e:Entity {id: tid}) WHERE e.user_id = $user_id
  WITH n, coalesce(f, e) AS target WHERE target IS NOT NULL
  MERGE (n)-[:CONCERNS]->(target)
}
"""


class ReviewQueries(Executor):
    # -- proposals ---------------------------------------------------------------------------

    async def create_proposal(self, proposal: Proposal) -> Proposal:
        records = await self._write(
            "CREATE (n:Proposal) SET n = $props WITH n" + _CONCERNS + "RETURN n",
            props=proposal_props(proposal), user_id=proposal.user_id,
            target_ids=list(proposal.target_ids),
        )
        return proposal_from(records[0]["n"])

    async def create_proposals(self, user_id: str, proposals: list[Proposal]) -> list[Proposal]:
        """Many proposals of one user in one statement (an import's number changes)."""
        if not proposals:
            return []
        records = await self._write(
            """
            UNWIND $rows AS row
            CREATE (n:Proposal) SET n = row.props
            WITH n, row
            CALL (n, row) {
              UNWIND row.target_ids AS tid
              OPTIONAL MATCH (f:Fact {id: tid}) WHERE f.user_id = $user_id
              OPTIONAL MATCH (e:Entity {id: tid}) WHERE e.user_id = $user_id
              WITH n, coalesce(f, e) AS target WHERE target IS NOT NULL
              MERGE (n)-[:CONCERNS]->(target)
            }
            RETURN n
            """,
            rows=[{"props": proposal_props(p), "target_ids": list(p.target_ids)}
                  for p in proposals if p.user_id == user_id],
            user_id=user_id,
        )
        return [proposal_from(r["n"]) for r in records]

    async def get_proposal(self, user_id: str, id: str) -> Proposal | None:
        records = await self._read(
            "MATCH (n:Proposal {id: $id}) WHERE n.user_id = $user_id RETURN n",
            id=id, user_id=user_id,
        )
        return proposal_from(records[0]["n"]) if records else None

    async def list_proposals(
        self, user_id: str, status: ProposalStatus | str | None = ProposalStatus.PENDING
    ) -> list[Proposal]:
        """The user's proposals with ``status`` (all when None), newest first."""
        records = await self._read(
            """
            MATCH (n:Proposal) WHERE n.user_id = $user_id AND ($status IS NULL OR n.status = $status)
            RETURN n ORDER BY n.created_at DESC, n.id
            """,
            user_id=user_id,
            status=ProposalStatus(status).value if status is not None else None,
        )
        return [proposal_from(r["n"]) for r in records]

    async def set_proposal_status(
        self, user_id: str, id: str, status: ProposalStatus | str
    ) -> Proposal:
        records = await self._write(
            """
            MATCH (n:Proposal {id: $id}) WHERE n.user_id = $user_id
            SET n.status = $status, n.decided_at = $now
            RETURN n
            """,
            id=id, user_id=user_id, status=ProposalStatus(status).value,
            now=utcnow(),
        )
        if not records:
            raise ProposalNotFound(user_id, id)
        return proposal_from(records[0]["n"])

    # -- conflicts ---------------------------------------------------------------------------

    async def create_conflict(self, conflict: Conflict) -> Conflict:
        records = await self._write(
            "CREATE (n:Conflict) SET n = $props WITH n" + _CONCERNS + "RETURN n",
            props=conflict_props(conflict), user_id=conflict.user_id,
            target_ids=list(conflict.fact_ids),
        )
        return conflict_from(records[0]["n"])

    async def get_conflict(self, user_id: str, id: str) -> Conflict | None:
        records = await self._read(
            "MATCH (n:Conflict {id: $id}) WHERE n.user_id = $user_id RETURN n",
            id=id, user_id=user_id,
        )
        return conflict_from(records[0]["n"]) if records else None

    async def list_conflicts(self, user_id: str, resolved: bool | None = False) -> list[Conflict]:
        """The user's conflicts (open ones by default; all when ``resolved`` is None)."""
        records = await self._read(
            """
            MATCH (n:Conflict) WHERE n.user_id = $user_id
              AND ($resolved IS NULL OR n.resolved = $resolved)
            RETURN n ORDER BY n.created_at DESC, n.id
            """,
            user_id=user_id, resolved=resolved,
        )
        return [conflict_from(r["n"]) for r in records]

    async def count_conflicts(self, user_id: str | None = None, *, resolved: bool = False) -> int:
        """Open (or resolved) conflicts of one user or of everyone: the contradiction counter."""
        records = await self._read(
            """
            MATCH (n:Conflict) WHERE ($user_id IS NULL OR n.user_id = $user_id)
              AND n.resolved = $resolved
            RETURN count(n) AS count
            """,
            user_id=user_id, resolved=resolved,
        )
        return int(records[0]["count"])

    async def resolve_conflict(self, user_id: str, id: str) -> Conflict:
        records = await self._write(
            """
            MATCH (n:Conflict {id: $id}) WHERE n.user_id = $user_id
            SET n.resolved = true, n.resolved_at = $now
            RETURN n
            """,
            id=id, user_id=user_id, now=utcnow(),
        )
        if not records:
            raise ConflictNotFound(user_id, id)
        return conflict_from(records[0]["n"])
