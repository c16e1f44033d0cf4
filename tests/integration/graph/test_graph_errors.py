"""Driver failures reach callers as graph errors that name the next step."""

from __future__ import annotations

import socket
from collections.abc import Callable

import pytest

from graph.errors import DuplicateId, GraphError, GraphUnavailable
from graph.models import Fact
from graph.store import GraphStore

pytestmark = pytest.mark.neo4j

MakeFact = Callable[..., Fact]


def _closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


async def test_unreachable_neo4j_says_what_to_do() -> None:
    uri = f"bolt://127.0.0.1:{_closed_port()}"
    with pytest.raises(GraphUnavailable) as caught:
        await GraphStore.connect(uri, "neo4j", "x", connection_timeout=1.0)
    assert uri in str(caught.value)
    assert "wave services up" in str(caught.value)
    assert caught.value.next_step
    assert isinstance(caught.value, GraphError)


async def test_duplicate_fact_id_is_translated(graph: GraphStore, make_fact: MakeFact) -> None:
    fact = make_fact("Один и тот же id")
    await graph.create_fact(fact)
    with pytest.raises(DuplicateId) as caught:
        await graph.create_fact(fact)
    assert caught.value.next_step
    assert caught.value.__cause__ is not None


async def test_duplicate_inside_transaction_rolls_back(graph: GraphStore, make_fact: MakeFact,
                                                       user_id: str) -> None:
    first = await graph.create_fact(make_fact("уже есть"))
    fresh = make_fact("новый")
    with pytest.raises(DuplicateId):
        async with graph.transaction() as tx:
            await tx.create_fact(fresh)
            await tx.create_fact(first)
    assert await graph.get_fact(user_id, fresh.id) is None
    assert await graph.get_fact(user_id, first.id) == first
