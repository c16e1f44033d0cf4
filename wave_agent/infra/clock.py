"""Wave's one clock: ``now()``, the present moment (aware, UTC).

``WAVE_NOW`` (ISO 8601 with an offset, e.g. ``2026-12-04T10:00+03:00``) fixes it; it is read on
every call, so a test (or a replay of a dated history) can move time by setting the variable.
Whatever asks "what time is it" for memory's sake reads this: the date reader's "written at",
the writer's timestamps (created, confirmed, superseded, approved), the graph layer's stamps on
proposals, conflicts and entities (installed into ``graph.models`` when this module is imported)
and the reminder scheduler's "is it due". A wrong value is refused
loudly, naming the variable: a silent fallback to the real time would hide a broken replay.
"""

from __future__ import annotations

import os
from datetime import UTC, datetime

from wave_agent.errors import ConfigError

ENV = "WAVE_NOW"


def now() -> datetime:
    """The present moment: ``WAVE_NOW`` when set, else the system's time; aware, in UTC."""
    fixed = os.environ.get(ENV, "").strip()
    if not fixed:
        return datetime.now(UTC)
    try:
        moment = datetime.fromisoformat(fixed)
    except ValueError as exc:
        raise ConfigError(ENV, f"{fixed!r} is not an ISO date and time",
                          "write it as 2026-12-04T10:00+03:00, or unset it") from exc
    if moment.tzinfo is None:
        raise ConfigError(ENV, f"{fixed!r} has no UTC offset",
                          "add one, e.g. 2026-12-04T10:00+03:00 (or Z for UTC)")
    return moment.astimezone(UTC)


def _install() -> None:
    from graph import models

    models.use_clock(now)


_install()
