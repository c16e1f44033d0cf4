"""Wave's errors. The root is ``common.errors.WaveError``, shared with every store layer.

Each error writes its own message and, where there is one, the next step a person (or a
model reading the refusal) can take. Backend errors are translated at the boundary with
``raise ... from exc``. The layers' roots (``GraphError``, ``ArchiveError``, ``EpisodeError``,
``SnapshotError``) derive from ``WaveError`` too, so a surface catches ``WaveError`` alone;
the categories ``Unavailable``, ``NotFound`` and ``Refused`` say what kind of failure it is
whatever the layer (the memory page answers 404 for ``NotFound``).
"""

from __future__ import annotations

from common.errors import NotFound, Refused, Unavailable, WaveError


class ConfigError(WaveError):
    """A setting is missing or has a bad value; names the variable and the fix."""

    def __init__(self, variable: str, problem: str, fix: str) -> None:
        self.variable = variable
        super().__init__(f"{variable}: {problem}", next_step=fix)


class ServiceUnavailable(Unavailable):
    """A store or service could not be reached."""

    def __init__(self, service: str, detail: str, next_step: str) -> None:
        self.service = service
        self.detail = detail
        super().__init__(f"{service} is unavailable: {detail}", next_step=next_step)


__all__ = ["ConfigError", "NotFound", "Refused", "ServiceUnavailable", "Unavailable", "WaveError"]
