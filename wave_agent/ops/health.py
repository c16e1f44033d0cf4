"""The health report (DESIGN section 6; seed 004, "хранилище отчитывается о собственном
здоровье"): counts by type, tier and status per user, near-duplicate clusters, the
archived/active ratio, the age distribution, the share of expired state, the quarantine and
proposal queues, the review list, the outbox backlog, the core-block updates waiting for
Letta, index drift, and the contradiction
counter: pairs of active records that say opposite things about the same subject (the graph's
open conflicts whose two facts are both still active, or whose later record, still active,
denies for the whole past what a replaced one held, plus pairs found now). Anything above
zero there is an alarm, shown first.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

from graph.models import Fact, ProposalStatus, Status, utcnow
from wave_agent.ops.maintenance import groups
from wave_agent.ops.maintenance.base import users_in_graph
from wave_agent.ops.maintenance.drift import index_drift
from wave_agent.ops.maintenance.jobs.blocks import queued_block_updates
from wave_agent.policy.lifetimes import EXPIRING, due_for_review, is_expired

if TYPE_CHECKING:
    from rich.console import Console

    from graph.store import GraphStore
    from wave_agent.ops.stores import OpsStores

log = logging.getLogger("wave.health")

AGE_BUCKETS: tuple[tuple[str, timedelta | None], ...] = (
    ("<7d", timedelta(days=7)),
    ("7-30d", timedelta(days=30)),
    ("30-180d", timedelta(days=180)),
    ("180d-2y", timedelta(days=730)),
    (">2y", None),
)


# What the health report says needs a person, as message keys (English, with ``{fields}``)
# that the page translates (``web/i18n.py``) and the CLI and the bot print as they are.
CONTRADICTION = ("{user}: #{first} \u201c{first_text}\u201d vs #{second} \u201c{second_text}\u201d: "
                 "which is true? Forget the other (`wave forget <id>`)")
STORE_PROBLEM = "store: {problem}"
USER_PROBLEM = "{user}: {problem}"
OUTBOX_BACKLOG = "outbox backlog: {count} exchange(s) not yet post-processed"
LETTA_PENDING = ("{count} core-block update(s) waiting for Letta (`wave maintain --job blocks` "
                 "applies them once Letta is up)")
LETTA_PENDING_SINCE = ("{count} core-block update(s) waiting for Letta since {since} UTC "
                       "(`wave maintain --job blocks` applies them once Letta is up)")
INDEX_DRIFT = "{user}: index drift {count} (`wave maintain --job drift` repairs it)"
EXPIRED_STATE = ("{user}: {count} expired state/commitment record(s) still active "
                 "(`wave maintain --job expire`)")
QUARANTINE = "{user}: {count} record(s) in quarantine (`wave quarantine`)"
PROPOSALS = "{user}: {count} proposal(s) waiting (`wave proposals`)"
DUPLICATES = "{user}: {count} near-duplicate cluster(s)"
REVIEW_DUE = "{user}: {count} fact(s) due for review (`wave maintain --job review`)"
NOTICE_KEYS = (CONTRADICTION, STORE_PROBLEM, USER_PROBLEM, OUTBOX_BACKLOG, LETTA_PENDING,
               LETTA_PENDING_SINCE, INDEX_DRIFT, EXPIRED_STATE, QUARANTINE, PROPOSALS,
               DUPLICATES, REVIEW_DUE)


@dataclass(frozen=True, slots=True)
class Notice:
    """One alarm or warning: its message key and the values that fill it."""

    key: str
    fields: dict[str, Any]

    def english(self) -> str:
        return self.key.format(**self.fields)


@dataclass(frozen=True, slots=True)
class Contradiction:
    fact_ids: tuple[str, str]
    texts: tuple[str, str]
    source: str  # "graph" (an open conflict the writer recorded) or "detected"
    conflict_id: str | None = None

    def as_json(self) -> dict[str, Any]:
        return {"fact_ids": list(self.fact_ids), "texts": list(self.texts),
                "source": self.source, "conflict_id": self.conflict_id}


@dataclass(slots=True)
class UserHealth:
    user_id: str
    by_type: dict[str, int] = field(default_factory=dict)
    by_tier: dict[str, int] = field(default_factory=dict)
    by_status: dict[str, int] = field(default_factory=dict)
    age: dict[str, int] = field(default_factory=dict)
    active_state: int = 0
    expired_state: int = 0
    near_duplicate_clusters: list[list[str]] = field(default_factory=list)
    contradictions: list[Contradiction] = field(default_factory=list)
    proposals_pending: int = 0
    review_due: int = 0
    index_drift: dict[str, Any] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)

    @property
    def total(self) -> int:
        return sum(self.by_status.values())

    @property
    def active(self) -> int:
        return self.by_status.get(Status.ACTIVE.value, 0)

    @property
    def archived(self) -> int:
        return self.by_status.get(Status.ARCHIVED.value, 0)

    @property
    def quarantine(self) -> int:
        return self.by_status.get(Status.QUARANTINED.value, 0)

    @property
    def archived_active_ratio(self) -> float | None:
        return round(self.archived / self.active, 3) if self.active else None

    @property
    def expired_state_share(self) -> float | None:
        return round(self.expired_state / self.active_state, 3) if self.active_state else None

    def as_json(self) -> dict[str, Any]:
        return {
            "user_id": self.user_id, "total": self.total, "by_type": self.by_type,
            "by_tier": self.by_tier, "by_status": self.by_status,
            "archived_active_ratio": self.archived_active_ratio, "age": self.age,
            "active_state_and_commitments": self.active_state,
            "expired_state": self.expired_state, "expired_state_share": self.expired_state_share,
            "near_duplicate_clusters": len(self.near_duplicate_clusters),
            "near_duplicate_cluster_ids": self.near_duplicate_clusters,
            "contradictions": len(self.contradictions),
            "contradiction_pairs": [c.as_json() for c in self.contradictions],
            "quarantine": self.quarantine, "proposals_pending": self.proposals_pending,
            "review_due": self.review_due, "index_drift": self.index_drift,
            "problems": self.problems,
        }


@dataclass(slots=True)
class HealthReport:
    generated_at: datetime
    users: list[UserHealth] = field(default_factory=list)
    outbox_backlog: int | None = None
    # Core-block updates waiting for Letta (None: the block store keeps no queue).
    letta_pending: int | None = None
    letta_pending_since: datetime | None = None
    problems: list[str] = field(default_factory=list)

    @property
    def contradictions(self) -> int:
        return sum(len(u.contradictions) for u in self.users)

    def alarm_notices(self) -> list[Notice]:
        """Contradictions: each pair, first; the store is untrustworthy until resolved."""
        return [Notice(CONTRADICTION, {"user": user.user_id, "first": c.fact_ids[0],
                                       "first_text": c.texts[0][:80], "second": c.fact_ids[1],
                                       "second_text": c.texts[1][:80]})
                for user in self.users for c in user.contradictions]

    def warning_notices(self) -> list[Notice]:
        """Other counters above zero that need a person or a maintenance run."""
        out = [Notice(STORE_PROBLEM, {"problem": p}) for p in self.problems]
        if self.outbox_backlog:
            out.append(Notice(OUTBOX_BACKLOG, {"count": self.outbox_backlog}))
        if self.letta_pending:
            out.append(Notice(LETTA_PENDING_SINCE if self.letta_pending_since else LETTA_PENDING,
                              {"count": self.letta_pending, "since": (
                                  f"{self.letta_pending_since:%Y-%m-%d %H:%M}"
                                  if self.letta_pending_since else "")}))
        for u in self.users:
            who = {"user": u.user_id}
            out += [Notice(USER_PROBLEM, {**who, "problem": p}) for p in u.problems]
            counters = (
                (INDEX_DRIFT, u.index_drift.get("total") or 0),
                (EXPIRED_STATE, u.expired_state),
                (QUARANTINE, u.quarantine),
                (PROPOSALS, u.proposals_pending),
                (DUPLICATES, len(u.near_duplicate_clusters)),
                (REVIEW_DUE, u.review_due),
            )
            out += [Notice(key, {**who, "count": n}) for key, n in counters if n]
        return out

    def alarms(self) -> list[str]:
        """The alarms in English (the CLI, the bot, ``--json``); the page translates notices."""
        return [n.english() for n in self.alarm_notices()]

    def warnings(self) -> list[str]:
        return [n.english() for n in self.warning_notices()]

    def as_json(self) -> dict[str, Any]:
        return {
            "contradictions": self.contradictions,
            "alarms": self.alarms(),
            "warnings": self.warnings(),
            "generated_at": self.generated_at.isoformat(),
            "outbox_backlog": self.outbox_backlog,
            "letta_pending": self.letta_pending,
            "letta_pending_since": (self.letta_pending_since.isoformat()
                                    if self.letta_pending_since else None),
            "problems": self.problems,
            "users": {u.user_id: u.as_json() for u in self.users},
        }


# -- gathering ---------------------------------------------------------------------------------


async def health_report(
    stores: OpsStores, user_id: str | None = None, *, now: datetime | None = None
) -> HealthReport:
    """The report for one user, or every user the graph knows; a store down is a problem
    line in the report, never an exception."""
    now = now or utcnow()
    report = HealthReport(now)
    try:
        report.outbox_backlog = stores.outbox().pending_count()
    except Exception as exc:
        report.problems.append(f"outbox unreadable: {exc}")
    try:
        waiting = await queued_block_updates(await stores.blocks(),
                                             (user_id,) if user_id else None)
        if waiting is not None:
            report.letta_pending = len(waiting)
            report.letta_pending_since = min((u.queued_at for u in waiting), default=None)
    except Exception as exc:
        report.problems.append(f"core-block queue unreadable: {exc}")
    try:
        graph = await stores.graph()
        users = [user_id] if user_id else await users_in_graph(graph)
    except Exception as exc:
        report.problems.append(f"graph unavailable: {exc}")
        return report
    from wave_agent.ops import health_history

    for uid in users:
        health = await _user_health(stores, graph, uid, now)
        report.users.append(health)
        await asyncio.to_thread(health_history.record, stores.data_dir, health,
                                report.outbox_backlog, now)
    return report


async def _user_health(stores: OpsStores, graph: GraphStore, user_id: str, now: datetime) -> UserHealth:
    health = UserHealth(user_id)
    try:
        facts = await graph.list_facts(user_id)
        pending = await graph.list_proposals(user_id, status=ProposalStatus.PENDING)
        conflicts = await graph.list_conflicts(user_id, resolved=False)
    except Exception as exc:
        health.problems.append(f"graph unavailable: {exc}")
        return health
    for f in facts:
        for bucket, key in ((health.by_type, f.type.value), (health.by_tier, f.tier.value),
                            (health.by_status, f.status.value)):
            bucket[key] = bucket.get(key, 0) + 1
    active = [f for f in facts if f.status is Status.ACTIVE]
    health.age = _ages(active, now)
    expiring = [f for f in active if f.type in EXPIRING]
    health.active_state = len(expiring)
    health.expired_state = sum(1 for f in expiring if is_expired(f, now))
    health.review_due = sum(1 for f in active if due_for_review(f, now))
    health.proposals_pending = len(pending)

    by_id = {f.id: f for f in facts}
    seen: set[frozenset[str]] = set()
    for c in conflicts:
        a, b = (by_id.get(i) for i in c.fact_ids)
        # a denial of the whole past stands against a replaced record: open while it is active
        if a and b and b.status is Status.ACTIVE and (
                a.status is Status.ACTIVE or (c.against_past and a.status is Status.SUPERSEDED)):
            seen.add(frozenset(c.fact_ids))
            health.contradictions.append(
                Contradiction((a.id, b.id), (a.text, b.text), "graph", c.id))
    try:
        archive = await stores.archive()
    except Exception:
        archive = None  # drift below says why
    try:
        sims = await groups.Similarities.of(stores.embedder(), active, archive=archive)
        health.near_duplicate_clusters = [
            [f.id for f in cluster] for cluster in groups.components(sims.duplicate_pairs())]
        for pair in sims.opposite_pairs():
            ids = frozenset((pair.a.id, pair.b.id))
            if ids not in seen:
                seen.add(ids)
                health.contradictions.append(Contradiction(
                    (pair.a.id, pair.b.id), (pair.a.text, pair.b.text), "detected"))
    except Exception as exc:
        health.problems.append(f"similarity check failed: {exc}")
    try:
        if archive is None:
            archive = await stores.archive()
        health.index_drift = (await index_drift(graph, archive, user_id)).as_json()
    except Exception as exc:
        health.index_drift = {"total": None, "error": str(exc)}
        health.problems.append(f"archive unavailable, drift unknown: {exc}")
    return health


def _ages(active: list[Fact], now: datetime) -> dict[str, int]:
    out = {name: 0 for name, _ in AGE_BUCKETS}
    for f in active:
        age = now - f.created_at
        for name, limit in AGE_BUCKETS:
            if limit is None or age < limit:
                out[name] += 1
                break
    return out


# -- rendering ---------------------------------------------------------------------------------


def _counts(d: dict[str, int]) -> str:
    return ", ".join(f"{k} {v}" for k, v in sorted(d.items())) or "none"


def _user_lines(u: UserHealth) -> list[str]:
    ratio = u.archived_active_ratio
    share = u.expired_state_share
    drift = u.index_drift
    drift_text = ("unknown (archive unavailable)" if drift.get("total") is None else
                  f"{drift['total']} (missing {drift['missing_vectors']}, flagged "
                  f"{drift['flagged']}, orphans {drift['orphan_vectors']})")
    return [
        f"records: {u.total} (active {u.active}, archived {u.archived})",
        f"by status: {_counts(u.by_status)}",
        f"by tier: {_counts(u.by_tier)}",
        f"by type: {_counts(u.by_type)}",
        f"archived/active: {ratio if ratio is not None else 'n/a'}",
        f"age of active records: {', '.join(f'{k} {v}' for k, v in u.age.items())}",
        f"expired state/commitments: {u.expired_state} of {u.active_state}"
        + (f" ({share:.0%})" if share is not None else ""),
        f"near-duplicate clusters: {len(u.near_duplicate_clusters)}",
        f"contradictions: {len(u.contradictions)}",
        f"quarantine: {u.quarantine}; proposals waiting: {u.proposals_pending}; "
        f"due for review: {u.review_due}",
        f"index drift: {drift_text}",
    ]


def render_text(report: HealthReport) -> str:
    """Plain text (the bot's /health): alarms first, then warnings, then the figures."""
    lines: list[str] = []
    if report.contradictions:
        lines.append(f"!!! ALARM: {report.contradictions} contradiction(s): active records "
                     "that say opposite things")
        lines += [f"  - {a}" for a in report.alarms()]
        lines.append("")
    else:
        lines.append("contradictions: 0")
    warnings = report.warnings()
    if warnings:
        lines.append("attention:")
        lines += [f"  - {w}" for w in warnings]
    lines.append(f"outbox backlog: {report.outbox_backlog if report.outbox_backlog is not None else 'unknown'}")
    if report.letta_pending is not None:
        lines.append(f"core-block updates waiting for Letta: {report.letta_pending}")
    for u in report.users:
        lines.append("")
        lines.append(f"user {u.user_id}")
        lines += [f"  {line}" for line in _user_lines(u)]
    if not report.users and not report.problems:
        lines.append("no records yet")
    return "\n".join(lines)


def render_rich(report: HealthReport, console: Console) -> None:
    """The terminal form (``wave health``): contradictions first, in red."""
    from rich.panel import Panel
    from rich.table import Table
    from rich.text import Text

    if report.contradictions:
        body = Text("\n".join(report.alarms()))
        console.print(Panel(body, title=f"ALARM: {report.contradictions} contradiction(s)",
                            border_style="bold red", style="red"))
    else:
        console.print(Text("contradictions: 0", style="green"))
    for warning in report.warnings():
        console.print(Text(f"! {warning}", style="yellow"))
    backlog = report.outbox_backlog
    console.print(f"outbox backlog: {backlog if backlog is not None else 'unknown'}",
                  highlight=False)
    if report.letta_pending is not None:
        console.print(f"core-block updates waiting for Letta: {report.letta_pending}",
                      highlight=False)
    for u in report.users:
        table = Table(title=f"user {u.user_id}", show_header=False, title_justify="left")
        table.add_column("what")
        table.add_column("value", overflow="fold")
        for line in _user_lines(u):
            what, _, value = line.partition(": ")
            style = "bold red" if what == "contradictions" and u.contradictions else None
            table.add_row(what, value, style=style)
        console.print(table)
