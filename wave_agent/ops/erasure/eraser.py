"""Erasure across every layer: one record (``wave delete``), or a whole person (``wave
forget-me``, ``/forget_me``).

One record (a fact of any status, quarantined ones included, or a proposal ``p-…``):
- graph: the record (through the writer), the entities only it named and their keys, its id
  in relation provenance (a relation left without any goes), proposals and conflicts that
  concern it;
- archive: its vector (the local Qdrant file is then compacted);
- episodes: the day lines that carry its id; weekly summaries of those weeks;
- session log and outbox: in the exchanges it came from (``exchange_ids``), the clauses that
  say it (``redact``); the extracted fact and the step result that name it;
- snapshots of the sessions those exchanges belong to, rebuilt from the redacted log;
- core blocks: lines Wave's post-processor wrote that say it, in every stored version (Letta:
  the current block, every history block, queued updates).
Nothing is searched by words outside what provenance ties to the record.

A person: every node and vector of theirs, both blocks with all history (Letta blocks, history
blocks, the agent, queued updates), the episode and snapshot folders, their sessions and
outbox jobs, the exports Wave wrote for them; then one audit line with the time and no id.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from episodes.paths import user_path
from graph.models import Proposal, ProposalKind, ProposalStatus
from wave_agent.infra import faults
from wave_agent.ops.erasure.redact import Trace, redact, wave_written
from wave_agent.write.events import ChangeKind
from wave_agent.write.result import (
    ArchiveState,
    UnknownRecord,
    WriteRejected,
    WriteResult,
    WriteStatus,
)

if TYPE_CHECKING:
    from episodes.store import EpisodeStore
    from graph.store import GraphStore
    from snapshots.models import Snapshot
    from snapshots.store import SnapshotStore
    from wave_agent.blocks.store import BlockStore
    from wave_agent.conversation.session import SessionLog, Sessions
    from wave_agent.infra.outbox import Outbox
    from wave_agent.write.writer import Writer

log = logging.getLogger("wave.erasure")

AUDIT_FILE = "erasures.log"
EXPORTS_DIR = "exports"
LAYERS = ("graph", "archive", "episodes", "snapshots", "session log", "outbox", "blocks",
          "exports")


@dataclass
class ErasureReport:
    """What went, layer by layer (``layers[name] = {what: count}``); ``pending`` names a layer
    that could not be reached and what finishes the job."""

    kind: str  # "record" | "proposal" | "person"
    record_id: str | None = None
    text: str | None = None
    layers: dict[str, dict[str, Any]] = field(default_factory=dict)
    pending: list[str] = field(default_factory=list)

    def add(self, layer: str, **counts: Any) -> None:
        found = {k: v for k, v in counts.items() if v}
        if found:
            self.layers.setdefault(layer, {}).update(found)

    def as_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "id": self.record_id, "text": self.text,
                "removed": {layer: self.layers.get(layer, {}) for layer in LAYERS},
                "pending": list(self.pending)}

    def lines(self) -> list[str]:
        if self.kind == "person":
            head = "Erased the person's memory from every layer."
        else:
            shown = f' "{self.text}"' if self.text else ""
            head = f"Erased #{self.record_id}{shown} from every layer."
        out = [head]
        for layer in LAYERS:
            counts = self.layers.get(layer)
            if counts:
                out.append(f"  {layer}: " + ", ".join(_count(k, v) for k, v in counts.items()))
            else:
                out.append(f"  {layer}: nothing held it")
        out += [f"  pending: {p}" for p in self.pending]
        return out

    @property
    def message(self) -> str:
        return "\n".join(self.lines())


def _count(what: str, value: Any) -> str:
    if isinstance(value, list | tuple):
        return f"{what} {', '.join(str(v) for v in value)}"
    if isinstance(value, bool):
        return what
    return f"{value} {what}"


@dataclass(frozen=True, slots=True)
class ErasureStores:
    """What erasure touches (built by ``Services.eraser()``)."""

    writer: Writer
    graph: GraphStore
    episodes: EpisodeStore
    snapshots: SnapshotStore
    blocks: BlockStore | None
    sessions: Sessions | None
    data_dir: Path
    session_log: SessionLog
    outbox: Outbox


class Eraser:
    def __init__(self, stores: ErasureStores) -> None:
        self.s = stores

    # -- one record ------------------------------------------------------------------------

    async def delete(self, user_id: str, record_id: str) -> ErasureReport:
        """Erase a record (``f-…``, any status) or a proposal (``p-…``) from every layer."""
        record_id = record_id.strip()
        if record_id.startswith("p-"):
            return await self._delete_proposal(user_id, record_id)
        fact = await self.s.graph.get_fact(user_id, record_id)
        if fact is None:
            raise UnknownRecord(user_id, record_id, kind="record or proposal")
        report = ErasureReport("record", fact.id, fact.text)
        others = [f.text for f in await self.s.graph.list_facts(user_id, statuses=None)
                  if f.id != fact.id]
        trace = Trace.of([fact.text], others)
        traces = await self.s.graph.erase_record_traces(user_id, fact.id)
        result = await self.s.writer.delete(user_id, fact.id)
        report.add("graph", record=1, entities=len(traces.entities),
                   relations=traces.relations, **{"relations trimmed": traces.relations_trimmed},
                   proposals=len(traces.proposals), conflicts=len(traces.conflicts))
        await self._archive_after_delete(user_id, result.archive, report)
        await self._sources(user_id, {fact.id, *traces.proposals}, fact.exchange_ids, trace,
                            {fact.text}, report)
        self._audit("delete: one record erased from every layer")
        # after every layer, core blocks included: a cache refreshed now reads none of it
        self.s.writer.changes.announce(user_id, ChangeKind.ERASED, (fact.id, *traces.proposals))
        return report

    async def approve_deletion(self, user_id: str, proposal_id: str) -> WriteResult:
        """The person approves a DELETE proposal (the model's `forget` tool, MCP's): each
        record it names leaves every layer, exactly as ``delete`` (``wave delete``) takes it.

        Erasing a record also erases the proposals about it, this one included, so nothing is
        left to mark approved: the result reports it approved. The person's write lock is held
        throughout, so a second approval waits and then finds no proposal."""
        writer = self.s.writer
        async with writer.hold(user_id):
            proposal = await writer.pending_proposal(user_id, proposal_id.strip())
            if proposal.kind is not ProposalKind.DELETE:
                raise WriteRejected(
                    f"Proposal {proposal.id} is a {proposal.kind.value}, not a deletion",
                    next_step=f"`wave approve {proposal.id}` carries it out")
            for fact_id in proposal.target_ids:
                await self.delete(user_id, fact_id)
                faults.checkpoint("approve:deleted-one")
        done = replace(proposal, status=ProposalStatus.APPROVED)
        return WriteResult(WriteStatus.APPROVED, proposal=done, reason=proposal.reason)

    async def _delete_proposal(self, user_id: str, proposal_id: str) -> ErasureReport:
        from graph.errors import ProposalNotFound

        try:
            proposal = await self.s.graph.delete_proposal(user_id, proposal_id)
        except ProposalNotFound as exc:
            raise UnknownRecord(user_id, proposal_id, kind="proposal") from exc
        report = ErasureReport("proposal", proposal.id, proposal.text)
        report.add("graph", proposal=1)
        if proposal.text:
            await self._proposal_sources(user_id, proposal, report)
        self._audit("delete: one proposal erased from every layer")
        self.s.writer.changes.announce(user_id, ChangeKind.ERASED, (proposal.id,))
        return report

    async def _proposal_sources(self, user_id: str, proposal: Proposal,
                                report: ErasureReport) -> None:
        """A proposal's text came from an exchange (the outbox names it, or holds its words)."""
        assert proposal.text is not None
        keys = await asyncio.to_thread(self.s.outbox.jobs_quoting, user_id, proposal.id,
                                       proposal.text)
        others = [f.text for f in await self.s.graph.list_facts(user_id, statuses=None)]
        trace = Trace.of([proposal.text], others)
        await self._sources(user_id, {proposal.id}, keys, trace, {proposal.text}, report,
                            episodes=False)

    async def _sources(self, user_id: str, ids: set[str], exchange_ids: tuple[str, ...] | list[str],
                       trace: Trace, texts: set[str], report: ErasureReport, *,
                       episodes: bool = True) -> None:
        def cut(text: str) -> str:
            return redact(text, trace)

        if episodes:
            days = await self.s.episodes.remove_lines(user_id, sorted(ids), redact=cut)
            report.add("episodes", lines=sum(n for _, n in days),
                       days=[d.isoformat() for d, _ in days])
        log_rows = await asyncio.to_thread(self.s.session_log.redact_exchanges, user_id,
                                           list(exchange_ids), cut)
        report.add("session log", **{"exchanges redacted": log_rows.rows})
        if not log_rows.compacted:
            report.pending.append("session log compaction (`wave maintain --job erasure`)")
        changed = await self.s.snapshots.rewrite(
            user_id, lambda snap: self._redacted_snapshot(snap, set(log_rows.sessions), cut))
        report.add("snapshots", files=changed)
        jobs = await asyncio.to_thread(self.s.outbox.redact_jobs, user_id, list(exchange_ids),
                                       ids, cut, texts)
        report.add("outbox", **{"jobs redacted": jobs.rows})
        if not jobs.compacted:
            report.pending.append("outbox compaction (`wave maintain --job erasure`)")
        await self._blocks(user_id, trace, report)

    def _redacted_snapshot(self, snap: Snapshot, sessions: set[str],
                           cut: Callable[[str], str]) -> Snapshot:
        if snap.session_id not in sessions:
            return snap
        rebuilt = snap
        if self.s.sessions is not None and snap.extra.get("summary_source") == "heuristic":
            info = self.s.sessions.log.get(snap.session_id)
            if info is not None:
                fresh = self.s.sessions.snapshot_of(info, snap.ended_at, snap.end_reason)
                rebuilt = replace(snap, summary=fresh.summary, last_replies=fresh.last_replies)
        return replace(
            rebuilt, summary=cut(rebuilt.summary),
            last_replies=tuple(replace(r, text=cut(r.text)) for r in rebuilt.last_replies),
            observations=tuple(o for o in (cut(o) for o in rebuilt.observations) if o))

    async def _blocks(self, user_id: str, trace: Trace, report: ErasureReport) -> None:
        from wave_agent.blocks.store import LABELS, BlockStoreUnavailable

        store = self.s.blocks
        if store is None:
            return
        for label in LABELS:
            try:
                history = await store.history(user_id, label)
            except BlockStoreUnavailable as exc:
                report.pending.append(f"core block {label}: {exc}")
                continue
            doomed = _wave_lines(history, trace)
            if not doomed:
                continue

            def change(value: str, reason: str, doomed: set[str] = doomed) -> str:
                lines = value.split("\n")
                kept = [ln for ln in lines if ln not in doomed]
                return value if len(kept) == len(lines) else "\n".join(kept)

            versions = await store.rewrite_versions(user_id, label, change)
            report.add("blocks", **{f"{label} lines": len(doomed), f"{label} versions": versions})

    async def _archive_after_delete(self, user_id: str, state: ArchiveState,
                                    report: ErasureReport) -> None:
        if state is ArchiveState.PENDING:
            report.pending.append("archive: the vector goes at the next `wave reindex` or "
                                  "maintenance drift run (the archive was locked or down)")
            return
        report.add("archive", vector=1)
        archive = self.s.writer.archive.archive
        compact = getattr(archive, "compact", None)
        if compact is not None:
            try:
                await compact(user_id)
            except Exception as exc:  # compaction is a second pass; maintenance retries it
                log.warning("archive not compacted after an erasure: %s", exc)
                report.pending.append("archive compaction (`wave maintain --job erasure`)")

    # -- a whole person --------------------------------------------------------------------

    async def what_would_go(self, user_id: str) -> dict[str, int]:
        """What ``forget_person`` would erase, for the confirmation (counts, nothing written)."""
        graph = self.s.graph
        facts = await graph.list_facts(user_id, statuses=None)
        counts = {
            "records": len(facts),
            "entities": len(await graph.list_entities(user_id)),
            "proposals": len(await graph.list_proposals(user_id, status=None)),
            "episode days": len(await self.s.episodes.days(user_id)),
            "session snapshots": len(await self.s.snapshots.recent(user_id, limit=100_000)),
            "conversation exchanges": await asyncio.to_thread(
                self.s.session_log.count_exchanges, user_id),
            "exports": len(_exports_written(self.s.data_dir, user_id)),
        }
        if self.s.blocks is not None:
            from wave_agent.blocks.store import LABELS

            counts["core block versions"] = 0
            for label in LABELS:
                try:
                    counts["core block versions"] += len(await self.s.blocks.history(user_id, label))
                except Exception:  # shown as unknown: Letta down
                    counts["core block versions"] = -1
                    break
        return counts

    async def forget_person(self, user_id: str) -> ErasureReport:
        """Erase the person from every layer and file; one audit line (time, no id) remains."""
        report = ErasureReport("person")
        nodes = await self.s.writer.erase_user(user_id)
        report.add("graph", nodes=nodes)
        archive = self.s.writer.archive.archive
        try:
            left = await archive.fact_ids(user_id) if archive is not None else {"unreachable"}
        except Exception:  # the archive went down meanwhile
            left = {"unreachable"}
        if left:
            report.pending.append("archive: the person's vectors go at the next `wave reindex`"
                                  " (the archive was locked or down)")
        else:
            report.add("archive", collection=True)
        if self.s.blocks is not None:
            try:
                report.add("blocks", removed=await self.s.blocks.erase_user(user_id))
            except Exception as exc:  # Letta down: said in the report, retried by forget-me
                report.pending.append(f"core blocks: {exc}")
        report.add("episodes", files=await self.s.episodes.erase_user(user_id))
        report.add("snapshots", files=await self.s.snapshots.erase_user(user_id))
        rows = await asyncio.to_thread(self.s.session_log.erase_user, user_id)
        report.add("session log", rows=rows.rows)
        jobs = await asyncio.to_thread(self.s.outbox.erase_user, user_id)
        report.add("outbox", jobs=jobs.rows)
        if not (rows.compacted and jobs.compacted):
            report.pending.append("SQLite compaction (`wave maintain --job erasure`)")
        report.add("exports", files=await asyncio.to_thread(_erase_exports, self.s.data_dir,
                                                              user_id))
        from wave_agent.infra.tokens import TokenStore
        from wave_agent.ops import health_history

        report.add("health history", files=health_history.erase(self.s.data_dir, user_id))
        tokens = TokenStore(self.s.data_dir / "mcp" / "tokens.json")
        report.add("MCP tokens", removed=await asyncio.to_thread(tokens.revoke, user_id))
        report.add("logs", lines=await asyncio.to_thread(erase_from_logs,
                                                         self.s.data_dir / "logs", user_id))
        self._audit("forget-me: a person was erased from every layer")
        self.s.writer.changes.announce(user_id, ChangeKind.PERSON_ERASED)
        return report

    # -- the audit line --------------------------------------------------------------------

    def _audit(self, what: str) -> None:
        """One line: when, and what kind of erasure (never who or what was said)."""
        path = self.s.data_dir / AUDIT_FILE
        path.parent.mkdir(parents=True, exist_ok=True)
        stamp = datetime.now(UTC).replace(microsecond=0).isoformat()
        with open(path, "a", encoding="utf-8") as handle:
            handle.write(f"{stamp} {what}\n")


def erase_from_logs(folder: Path, user_id: str) -> int:
    """Drop every line naming ``user_id`` from the log files under ``folder`` (rotated ones
    too); how many lines went. Rewritten in place, so a process appending to a file keeps
    appending to it (a replaced file would take its later lines to an unlinked inode)."""
    if not folder.is_dir():
        return 0
    needle = user_id.encode()
    dropped = 0
    for path in sorted(p for p in folder.iterdir() if p.is_file()):
        with path.open("r+b") as handle:
            lines = handle.read().splitlines(keepends=True)
            kept = [line for line in lines if needle not in line]
            if len(kept) == len(lines):
                continue
            dropped += len(lines) - len(kept)
            handle.seek(0)
            handle.write(b"".join(kept))
            handle.truncate()
    return dropped


def _wave_lines(history: list[Any], trace: Trace) -> set[str]:
    """Block lines Wave's post-processor introduced that say the record."""
    doomed: set[str] = set()
    seen: set[str] = set()
    for version in history:
        for line in version.value.split("\n"):
            if line in seen:
                continue
            seen.add(line)
            if line.strip() and wave_written(version.reason) and trace.says(line):
                doomed.add(line)
    return doomed


# -- exports Wave wrote ------------------------------------------------------------------------


def exports_manifest(data_dir: Path, user_id: str) -> Path:
    return user_path(data_dir / EXPORTS_DIR, user_id) / "written.jsonl"


def record_export(data_dir: Path, user_id: str, paths: list[Path]) -> None:
    """Remember where an export was written, so that forget-me can remove it."""
    manifest = exports_manifest(data_dir, user_id)
    manifest.parent.mkdir(parents=True, exist_ok=True)
    with open(manifest, "a", encoding="utf-8") as handle:
        for path in paths:
            handle.write(json.dumps({"path": str(path.resolve())}, ensure_ascii=False) + "\n")


def _exports_written(data_dir: Path, user_id: str) -> list[Path]:
    manifest = exports_manifest(data_dir, user_id)
    if not manifest.exists():
        return []
    found: list[Path] = []
    for line in manifest.read_text(encoding="utf-8").splitlines():
        try:
            found.append(Path(json.loads(line)["path"]))
        except (ValueError, KeyError, TypeError):
            continue
    return [p for p in dict.fromkeys(found) if p.exists()]


def _erase_exports(data_dir: Path, user_id: str) -> int:
    from common.files import remove_tree

    removed = 0
    for path in _exports_written(data_dir, user_id):
        path.unlink(missing_ok=True)
        removed += 1
    remove_tree(exports_manifest(data_dir, user_id).parent)
    return removed


__all__ = ["Eraser", "ErasureReport", "ErasureStores", "record_export"]
