"""One exception root for Wave; every layer's errors derive from it.

Each error writes its own message and, where there is one, the next step a person (or a
model reading the refusal) can take. Backend errors are translated at the boundary with
``raise ... from exc``.
"""

from __future__ import annotations


class WaveError(Exception):
    """Root of every error Wave raises on purpose."""

    def __init__(self, message: str, *, next_step: str | None = None) -> None:
        self.message = message
        self.next_step = next_step
        super().__init__(self.__str__())

    def __str__(self) -> str:
        if self.next_step:
            return f"{self.message}. Next: {self.next_step}"
        return self.message


class ConfigError(WaveError):
    """A setting is missing or has a bad value; names the variable and the fix."""

    def __init__(self, variable: str, problem: str, fix: str) -> None:
        self.variable = variable
        super().__init__(f"{variable}: {problem}", next_step=fix)


class ServiceUnavailable(WaveError):
    """A store or service could not be reached."""

    def __init__(self, service: str, detail: str, next_step: str) -> None:
        self.service = service
        self.detail = detail
        super().__init__(f"{service} is unavailable: {detail}", next_step=next_step)


def layer_error_roots() -> tuple[type[Exception], ...]:
    """Every error root whose message already names the next step: Wave's and each layer's.

    The layer packages stay free of ``wave_agent``; the edges (CLI, bot) catch these together
    and show one clear line instead of a traceback.
    """
    from archive.errors import ArchiveError
    from episodes.errors import EpisodeError
    from graph.errors import GraphError
    from snapshots.errors import SnapshotError

    return (WaveError, GraphError, ArchiveError, EpisodeError, SnapshotError)
