"""A person's whole memory as two documents: JSON (every field) and markdown (to read).

Everything scoped to the user: facts of every status (superseded ones carry the history),
entities, proposals and conflicts from the graph; the core blocks with every stored version;
the episode days and weekly summaries; the session snapshots; the conversation log and the
outbox jobs (given the session log and the outbox, whose methods read them). Nothing from another user is read. After ``wave forget-me``
every part is empty.
"""

from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from episodes.store import iso_week_of
from graph.models import Fact, Status, Tier
from wave_agent.app.plain import plain

if TYPE_CHECKING:
    from episodes.store import EpisodeStore
    from graph.store import GraphStore
    from snapshots.store import SnapshotStore
    from wave_agent.blocks.store import BlockStore
    from wave_agent.conversation.session import SessionLog
    from wave_agent.infra.outbox import Outbox

SNAPSHOT_LIMIT = 1000


@dataclass(frozen=True, slots=True)
class Export:
    json_bytes: bytes
    markdown_bytes: bytes
    counts: dict[str, int] = field(default_factory=dict)


async def export_memory(
    user_id: str,
    *,
    graph: GraphStore,
    blocks: BlockStore | None = None,
    episodes: EpisodeStore | None = None,
    snapshots: SnapshotStore | None = None,
    session_log: SessionLog | None = None,
    outbox: Outbox | None = None,
) -> Export:
    """``session_log`` and ``outbox`` add the conversation and the post-processing jobs."""
    from wave_agent.blocks.store import LABELS

    facts = await graph.list_facts(user_id)
    entities = await graph.list_entities(user_id)
    proposals = await graph.list_proposals(user_id, status=None)
    conflicts = await graph.list_conflicts(user_id, resolved=None)
    block_values: dict[str, str] = {}
    block_history: dict[str, list[dict[str, Any]]] = {}
    if blocks is not None:
        for label in LABELS:
            block = await blocks.get(user_id, label)
            block_values[label] = block.value  # a block never written: its default text
            if block.version > 0:
                block_history[label] = [plain(v) for v in await blocks.history(user_id, label)]
    days: dict[str, str] = {}
    if episodes is not None:
        for day in await episodes.days(user_id):
            episode = await episodes.read_day(user_id, day)
            days[day.isoformat()] = "\n".join(line.raw for line in episode.lines)
    weekly: dict[str, str] = {}
    if episodes is not None:
        for day in await episodes.days(user_id):
            week = iso_week_of(day)
            if week not in weekly:
                text = await episodes.weekly(user_id, week)
                if text is not None:
                    weekly[week] = text
    sessions = await snapshots.recent(user_id, limit=SNAPSHOT_LIMIT) if snapshots else []
    exchanges = [] if session_log is None else await asyncio.to_thread(
        session_log.person_exchanges, user_id)
    jobs = [] if outbox is None else await asyncio.to_thread(outbox.person_jobs, user_id)

    document = {
        "user_id": user_id,
        "exported_at": datetime.now(UTC).isoformat(),
        "facts": [plain(f) for f in facts],
        "entities": [plain(e) for e in entities],
        "proposals": [plain(p) for p in proposals],
        "conflicts": [plain(c) for c in conflicts],
        "blocks": block_values,
        "episodes": days,
        "snapshots": [plain(s) for s in sessions],
        "block_history": block_history,
        "weekly_summaries": weekly,
        "conversation": exchanges,
        "outbox": jobs,
    }
    counts = {"facts": len(facts), "entities": len(entities), "proposals": len(proposals),
              "episode days": len(days), "snapshots": len(sessions),
              "block versions": sum(len(v) for v in block_history.values()),
              "exchanges": len(exchanges), "outbox jobs": len(jobs)}
    markdown = _markdown(user_id, facts, document)
    return Export(
        json_bytes=json.dumps(document, ensure_ascii=False, indent=2).encode("utf-8"),
        markdown_bytes=markdown.encode("utf-8"),
        counts=counts,
    )


def _fact_md(fact: Fact) -> str:
    line = (f"- `{fact.id}` {fact.text} — {fact.type.value}, confidence {fact.confidence:.2f}, "
            f"since {fact.created_at.date().isoformat()}")
    if fact.superseded_by:
        line += f", replaced by `{fact.superseded_by}`"
    if fact.supersedes:
        line += f", replaces `{fact.supersedes}`"
    if fact.quarantine_reason:
        line += f" (quarantined: {fact.quarantine_reason})"
    return line


def _markdown(user_id: str, facts: list[Fact], document: dict[str, Any]) -> str:
    out = [f"# Wave memory of {user_id}", "", f"Exported {document['exported_at']}.", ""]
    if document["blocks"]:
        out += ["## Core blocks", ""]
        for label, value in document["blocks"].items():
            out += [f"### {label}", "", value.strip() or "(empty)", ""]
    out += ["## Facts", ""]
    groups: list[tuple[str, list[Fact]]] = [
        (tier.value.capitalize(), [f for f in facts if f.tier is tier and f.status is Status.ACTIVE])
        for tier in (Tier.CORE, Tier.FACT, Tier.OBSERVATION, Tier.ARCHIVE)
    ]
    groups += [
        (status.value.capitalize(), [f for f in facts if f.status is status])
        for status in (Status.QUARANTINED, Status.ARCHIVED, Status.SUPERSEDED)
    ]
    for title, group in groups:
        if group:
            out += [f"### {title} ({len(group)})", "", *(_fact_md(f) for f in group), ""]
    if not facts:
        out += ["(none yet)", ""]
    if document["proposals"]:
        out += ["## Proposals", ""]
        out += [f"- `{p['id']}` {p['kind']} {', '.join(p['target_ids'])}: {p['reason']} "
                f"({p['status']})" for p in document["proposals"]]
        out.append("")
    if document["conflicts"]:
        out += ["## Conflicts", ""]
        out += [f"- `{c['id']}` {c['subject']}: {c['reason']} "
                f"({'resolved' if c['resolved'] else 'open'})" for c in document["conflicts"]]
        out.append("")
    if document["episodes"]:
        out += ["## Episodes", ""]
        for day, text in document["episodes"].items():
            out += [f"### {day}", "", text, ""]
    if document["snapshots"]:
        out += ["## Sessions", ""]
        for snap in document["snapshots"]:
            out += [f"- {snap['started_at']} → {snap['ended_at']}, {snap['turns']} turns: "
                    f"{snap['summary']}"]
        out.append("")
    return "\n".join(out)
