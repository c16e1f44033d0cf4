"""Hybrid recall: lexical, semantic, temporal and graph voices, fused, decayed, diversified."""

from wave_agent.recall.config import RecallConfig
from wave_agent.recall.engine import Recall
from wave_agent.recall.presets import DEFAULT, ENTITY, HISTORY, PRESETS, TEMPORAL, Preset, classify
from wave_agent.recall.result import RecallHit, RecallResult, hit_json

__all__ = [
    "DEFAULT", "ENTITY", "HISTORY", "PRESETS", "TEMPORAL", "Preset", "Recall", "RecallConfig",
    "RecallHit", "RecallResult", "classify", "hit_json",
]
