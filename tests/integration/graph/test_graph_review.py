"""Proposals and conflicts: stored, linked to their facts, listed, decided."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from graph.errors import ConflictNotFound, InvalidInput, ProposalNotFound
from graph.models import (
    Conflict,
    Fact,
    Proposal,
    ProposalKind,
    ProposalStatus,
    new_id,
    utcnow,
)
from graph.store import GraphStore

pytestmark = pytest.mark.neo4j

MakeFact = Callable[..., Fact]


async def test_proposal_lifecycle(graph: GraphStore, make_fact: MakeFact, user_id: str) -> None:
    a = await graph.create_fact(make_fact("зарплата 100"))
    b = await graph.create_fact(make_fact("зарплата 120"))
    proposal = Proposal(new_id("p"), user_id, ProposalKind.SUPERSEDE, (a.id, b.id),
                        "same words, other numbers", text="зарплата 120", similarity=0.93)
    assert await graph.create_proposal(proposal) == proposal
    assert await graph.get_proposal(user_id, proposal.id) == proposal
    assert await graph.list_proposals(user_id) == [proposal]
    linked = await graph._read(
        "MATCH (:Proposal {id: $id})-[:CONCERNS]->(f:Fact) RETURN collect(f.id) AS ids",
        id=proposal.id,
    )
    assert set(linked[0]["ids"]) == {a.id, b.id}

    approved = await graph.set_proposal_status(user_id, proposal.id, ProposalStatus.APPROVED)
    assert approved.status is ProposalStatus.APPROVED
    assert await graph.list_proposals(user_id) == []
    assert await graph.list_proposals(user_id, ProposalStatus.APPROVED) == [approved]
    assert await graph.list_proposals(user_id, None) == [approved]
    with pytest.raises(ProposalNotFound):
        await graph.set_proposal_status(user_id, "p-missing", "rejected")
    assert await graph.get_proposal(user_id, "p-missing") is None


async def test_conflict_lifecycle(graph: GraphStore, make_fact: MakeFact, user_id: str) -> None:
    a = await graph.create_fact(make_fact("люблю кофе"))
    b = await graph.create_fact(make_fact("не пью кофе"))
    conflict = Conflict(new_id("c"), user_id, (a.id, b.id), "кофе", "contradicting",
                        created_at=utcnow())
    assert await graph.create_conflict(conflict) == conflict
    assert await graph.list_conflicts(user_id) == [conflict]
    assert await graph.count_conflicts(user_id) == 1
    assert await graph.count_conflicts() >= 1
    resolved = await graph.resolve_conflict(user_id, conflict.id)
    assert resolved.resolved is True
    assert await graph.list_conflicts(user_id) == []
    assert await graph.list_conflicts(user_id, resolved=None) == [resolved]
    assert await graph.count_conflicts(user_id) == 0
    assert await graph.get_conflict(user_id, conflict.id) == resolved
    with pytest.raises(ConflictNotFound):
        await graph.resolve_conflict(user_id, "c-missing")
    with pytest.raises(InvalidInput):
        await graph.create_conflict(Conflict(new_id("c"), user_id, (a.id,), "x", "y"))  # type: ignore[arg-type]
