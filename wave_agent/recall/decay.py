"""Type-specific Weibull decay and confidence: the recency re-ranking of recall.

Survival ``S(t) = exp(-(t / scale) ** shape)`` with ``t`` the days since the record was last
confirmed. Identity never decays; commitments and states decay fast (a state that does not
expire becomes a lie); a commitment past its ``valid_until`` drops to its floor at once.
The factor applied to a fused score is ``floor + (1 - floor) * S``: decay re-orders records of
similar relevance (an old but similar record must not beat a current one) without making old
records unfindable; how strongly it applies is the preset's ``decay_strength``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import datetime
from types import MappingProxyType

from graph.models import Fact, FactType, Status


@dataclass(frozen=True, slots=True)
class Weibull:
    scale_days: float | None  # None: no decay
    shape: float = 1.0
    floor: float = 0.5

    def survival(self, age_days: float) -> float:
        if self.scale_days is None or age_days <= 0:
            return 1.0
        return math.exp(-((age_days / self.scale_days) ** self.shape))

    def factor(self, age_days: float) -> float:
        return self.floor + (1.0 - self.floor) * self.survival(age_days)


DECAY: MappingProxyType[FactType, Weibull] = MappingProxyType(
    {
        FactType.IDENTITY: Weibull(None, floor=1.0),
        FactType.PREFERENCE: Weibull(365.0, 0.8, floor=0.75),
        FactType.RELATIONSHIP: Weibull(540.0, 0.8, floor=0.75),
        FactType.DECISION: Weibull(540.0, 0.8, floor=0.75),
        FactType.EVENT: Weibull(730.0, 0.8, floor=0.9),
        # A promise stays worth finding until it is kept (then a newer record says so):
        # at floor 0.3 after a month, "what did I promise my son?" lost a five-month-old
        # promise to rank 30+ on the Russian memory set (docs/benchmarks.md).
        FactType.COMMITMENT: Weibull(60.0, 1.0, floor=0.7),
        FactType.STATE: Weibull(3.0, 1.5, floor=0.25),
    }
)

# Records out of circulation answer history questions but rank below current ones.
STATUS_FACTOR: MappingProxyType[Status, float] = MappingProxyType(
    {Status.ACTIVE: 1.0, Status.ARCHIVED: 0.8, Status.SUPERSEDED: 0.7, Status.QUARANTINED: 0.5}
)


def age_days(fact: Fact, now: datetime) -> float:
    seen = max(fact.last_confirmed_at, fact.created_at)
    return max(0.0, (now - seen).total_seconds() / 86_400.0)


def decay_factor(fact: Fact, now: datetime, strength: float = 1.0) -> float:
    """Multiplier in (0, 1] for a record's fused score at ``now``."""
    curve = DECAY.get(fact.type, DECAY[FactType.EVENT])
    factor = curve.factor(age_days(fact, now))
    if fact.valid_until is not None and fact.valid_until < now:
        factor = min(factor, curve.floor)
    strength = min(1.0, max(0.0, strength))
    return 1.0 - strength * (1.0 - factor)


def confidence_factor(fact: Fact) -> float:
    """A weakly believed record counts less, never nothing: 0.6 at confidence 0, 1.0 at 1."""
    confidence = min(1.0, max(0.0, fact.confidence))
    return 0.6 + 0.4 * confidence


def record_factor(fact: Fact, now: datetime, strength: float = 1.0) -> float:
    return decay_factor(fact, now, strength) * confidence_factor(fact) * STATUS_FACTOR.get(fact.status, 1.0)
