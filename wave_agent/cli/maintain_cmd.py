"""Commands registered on the wave app (filled in by the issue that owns them)."""

from __future__ import annotations
