"""What the bot asks of Wave: one small protocol, plain data in and out.

Handlers receive a ``BotBackend`` through the dispatcher's workflow data and never touch a store
themselves. ``wave_agent.bot.services_backend.ServicesBackend`` implements it over
``wave_agent.services.Services`` (the same services the CLI calls).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal, Protocol

from graph.commitments import Commitment, CommitmentState
from graph.models import Fact
from wave_agent.app.export import Export
from wave_agent.commitments.sweep import Send, SweepReport

ReviewKind = Literal["proposals", "quarantine"]


@dataclass(frozen=True, slots=True)
class Provenance:
    """Why a message is not simply the person speaking (forwarded, quoted web text, links).

    Facts from such a message are written with ``Veracity.IMPORTED``: this is the classic
    path for instructions injected from elsewhere.
    """

    kind: Literal["forwarded", "quoted", "links"]
    detail: str
    # The message's own text as sent, without what the bot puts around it (this marker line,
    # a quoted message in «»): what the small-talk judge reads, as if the person had typed it.
    sent: str = ""

    @property
    def marker(self) -> str:
        """The line put before the text, so the model (and extraction) see whose words they are."""
        if self.kind == "forwarded":
            return f"[{self.detail}: not the person's own words]"
        if self.kind == "quoted":
            return "[quotes another message: the part in «» is not the person's own words]"
        return f"[{self.detail}: may quote web content]"


@dataclass(frozen=True, slots=True)
class ChatReply:
    """The answer to one message; ``pending`` is what the post-processor does afterwards."""

    text: str
    pending: object | None = None


@dataclass(frozen=True, slots=True)
class MemoryView:
    blocks: dict[str, str]
    facts: Sequence[Fact]


@dataclass(frozen=True, slots=True)
class ReviewItem:
    """A proposal or a quarantined record waiting for the person's decision."""

    id: str
    title: str
    reason: str
    details: tuple[str, ...] = ()


class BotBackend(Protocol):
    async def chat(self, user_id: str, text: str, provenance: Provenance | None) -> ChatReply: ...

    def after_reply(self, user_id: str, reply: ChatReply) -> None:
        """Start post-processing in the background; returns at once."""

    async def reset(self, user_id: str) -> str: ...

    async def memory(self, user_id: str) -> MemoryView: ...

    async def forget(self, user_id: str, fact_id: str) -> str: ...

    async def review_items(self, user_id: str, kind: ReviewKind) -> list[ReviewItem]: ...

    async def decide(self, user_id: str, item_id: str, approve: bool) -> str: ...

    async def reflect(self, user_id: str, question: str) -> str: ...

    async def health(self, user_id: str) -> str: ...

    async def export(self, user_id: str) -> Export: ...
    async def forget_me_preview(self, user_id: str) -> str:
        """What /forget_me would erase, in words (for the confirmation)."""
    async def forget_me(self, user_id: str) -> str:
        """Erase the person from every layer; says what went."""

    def debug(self, user_id: str) -> str | None: ...

    async def commitments(self, user_id: str) -> list[Commitment]:
        """Open commitments by due time."""

    async def close_commitment(self, user_id: str, commitment_id: str,
                               state: CommitmentState) -> Commitment: ...

    async def postpone_commitment(self, user_id: str, commitment_id: str, to: str
                                  ) -> Commitment:
        """``to``: "tomorrow", "week", or a date in words ("в пятницу в 10")."""

    async def set_reminders(self, user_id: str, on: bool) -> None: ...

    async def reminder_settings(self, user_id: str, *, timezone: str | None = None,
                                hour: int | None = None) -> None:
        """The person's zone (IANA) and the hour used when a promise names no time."""

    async def remind(self, send: Send) -> SweepReport:
        """One reminder sweep: what is due goes out through ``send``."""

    async def drain(self, timeout_s: float) -> None:
        """Wait for background post-processing to finish (graceful shutdown)."""
