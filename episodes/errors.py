"""Errors of the episode log; each names a next step. The root derives from
``common.errors.WaveError`` (the package stays free of ``wave_agent``)."""

from __future__ import annotations

from common import errors as common


class EpisodeError(common.WaveError):
    """Root of the episode-log errors."""


class InvalidWeek(EpisodeError, common.Refused):
    def __init__(self, value: str) -> None:
        self.value = value
        super().__init__(
            f"{value!r} is not an ISO week",
            next_step="write it as YYYY-Www, e.g. 2026-W48",
        )


class InvalidTimezone(EpisodeError, common.Refused):
    def __init__(self, value: str) -> None:
        self.value = value
        super().__init__(
            f"{value!r} is not a time zone",
            next_step="use an IANA name such as Europe/Moscow or UTC",
        )


class InvalidEntry(EpisodeError, common.Refused):
    def __init__(self, problem: str) -> None:
        self.problem = problem
        super().__init__(
            f"episode entry not written: {problem}",
            next_step="pass an aware datetime (e.g. datetime.now(UTC)) or leave `at` unset for now",
        )


class EpisodeStoreUnavailable(EpisodeError, common.Unavailable):
    def __init__(self, path: str, detail: str) -> None:
        self.path = path
        self.detail = detail
        super().__init__(
            f"the episode log at {path} could not be used: {detail}",
            next_step="check that DATA_DIR exists and is writable",
        )
