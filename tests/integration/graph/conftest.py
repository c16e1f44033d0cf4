"""Fixtures for the graph layer's tests: a fact factory (the store is ``graph`` in tests/conftest.py)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest

from graph.models import Fact, FactType, Status, Tier, Veracity, new_id, utcnow

MakeFact = Callable[..., Fact]


@pytest.fixture
def make_fact(user_id: str) -> MakeFact:
    """Build (not store) a fact for the test's user; ``age_s`` backdates it."""

    def build(text: str, *, age_s: float = 0.0, **fields: Any) -> Fact:
        when = utcnow() - timedelta(seconds=age_s)
        values: dict[str, Any] = {
            "id": new_id("f"),
            "user_id": user_id,
            "text": text,
            "type": FactType.STATE,
            "tier": Tier.OBSERVATION,
            "status": Status.ACTIVE,
            "veracity": Veracity.STATED,
            "confidence": 1.0,
            "created_at": when,
            "last_confirmed_at": when,
        }
        values.update(fields)
        return Fact(**values)

    return build
