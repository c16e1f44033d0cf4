"""What a write returns (``WriteResult``) and how it refuses (``WriteRejected``).

Plain data the CLI prints, the bot shows and the LLM's tools read back: the status, the
record, what it resembled and how much, the proposal made, and the archive's state.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from graph.models import Conflict, Fact, Proposal
from wave_agent.errors import NotFound, Refused


class WriteRejected(Refused):
    """A write the writer refuses; the message names the working next step."""


class UnknownRecord(WriteRejected, NotFound):
    def __init__(self, user_id: str, record_id: str, *, kind: str = "record") -> None:
        self.user_id = user_id
        self.record_id = record_id
        listing = "`wave proposals`" if kind == "proposal" else "`wave facts`"
        super().__init__(
            f"no {kind} {record_id} for user {user_id}",
            next_step=f"list ids with {listing} (add --user {user_id} if it is not the default)",
        )


class WriteStatus(StrEnum):
    CREATED = "created"
    CONFIRMED = "confirmed"
    PROPOSED = "proposed"
    QUARANTINED = "quarantined"
    SUPERSEDED = "superseded"
    FORGOTTEN = "forgotten"
    RESTORED = "restored"
    DELETED = "deleted"
    APPROVED = "approved"
    REJECTED = "rejected"
    PINNED = "pinned"
    PROMOTED = "promoted"
    ARCHIVED = "archived"
    EXPIRED = "expired"
    UNCHANGED = "unchanged"
    SKIPPED = "skipped"  # remember_many: an item refused (too long, empty); the batch goes on


class ArchiveState(StrEnum):
    INDEXED = "indexed"    # the archive has the record's current state
    REMOVED = "removed"    # the vector was deleted with the record
    PENDING = "pending"    # the archive was unavailable; `wave reindex` / maintenance repairs it
    NONE = "none"          # nothing for the archive to do


def day_label(fact: Fact) -> str:
    """"3 June" (and the year when it is not this year's)."""
    from graph.models import utcnow

    when = fact.created_at
    label = f"{when.day} {when.strftime('%B')}"
    return label if when.year == utcnow().year else f"{label} {when.year}"


@dataclass(frozen=True, slots=True)
class WriteResult:
    status: WriteStatus
    fact: Fact | None = None
    similar_to: Fact | None = None
    similarity: float | None = None
    proposal: Proposal | None = None
    conflict: Conflict | None = None
    reason: str | None = None
    archive: ArchiveState = ArchiveState.NONE
    archive_problem: str | None = None
    promoted: bool = False
    replaced: Fact | None = None  # the record a supersession replaced
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def id(self) -> str | None:
        return self.fact.id if self.fact else None

    @property
    def message(self) -> str:
        """One human line saying what happened (and the next step where one is needed)."""
        f = self.fact
        s = self.status
        if s is WriteStatus.CONFIRMED and f and self.similar_to:
            pct = f"{self.similarity:.2f} similar to" if self.similarity is not None else "same as"
            text = (f"{pct} #{f.id} of {day_label(f)}: confirmed it (mentioned "
                    f"{f.mention_count} times, {f.tier.value}) instead of adding a second record")
            return text + (" and promoted it to a fact" if self.promoted else "")
        if s is WriteStatus.PROPOSED and self.proposal and self.similar_to:
            p, old = self.proposal, self.similar_to
            return (f"same words, other numbers as #{old.id} of {day_label(old)} (\"{old.text}\"): "
                    f"proposed replacing it ({p.id}). Next: `wave approve {p.id}` to replace it, "
                    f"or `wave reject {p.id}` to keep both")
        if s is WriteStatus.QUARANTINED and f:
            return (f"quarantined #{f.id}: {f.quarantine_reason}. It stays out of every prompt "
                    f"until a person approves it: `wave approve {f.id}` (or `wave delete {f.id}`)")
        if s is WriteStatus.SUPERSEDED and f and self.replaced:
            return (f"#{f.id} replaces #{self.replaced.id} (\"{self.replaced.text}\"); the old "
                    "record is out of the prompt and kept for history")
        if s is WriteStatus.CREATED and f:
            line = f"remembered #{f.id} ({f.type.value}, {f.tier.value})"
            if self.conflict and self.similar_to:
                line += (f"; it contradicts #{self.similar_to.id} (\"{self.similar_to.text}\"): "
                         f"conflict {self.conflict.id} recorded. Next: `wave supersede "
                         f"{self.similar_to.id} ...` if the old one is no longer true, or "
                         f"`wave forget {f.id}`")
            return line
        if s is WriteStatus.SKIPPED:
            return f"skipped: {self.reason}"
        target = f"#{f.id}" if f else (f"{self.proposal.id}" if self.proposal else "")
        return f"{s.value} {target}".strip() + (f": {self.reason}" if self.reason else "")

    def as_json(self) -> dict[str, Any]:
        f = self.fact
        out: dict[str, Any] = {
            "status": self.status.value,
            "id": f.id if f else (self.proposal.id if self.proposal else None),
        }
        if f:
            out.update(text=f.text, type=f.type.value, tier=f.tier.value,
                       record_status=f.status.value, mention_count=f.mention_count,
                       confidence=f.confidence)
        if self.similar_to is not None:
            out["similar_to"] = self.similar_to.id
            out["similar_text"] = self.similar_to.text
            out["similar_created_at"] = self.similar_to.created_at.isoformat()
        if self.similarity is not None:
            out["similarity"] = round(self.similarity, 2)
        if self.proposal is not None:
            p = self.proposal
            out["proposal"] = {
                "id": p.id, "kind": p.kind.value,
                "target": p.target_ids[0] if len(p.target_ids) == 1 else list(p.target_ids),
                "text": p.text, "status": p.status.value,
            }
        if self.conflict is not None:
            c = self.conflict
            out["conflict"] = {"id": c.id, "fact_ids": list(c.fact_ids), "reason": c.reason}
        if self.replaced is not None:
            out["replaced"] = self.replaced.id
        if f and f.quarantine_reason and self.status is WriteStatus.QUARANTINED:
            out["reason"] = f.quarantine_reason
        elif self.reason:
            out["reason"] = self.reason
        if self.promoted:
            out["promoted"] = True
        out["archive"] = self.archive.value
        if self.archive_problem:
            out["archive_problem"] = self.archive_problem
        out["message"] = self.message
        out.update(self.extra)
        return out
