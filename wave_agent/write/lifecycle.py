"""The writer's moves on existing records: forget/restore, delete, approve/reject, pin, and
the reversible moves maintenance makes (promote, archive a stale observation, expire).

Part of ``Writer`` (a mixin, so ``writer.py`` stays readable); it shares the Writer's graph,
archive and helpers. Nothing here deletes text except ``delete``, which only a person calls.
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Awaitable, Callable, Sequence
from contextlib import AbstractAsyncContextManager
from dataclasses import replace
from typing import TYPE_CHECKING, Any, Concatenate, ParamSpec, TypeVar

import numpy as np

from graph.models import (
    Fact,
    FactType,
    Proposal,
    ProposalKind,
    ProposalStatus,
    Status,
    Tier,
    Veracity,
    new_id,
    utcnow,
)
from wave_agent.infra import faults
from wave_agent.policy import similarity, tiers
from wave_agent.write.result import (
    ArchiveState,
    UnknownRecord,
    WriteRejected,
    WriteResult,
    WriteStatus,
)

if TYPE_CHECKING:
    from graph.store import GraphStore, GraphTransaction
    from wave_agent.write.archive_sync import ArchiveSync

log = logging.getLogger("wave.writer")

P = ParamSpec("P")
R = TypeVar("R")
W = TypeVar("W", bound="LifecycleMixin")


def locked(
    method: Callable[Concatenate[W, str, P], Awaitable[R]],
) -> Callable[Concatenate[W, str, P], Awaitable[R]]:
    """Run a writer method holding the person's lock (``Writer._lock``: across processes)."""
    @functools.wraps(method)
    async def run(self: W, user_id: str, /, *args: P.args, **kwargs: P.kwargs) -> R:
        async with self._lock(user_id):
            return await method(self, user_id, *args, **kwargs)
    return run


class LifecycleMixin:
    graph: GraphStore
    archive: ArchiveSync
    # Erases one record from every layer (``Eraser.delete``); ``Services`` sets it. An approved
    # DELETE proposal goes through it, so the text leaves the episode log, the snapshots and
    # the core blocks too, not only the graph and the archive.
    erase_record: Callable[[str, str], Awaitable[object]] | None = None

    if TYPE_CHECKING:  # provided by Writer
        def _lock(self, user_id: str) -> AbstractAsyncContextManager[None]: ...
        async def _fact(self, user_id: str, fact_id: str) -> Fact: ...
        async def _reindex(self, updated: Fact) -> WriteResult: ...
        async def _update(self, fact: Fact, **fields: Any) -> WriteResult: ...
        def _problem(self, state: ArchiveState) -> str | None: ...
        async def _supersede_with(self, old: Fact, new: Fact, vector: np.ndarray,
                                  score: float | None, *, proposal_id: str | None = None
                                  ) -> WriteResult: ...

    async def _moved(self, outcome: WriteStatus, fact: Fact, /, reason: str | None = None,
                     **fields: Any) -> WriteResult:
        result = await self._update(fact, **fields)
        return replace(result, status=outcome, reason=reason)

    # -- a person's moves ------------------------------------------------------------------------

    @locked
    async def forget(self, user_id: str, fact_id: str) -> WriteResult:
        """Archive a record (reversible: ``restore``); it leaves the prompt path."""
        fact = await self._fact(user_id, fact_id)
        if fact.status is Status.ARCHIVED:
            return WriteResult(WriteStatus.UNCHANGED, fact, reason="already archived")
        if fact.status is Status.SUPERSEDED:
            raise WriteRejected(
                f"Cannot forget #{fact_id}: it is already out of the prompt, replaced by "
                f"#{fact.superseded_by}", next_step=f"`wave forget {fact.superseded_by}` to "
                "archive the current version, or `wave delete` to erase this one")
        return await self._moved(WriteStatus.FORGOTTEN, fact, status=Status.ARCHIVED,
                                 tier=Tier.ARCHIVE)

    @locked
    async def restore(self, user_id: str, fact_id: str) -> WriteResult:
        """Bring an archived record back into circulation (its tier from the rules)."""
        fact = await self._fact(user_id, fact_id)
        if fact.status is not Status.ARCHIVED:
            raise WriteRejected(
                f"Cannot restore #{fact_id}: it is {fact.status.value}, not archived",
                next_step=("`wave approve " + fact_id + "` releases a quarantined record"
                           if fact.status is Status.QUARANTINED else
                           "only records archived by `wave forget` or maintenance are restored"))
        tier = tiers.tier_for(type=fact.type, pinned=fact.pinned, exchange_ids=fact.exchange_ids)
        return await self._moved(WriteStatus.RESTORED, fact, status=Status.ACTIVE, tier=tier,
                                 last_confirmed_at=utcnow())

    @locked
    async def delete(self, user_id: str, fact_id: str) -> WriteResult:
        """Erase a record from the graph AND the archive (only a person calls this)."""
        fact = await self._fact(user_id, fact_id)
        await self.graph.delete_fact(user_id, fact_id)
        state = await self.archive.delete(user_id, [fact_id])
        log.info("deleted fact %s of user %s (archive %s)", fact_id, user_id, state.value)
        return WriteResult(WriteStatus.DELETED, fact, archive=state,
                           archive_problem=self._problem(state))

    @locked
    async def erase_user(self, user_id: str) -> int:
        """Erase a whole user from the graph and the archive; how many graph nodes went. The
        writer's part of ``wave forget-me`` (``wave_agent.ops.erasure.Eraser.forget_person`` adds
        every other layer and file); the benchmarks call it alone for their throwaway users. A
        locked or down archive leaves the vectors for the drift check to drop."""
        removed = await self.graph.purge_user(user_id)
        archive = self.archive.archive
        if archive is not None:
            try:
                await archive.drop_user(user_id)
            except Exception as exc:  # the graph is the record; the drift check tidies up
                log.warning("erased %s from the graph; its vectors stay until reindex: %s",
                            user_id, exc)
        log.info("erased user %s (%d graph nodes)", user_id, removed)
        return removed

    @locked
    async def pin(self, user_id: str, fact_id: str) -> WriteResult:
        """A person vouches for a record: ``fact`` (``core`` for identity)."""
        fact = await self._fact(user_id, fact_id)
        if fact.status is not Status.ACTIVE:
            raise WriteRejected(
                f"Cannot pin #{fact_id}: it is {fact.status.value}",
                next_step=self._revive_hint(fact))
        tier = tiers.tier_for(type=fact.type, pinned=True, exchange_ids=fact.exchange_ids)
        return await self._moved(WriteStatus.PINNED, fact, pinned=True, tier=tier,
                                 last_confirmed_at=utcnow())

    @locked
    async def approve(self, user_id: str, record_id: str) -> WriteResult:
        """Carry out a proposal (``p-…``), or release a quarantined record (``f-…``)."""
        if record_id.startswith("p-"):
            return await self._approve_proposal(user_id, record_id)
        fact = await self.graph.get_fact(user_id, record_id)
        if fact is None:
            raise UnknownRecord(user_id, record_id, kind="proposal or quarantined record")
        if fact.status is not Status.QUARANTINED:
            raise WriteRejected(
                f"Nothing to approve for #{record_id}: it is {fact.status.value}",
                next_step="`wave proposals` and `wave quarantine` list what waits for approval")
        return await self._moved(WriteStatus.APPROVED, fact, status=Status.ACTIVE,
                                 last_confirmed_at=utcnow(), reason=fact.quarantine_reason)

    @locked
    async def reject(self, user_id: str, record_id: str) -> WriteResult:
        """Decline a proposal, or archive a quarantined record (reversible; `wave delete` erases)."""
        if record_id.startswith("p-"):
            proposal = await self._pending(user_id, record_id)
            done = await self.graph.set_proposal_status(user_id, record_id, ProposalStatus.REJECTED)
            if done.text:  # a declined text is not kept (issue 19); kind and targets stay
                await self.graph.clear_proposal_text(user_id, record_id)
                done = replace(done, text=None, reason="declined; its text was erased")
            return WriteResult(WriteStatus.REJECTED, proposal=done, reason=proposal.reason)
        fact = await self.graph.get_fact(user_id, record_id)
        if fact is None:
            raise UnknownRecord(user_id, record_id, kind="proposal or quarantined record")
        if fact.status is not Status.QUARANTINED:
            raise WriteRejected(
                f"Nothing to reject for #{record_id}: it is {fact.status.value}",
                next_step=f"`wave forget {record_id}` archives it, `wave delete {record_id}` "
                          "erases it")
        return await self._moved(WriteStatus.REJECTED, fact, status=Status.ARCHIVED,
                                 tier=Tier.ARCHIVE, reason=fact.quarantine_reason)

    @locked
    async def propose(self, user_id: str, kind: ProposalKind, target_ids: Sequence[str],
                      reason: str, *, text: str | None = None,
                      similarity: float | None = None) -> Proposal:
        """Maintenance asks the person (merge, generalise, demote, delete, supersede)."""
        for fid in target_ids:
            await self._fact(user_id, fid)
        return await self.graph.create_proposal(Proposal(
            id=new_id("p"), user_id=user_id, kind=ProposalKind(kind),
            target_ids=tuple(target_ids), reason=reason, text=text, similarity=similarity))

    # -- maintenance's reversible moves ----------------------------------------------------------

    @locked
    async def promote(self, user_id: str, fact_id: str) -> WriteResult:
        """An active observation confirmed often enough becomes a ``fact``."""
        fact = await self._fact(user_id, fact_id)
        if fact.status is not Status.ACTIVE or fact.tier is not Tier.OBSERVATION:
            return WriteResult(WriteStatus.UNCHANGED, fact,
                               reason=f"not an active observation ({fact.status.value}, "
                                      f"{fact.tier.value})")
        tier = Tier.CORE if fact.type is FactType.IDENTITY and fact.pinned else Tier.FACT
        return await self._moved(WriteStatus.PROMOTED, fact, tier=tier)

    @locked
    async def archive_stale(self, user_id: str, fact_id: str, reason: str) -> WriteResult:
        """A stale observation leaves circulation (reversible: ``restore``)."""
        fact = await self._fact(user_id, fact_id)
        if fact.pinned or fact.tier in (Tier.FACT, Tier.CORE):
            raise WriteRejected(
                f"Cannot archive #{fact_id} as stale: it is a {fact.tier.value}"
                + (" pinned by a person" if fact.pinned else ""),
                next_step="propose a demotion instead (`Writer.propose(..., ProposalKind.DEMOTE)`)")
        if fact.status is not Status.ACTIVE:
            return WriteResult(WriteStatus.UNCHANGED, fact, reason=f"already {fact.status.value}")
        return await self._moved(WriteStatus.ARCHIVED, fact, reason=reason,
                                 status=Status.ARCHIVED, tier=Tier.ARCHIVE)

    @locked
    async def expire(self, user_id: str, fact_id: str) -> WriteResult:
        """A ``state``/``commitment`` past ``valid_until`` is archived (reversible)."""
        fact = await self._fact(user_id, fact_id)
        if fact.status is not Status.ACTIVE:
            return WriteResult(WriteStatus.UNCHANGED, fact, reason=f"already {fact.status.value}")
        return await self._moved(
            WriteStatus.EXPIRED, fact, status=Status.ARCHIVED, tier=Tier.ARCHIVE,
            reason=f"past valid_until {fact.valid_until.isoformat() if fact.valid_until else ''}")

    @locked
    async def repair_index(self, user_id: str) -> int:
        """Re-send the person's records flagged ``needs_index``; returns how many landed."""
        flagged = [f for f in await self.graph.list_facts(user_id) if f.needs_index]
        if not flagged:
            return 0
        state = await self.archive.upsert(user_id, flagged)
        if state is ArchiveState.PENDING:
            return 0
        for fact in flagged:
            await self.graph.update_fact(user_id, fact.id, needs_index=False)
        return len(flagged)

    # -- proposals -------------------------------------------------------------------------------

    async def _pending(self, user_id: str, proposal_id: str) -> Proposal:
        proposal = await self.graph.get_proposal(user_id, proposal_id)
        if proposal is None:
            raise UnknownRecord(user_id, proposal_id, kind="proposal")
        if proposal.status is not ProposalStatus.PENDING:
            raise WriteRejected(f"Proposal {proposal_id} was already {proposal.status.value}",
                                next_step="`wave proposals` lists the pending ones")
        return proposal

    async def _approve_proposal(self, user_id: str, proposal_id: str) -> WriteResult:
        p = await self._pending(user_id, proposal_id)
        targets = [await self._fact(user_id, fid) for fid in p.target_ids]
        if p.kind is ProposalKind.SUPERSEDE:
            if not p.text or len(targets) != 1:
                raise WriteRejected(f"Proposal {proposal_id} has no replacement text",
                                    next_step=f"`wave reject {proposal_id}`")
            old = await self._in_force(targets[0])
            now = utcnow()
            new = Fact(id=new_id("f"), user_id=user_id, text=p.text, type=old.type,
                       tier=Tier.OBSERVATION, status=Status.ACTIVE, veracity=Veracity.STATED,
                       confidence=tiers.initial_confidence(Veracity.STATED), created_at=now,
                       last_confirmed_at=now, pinned=old.pinned)
            vector = (await self.archive.embedder.embed([p.text]))[0]
            result = await self._supersede_with(old, new, vector, p.similarity,
                                                proposal_id=proposal_id)
            done = await self.graph.get_proposal(user_id, proposal_id)
            return replace(result, proposal=done, reason=p.reason)
        if p.kind is ProposalKind.DELETE and self.erase_record is not None:
            for fact in targets:  # erasing a record also removes the proposals about it
                await self.erase_record(user_id, fact.id)
                faults.checkpoint("approve:deleted-one")
            done = replace(p, status=ProposalStatus.APPROVED)
            return WriteResult(WriteStatus.APPROVED, proposal=done, reason=p.reason)
        if p.kind is ProposalKind.DELETE:  # no eraser (a bare Writer): graph and archive
            async with self.graph.transaction() as tx:
                for fact in targets:
                    await tx.delete_fact(user_id, fact.id)
                    faults.checkpoint("approve:deleted-one")
                done = await tx.set_proposal_status(user_id, proposal_id, ProposalStatus.APPROVED)
            await self.archive.delete(user_id, [fact.id for fact in targets])
            return WriteResult(WriteStatus.APPROVED, proposal=done, reason=p.reason)
        if p.kind is ProposalKind.DEMOTE:
            async with self.graph.transaction() as tx:
                changed = [await tx.update_fact(user_id, fact.id, tier=Tier.OBSERVATION,
                                                pinned=False, needs_index=True)
                           for fact in targets]
                done = await tx.set_proposal_status(user_id, proposal_id, ProposalStatus.APPROVED)
        elif p.kind in (ProposalKind.MERGE, ProposalKind.GENERALISE):
            async with self.graph.transaction() as tx:
                changed = await self._merge(tx, user_id, p, targets)
                done = await tx.set_proposal_status(user_id, proposal_id, ProposalStatus.APPROVED)
        else:
            changed = []
            done = await self.graph.set_proposal_status(user_id, proposal_id,
                                                        ProposalStatus.APPROVED)
        # After the commit: the archive gets every changed record (or they stay flagged).
        if changed and await self.archive.upsert(user_id, changed) is not ArchiveState.PENDING:
            for fact in changed:
                await self.graph.update_fact(user_id, fact.id, needs_index=False)
        return WriteResult(WriteStatus.APPROVED, proposal=done, reason=p.reason)

    async def _in_force(self, fact: Fact) -> Fact:
        """The current version of ``fact``: an import proposes each later value against the
        record in force then, so approving them in order replaces the latest approved one
        (1000 -> 1200 -> 1500, history kept), not a record already replaced."""
        seen = {fact.id}
        while fact.status is Status.SUPERSEDED and fact.superseded_by not in (None, *seen):
            assert fact.superseded_by is not None
            seen.add(fact.superseded_by)
            fact = await self._fact(fact.user_id, fact.superseded_by)
        return fact

    async def _merge(self, tx: GraphTransaction, user_id: str, p: Proposal,
                     targets: list[Fact]) -> list[Fact]:
        """One record stands for the group; the others are superseded by it (history kept).

        The keeper is the target whose text the proposal names (or the first target), made a
        ``fact`` with the group's mentions; a GENERALISE text that no target has is written as
        a new ``fact`` superseding every target. All in the caller's transaction ``tx``: a
        failure half way leaves nothing half-merged. Returns the changed records (flagged
        ``needs_index`` for the archive)."""
        live = [t for t in targets if t.status is Status.ACTIVE]
        if len(live) < 2 and not (p.kind is ProposalKind.GENERALISE and p.text and live):
            raise WriteRejected(
                f"Cannot carry out {p.id}: its records are no longer active "
                f"({', '.join(f'#{t.id} {t.status.value}' for t in targets)})",
                next_step=f"`wave reject {p.id}`; maintenance proposes again if still needed")
        mentions = sum(t.mention_count for t in live)
        exchanges = tuple(dict.fromkeys(e for t in live for e in t.exchange_ids))
        named = [t for t in live if p.text and similarity.normalise(t.text)
                 == similarity.normalise(p.text)]
        if p.kind is ProposalKind.GENERALISE and p.text and not named:
            now = utcnow()
            keeper = await tx.create_fact(Fact(
                id=new_id("f"), user_id=user_id, text=p.text, type=live[0].type, tier=Tier.FACT,
                status=Status.ACTIVE, veracity=Veracity.STATED, confidence=1.0, created_at=now,
                last_confirmed_at=now, mention_count=mentions, exchange_ids=exchanges,
                needs_index=True))
            others = live
        else:
            first = named[0] if named else live[0]
            others = [t for t in live if t.id != first.id]
            keeper = await tx.update_fact(
                user_id, first.id, mention_count=mentions, exchange_ids=exchanges,
                tier=Tier.CORE if first.tier is Tier.CORE else Tier.FACT, needs_index=True,
                last_confirmed_at=max(t.last_confirmed_at for t in live))
        faults.checkpoint("merge:keeper")
        changed: list[Fact] = []
        for other in others:
            old, keeper = await tx.supersede(user_id, other.id, keeper.id)
            faults.checkpoint("merge:superseded-one")
            changed.append(await tx.update_fact(user_id, old.id, needs_index=True))
        changed.append(keeper)
        return changed

    @staticmethod
    def _revive_hint(fact: Fact) -> str:
        if fact.status is Status.ARCHIVED:
            return f"`wave restore {fact.id}` first"
        if fact.status is Status.QUARANTINED:
            return f"`wave approve {fact.id}` first"
        return f"pin the current version, #{fact.superseded_by}"
