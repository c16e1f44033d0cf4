"""Errors of the session snapshots. ``wave_agent`` wraps them at its boundary."""

from __future__ import annotations


class SnapshotError(Exception):
    """Root of the snapshot errors (kept free of ``wave_agent``)."""

    def __init__(self, message: str, *, next_step: str | None = None) -> None:
        self.message = message
        self.next_step = next_step
        super().__init__(f"{message}. Next: {next_step}" if next_step else message)


class InvalidSnapshot(SnapshotError):
    """A snapshot to be saved is not well formed (a caller's bug, named precisely)."""

    def __init__(self, problem: str) -> None:
        self.problem = problem
        super().__init__(f"snapshot not saved: {problem}", next_step="fix the field and save again")


class SnapshotStoreUnavailable(SnapshotError):
    def __init__(self, path: str, detail: str) -> None:
        self.path = path
        self.detail = detail
        super().__init__(
            f"session snapshots at {path} could not be used: {detail}",
            next_step="check that DATA_DIR exists and is writable",
        )
