"""Errors of the session snapshots. The root derives from ``common.errors.WaveError`` (the
package stays free of ``wave_agent``)."""

from __future__ import annotations

from common import errors as common


class SnapshotError(common.WaveError):
    """Root of the snapshot errors."""


class InvalidSnapshot(SnapshotError, common.Refused):
    """A snapshot to be saved is not well formed (a caller's bug, named precisely)."""

    def __init__(self, problem: str) -> None:
        self.problem = problem
        super().__init__(f"snapshot not saved: {problem}", next_step="fix the field and save again")


class SnapshotStoreUnavailable(SnapshotError, common.Unavailable):
    def __init__(self, path: str, detail: str) -> None:
        self.path = path
        self.detail = detail
        super().__init__(
            f"session snapshots at {path} could not be used: {detail}",
            next_step="check that DATA_DIR exists and is writable",
        )
