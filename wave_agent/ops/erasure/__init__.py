"""Erasure across every layer (``wave delete``, ``wave forget-me``, ``/forget_me``)."""

from wave_agent.ops.erasure.eraser import (
    Eraser,
    ErasureReport,
    ErasureStores,
    exports_manifest,
    record_export,
)

__all__ = ["Eraser", "ErasureReport", "ErasureStores", "exports_manifest", "record_export"]
