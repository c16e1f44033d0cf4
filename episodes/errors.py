"""Errors of the episode log. ``wave_agent`` wraps them at its boundary; each names a next step."""

from __future__ import annotations


class EpisodeError(Exception):
    """Root of the episode-log errors (kept free of ``wave_agent``)."""

    def __init__(self, message: str, *, next_step: str | None = None) -> None:
        self.message = message
        self.next_step = next_step
        super().__init__(f"{message}. Next: {next_step}" if next_step else message)


class InvalidWeek(EpisodeError):
    def __init__(self, value: str) -> None:
        self.value = value
        super().__init__(
            f"{value!r} is not an ISO week",
            next_step="write it as YYYY-Www, e.g. 2026-W48",
        )


class InvalidTimezone(EpisodeError):
    def __init__(self, value: str) -> None:
        self.value = value
        super().__init__(
            f"{value!r} is not a time zone",
            next_step="use an IANA name such as Europe/Moscow or UTC",
        )


class InvalidEntry(EpisodeError):
    def __init__(self, problem: str) -> None:
        self.problem = problem
        super().__init__(
            f"episode entry not written: {problem}",
            next_step="pass an aware datetime (e.g. datetime.now(UTC)) or leave `at` unset for now",
        )


class EpisodeStoreUnavailable(EpisodeError):
    def __init__(self, path: str, detail: str) -> None:
        self.path = path
        self.detail = detail
        super().__init__(
            f"the episode log at {path} could not be used: {detail}",
            next_step="check that DATA_DIR exists and is writable",
        )
