"""What a maintenance job reports: what it did (or, in a dry run, would do), per user.

Plain data the CLI prints (``wave maintain``), ``--json`` serialises and the scheduler logs.
A job that cannot reach a store records the error and leaves the work for the next run.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any


@dataclass(slots=True)
class Action:
    """One change (or, in a dry run, one change that would be made), or one finding."""

    kind: str            # archived, expired, promoted, proposed, review, cluster, reindexed, ...
    user_id: str
    ids: tuple[str, ...] = ()
    detail: str = ""
    applied: bool = False

    def as_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "user_id": self.user_id, "ids": list(self.ids),
                "detail": self.detail, "applied": self.applied}


@dataclass(slots=True)
class JobReport:
    job: str
    dry_run: bool
    started_at: datetime
    actions: list[Action] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    users: list[str] = field(default_factory=list)

    def add(self, action: Action) -> Action:
        self.actions.append(action)
        return action

    def fail(self, user_id: str | None, exc: BaseException) -> None:
        where = f"user {user_id}: " if user_id else ""
        self.errors.append(f"{where}{type(exc).__name__}: {exc}")

    def count(self, kind: str) -> int:
        return sum(1 for a in self.actions if a.kind == kind)

    @property
    def ok(self) -> bool:
        return not self.errors

    def summary(self) -> str:
        kinds: dict[str, int] = {}
        for action in self.actions:
            kinds[action.kind] = kinds.get(action.kind, 0) + 1
        done = ", ".join(f"{n} {k}" for k, n in sorted(kinds.items())) or "nothing to do"
        prefix = "would do: " if self.dry_run and self.actions else ""
        tail = f"; {len(self.errors)} error(s), retried next run" if self.errors else ""
        return f"{self.job}: {prefix}{done}{tail}"

    def as_json(self) -> dict[str, Any]:
        return {
            "job": self.job, "dry_run": self.dry_run, "started_at": self.started_at.isoformat(),
            "users": list(self.users), "summary": self.summary(),
            "actions": [a.as_json() for a in self.actions], "errors": list(self.errors),
        }
