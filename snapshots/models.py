"""Plain data of a session snapshot and its JSON form (schema versioned)."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Any, Literal

SCHEMA_VERSION = 1

EndReason = Literal["idle", "reset", "shutdown"]


@dataclass(frozen=True, slots=True)
class Reply:
    role: Literal["user", "assistant"]
    text: str
    at: datetime | None = None


@dataclass(frozen=True, slots=True)
class Snapshot:
    """What a finished session leaves for the next one."""

    session_id: str
    user_id: str
    started_at: datetime
    ended_at: datetime
    turns: int
    summary: str
    last_replies: tuple[Reply, ...] = ()
    observations: tuple[str, ...] = ()  # mood, behaviour patterns
    end_reason: EndReason = "idle"
    spent_at: datetime | None = None  # when it was returned into a new session
    schema_version: int = SCHEMA_VERSION
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def spent(self) -> bool:
        return self.spent_at is not None

    def marked_spent(self, at: datetime) -> Snapshot:
        return replace(self, spent_at=at)

    def to_json(self) -> dict[str, Any]:
        return {
            "schema_version": self.schema_version,
            "session_id": self.session_id,
            "user_id": self.user_id,
            "started_at": self.started_at.isoformat(),
            "ended_at": self.ended_at.isoformat(),
            "turns": self.turns,
            "summary": self.summary,
            "last_replies": [
                {"role": r.role, "text": r.text, "at": r.at.isoformat() if r.at else None}
                for r in self.last_replies
            ],
            "observations": list(self.observations),
            "end_reason": self.end_reason,
            "spent_at": self.spent_at.isoformat() if self.spent_at else None,
            "extra": self.extra,
        }

    @classmethod
    def from_json(cls, raw: Any) -> Snapshot:
        """Parse a stored snapshot; raises ValueError/KeyError/TypeError on anything malformed."""
        if not isinstance(raw, dict):
            raise TypeError("a snapshot is a JSON object")
        version = int(raw["schema_version"])
        if version > SCHEMA_VERSION:
            raise ValueError(f"schema version {version} is newer than {SCHEMA_VERSION}")
        replies = tuple(
            Reply(
                role=_role(r["role"]),
                text=str(r["text"]),
                at=_when(r.get("at")),
            )
            for r in raw.get("last_replies", [])
        )
        started = _when(raw["started_at"])
        ended = _when(raw["ended_at"])
        if started is None or ended is None:
            raise ValueError("started_at and ended_at are required")
        reason = raw.get("end_reason", "idle")
        if reason not in ("idle", "reset", "shutdown"):
            raise ValueError(f"unknown end_reason {reason!r}")
        extra = raw.get("extra") or {}
        if not isinstance(extra, dict):
            raise TypeError("extra must be an object")
        return cls(
            session_id=str(raw["session_id"]),
            user_id=str(raw["user_id"]),
            started_at=started,
            ended_at=ended,
            turns=int(raw["turns"]),
            summary=str(raw.get("summary", "")),
            last_replies=replies,
            observations=tuple(str(o) for o in raw.get("observations", [])),
            end_reason=reason,
            spent_at=_when(raw.get("spent_at")),
            schema_version=version,
            extra=extra,
        )


def _role(value: Any) -> Literal["user", "assistant"]:
    if value == "user":
        return "user"
    if value == "assistant":
        return "assistant"
    raise ValueError(f"unknown role {value!r}")


def _when(value: Any) -> datetime | None:
    if value is None:
        return None
    parsed = datetime.fromisoformat(str(value))
    if parsed.tzinfo is None:
        raise ValueError(f"naive timestamp {value!r}")
    return parsed
