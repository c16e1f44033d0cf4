"""What one ``Recall.search`` returns: the hits, best first, with how the call went."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from graph.models import Fact, Status
from wave_agent.recall import voices, when
from wave_agent.recall.presets import CURRENT, Preset


@dataclass(frozen=True, slots=True)
class RecallHit:
    """One record found: its fused, weighed score and its 1-based rank in each voice (None
    where the voice did not return it)."""

    fact: Fact
    score: float
    ranks: dict[str, int | None] = field(default_factory=dict)


class RecallResult(list[RecallHit]):
    """The hits of one ``search``, best first (a list), with how that call went: ``degraded``
    (voices or steps that failed or timed out, and timings), ``preset``, ``span`` (the period
    the question named), ``statuses`` (the record statuses searched: superseded and archived
    ones too for a history question), ``query_map`` (whether the learned query map moved the
    question: ``recall.adapter``, and with ``auto`` ``recall.kind``), ``e5_order`` (whether the
    candidates were left in e5's order: ``RecallConfig.e5_order``), ``context_order`` (whether
    the context stage reordered them: ``RecallConfig.context_stage``). Each call's own: two
    people's concurrent searches on the one shared ``Recall`` cannot overwrite each other's
    account."""

    def __init__(self, hits: Sequence[RecallHit] = (), *, degraded: voices.Degraded,
                 preset: Preset | None, span: when.Span | None = None,
                 statuses: tuple[Status, ...] = CURRENT, query_map: bool = False,
                 e5_order: bool = False, context_order: bool = False) -> None:
        super().__init__(hits)
        self.degraded = degraded
        self.preset = preset
        self.span = span
        self.statuses = statuses
        self.query_map = query_map
        self.e5_order = e5_order
        self.context_order = context_order

    @property
    def hits(self) -> list[RecallHit]:
        return list(self)


def hit_json(hit: RecallHit) -> dict[str, Any]:
    """The shape ``wave recall --json`` prints for one record."""
    fact = hit.fact
    return {
        "id": fact.id,
        "text": fact.text,
        "score": hit.score,
        "tier": fact.tier.value,
        "status": fact.status.value,
        "type": fact.type.value,
        "created_at": fact.created_at.isoformat(),
        "ranks": dict(hit.ranks),
    }

