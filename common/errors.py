"""The one exception root of Wave and of every store layer, with three categories.

Every error raised on purpose carries a message and, where there is one, the next step a
person (or a model reading the refusal) can take; ``str(error)`` says both. Each layer keeps
its own root (``GraphError``, ``ArchiveError``, ``EpisodeError``, ``SnapshotError``) for
``except`` clauses inside the layer, and every one of them derives from ``WaveError``, so a
surface (bot, CLI, memory page, MCP) catches ``WaveError`` alone and shows the next step.

The categories say what a surface can do about an error without knowing its layer:

- ``Unavailable``: a store or service did not answer (Neo4j down, the archive locked, a file
  not writable). Retrying later, or starting the service, helps.
- ``NotFound``: the record, proposal or entity asked for does not exist for this person.
- ``Refused``: the request itself cannot be done as given (bad input, a rule of the memory).

Errors outside the three (a setting with a bad value) derive from ``WaveError`` directly.
A concrete error derives from its layer's root and a category, e.g.
``class GraphUnavailable(GraphError, Unavailable)``.
"""

from __future__ import annotations


class WaveError(Exception):
    """Root of every error Wave and its store layers raise on purpose."""

    def __init__(self, message: str, *, next_step: str | None = None) -> None:
        self.message = message
        self.next_step = next_step
        super().__init__(self.__str__())

    def __str__(self) -> str:
        if self.next_step:
            return f"{self.message}. Next: {self.next_step}"
        return self.message


class Unavailable(WaveError):
    """A store or service could not be reached or used; it may work again later."""


class NotFound(WaveError):
    """What was asked for does not exist (for this person)."""


class Refused(WaveError):
    """The request cannot be done as given; the next step says what would work."""


__all__ = ["NotFound", "Refused", "Unavailable", "WaveError"]
