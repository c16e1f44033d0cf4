"""Hybrid recall: lexical, semantic, temporal and graph voices, fused, decayed, diversified."""

from wave_agent.recall.engine import Recall, RecallConfig, RecallHit, RecallResult, hit_json
from wave_agent.recall.presets import DEFAULT, ENTITY, HISTORY, PRESETS, TEMPORAL, Preset, classify

__all__ = [
    "DEFAULT", "ENTITY", "HISTORY", "PRESETS", "TEMPORAL", "Preset", "Recall", "RecallConfig",
    "RecallHit", "RecallResult", "classify", "hit_json",
]
