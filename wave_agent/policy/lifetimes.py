"""How long a record stays true, and when it is due for a second look: pure rules, no I/O.

- **Expiry** (seed 004: a state without an expiry becomes a confident lie): ``state`` and
  ``commitment`` records end at ``valid_until``; a ``state`` stored without one is held to
  ``STATE_LIFETIME`` from its last confirmation ("tired today" is not true next month). A
  commitment without one has no known end.
- **Review** (seed 002, "Ревизия"): a fact not confirmed for 6 months if it holds numbers
  (prices, dates, team sizes go stale in life), 2 years otherwise, is shown to the person,
  never demoted.

The writer gives a new ``state`` its ``valid_until`` from here; maintenance's ``expire`` and
``review`` jobs and the health report judge records by the same rules.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from graph.models import Fact, FactType, Status, Tier
from wave_agent.policy import numbers

STATE_LIFETIME = timedelta(days=7)  # "mood, current status: must expire" (DESIGN section 3)
EXPIRING = (FactType.STATE, FactType.COMMITMENT)

WITH_NUMBERS = timedelta(days=183)
WITHOUT_NUMBERS = timedelta(days=730)
REVIEWED_TIERS = (Tier.FACT, Tier.CORE)


def expires_at(fact: Fact) -> datetime | None:
    """When a record stops being true, if it is a kind that does."""
    if fact.valid_until is not None:
        return fact.valid_until
    if fact.type is FactType.STATE:
        return fact.last_confirmed_at + STATE_LIFETIME
    return None


def is_expired(fact: Fact, now: datetime) -> bool:
    if fact.type not in EXPIRING:
        return False
    end = expires_at(fact)
    return end is not None and end < now


def review_after(fact: Fact) -> timedelta:
    return WITH_NUMBERS if numbers.numbers(fact.text) else WITHOUT_NUMBERS


def due_for_review(fact: Fact, now: datetime) -> bool:
    return (fact.status is Status.ACTIVE and fact.tier in REVIEWED_TIERS
            and now - fact.last_confirmed_at > review_after(fact))
