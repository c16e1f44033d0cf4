"""Tiers and confidence: stability, not importance (DESIGN section 3).

- ``observation``: heard once (a new record from conversation);
- ``fact``: confirmed in two different exchanges, or pinned by a person;
- ``core``: an ``identity`` fact pinned by a person;
- ``archive``: out of circulation (reversible).
"""

from __future__ import annotations

from collections.abc import Iterable

from graph.models import FactType, Tier, Veracity

# A re-mention raises confidence by REMENTION_STEP x the veracity weight, capped at 1.0:
# a repeated inference (0.7) climbs 0.70 -> 0.84 -> 0.98 -> 1.0; a statement starts at 1.0.
REMENTION_STEP = 0.2
PROMOTION_EXCHANGES = 2


def initial_confidence(veracity: Veracity) -> float:
    return veracity.weight


def confidence_after_mention(confidence: float, veracity: Veracity) -> float:
    return round(min(1.0, confidence + REMENTION_STEP * veracity.weight), 4)


def distinct_exchanges(exchange_ids: Iterable[str]) -> int:
    return len({e for e in exchange_ids if e})


def tier_for(
    *, type: FactType, pinned: bool, exchange_ids: Iterable[str], current: Tier | None = None
) -> Tier:
    """The tier the rules give a live record; never lowers a fact or core (demotion is proposed)."""
    if pinned:
        return Tier.CORE if type is FactType.IDENTITY else Tier.FACT
    if current in (Tier.FACT, Tier.CORE):
        return current
    if distinct_exchanges(exchange_ids) >= PROMOTION_EXCHANGES:
        return Tier.FACT
    return Tier.OBSERVATION
