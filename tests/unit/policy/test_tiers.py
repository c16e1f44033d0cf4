"""Tiers measure stability: observation -> fact after two exchanges or a pin; pinned identity is core."""

from __future__ import annotations

from graph.models import FactType, Tier, Veracity
from wave_agent.policy.tiers import confidence_after_mention, initial_confidence, tier_for


def test_new_record_is_an_observation() -> None:
    assert tier_for(type=FactType.EVENT, pinned=False, exchange_ids=("x1",)) is Tier.OBSERVATION


def test_two_mentions_in_one_exchange_do_not_promote() -> None:
    assert tier_for(type=FactType.EVENT, pinned=False, exchange_ids=("x1", "x1")) is Tier.OBSERVATION


def test_two_exchanges_promote_to_fact() -> None:
    assert tier_for(type=FactType.EVENT, pinned=False, exchange_ids=("x1", "x2")) is Tier.FACT


def test_pin_makes_a_fact_and_pinned_identity_core() -> None:
    assert tier_for(type=FactType.PREFERENCE, pinned=True, exchange_ids=()) is Tier.FACT
    assert tier_for(type=FactType.IDENTITY, pinned=True, exchange_ids=()) is Tier.CORE


def test_a_fact_is_never_lowered_by_the_rules() -> None:
    assert tier_for(type=FactType.EVENT, pinned=False, exchange_ids=(), current=Tier.FACT) is Tier.FACT


def test_confidence_seeded_by_veracity_and_raised_by_its_weight_capped() -> None:
    assert initial_confidence(Veracity.INFERRED) == 0.7
    assert confidence_after_mention(0.7, Veracity.INFERRED) == 0.84
    assert confidence_after_mention(0.95, Veracity.STATED) == 1.0
