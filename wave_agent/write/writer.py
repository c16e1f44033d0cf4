"""The one write path for facts (DESIGN section 4): limits, quarantine, near-duplicates,
supersession, conflicts, tiers, and the archive kept in step.

Only this module calls the GraphStore's fact-writing methods (``tests/unit/test_single_writer.py``).
What the agent may do by itself is reversible (confirm a repetition, promote, archive a stale
observation); what would lose knowledge is proposed to the person (supersession it was not
told, deletion). Every refusal names the working next step.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

import numpy as np

from graph import kin
from graph.models import (
    MAX_FACT_CHARS,
    Conflict,
    EntityType,
    Fact,
    FactType,
    Proposal,
    ProposalKind,
    Status,
    Tier,
    Veracity,
    new_id,
    utcnow,
)
from wave_agent.infra import faults
from wave_agent.infra.person_lock import PersonLocks
from wave_agent.policy import batch_changes, calibration, numbers, quarantine, similarity, tiers
from wave_agent.policy import judge as judging
from wave_agent.policy.edge_input import not_utf8
from wave_agent.policy.types import guess_type
from wave_agent.write.archive_sync import ArchiveSync
from wave_agent.write.lifecycle import LifecycleMixin
from wave_agent.write.result import (
    ArchiveState,
    UnknownRecord,
    WriteRejected,
    WriteResult,
    WriteStatus,
)

if TYPE_CHECKING:
    from graph.store import GraphStore

log = logging.getLogger("wave.writer")

CANDIDATES = 8  # nearest active records (each voice) compared with a new text
STATE_LIFETIME = timedelta(days=7)  # "mood, current status: must expire" (DESIGN section 3)

__all__ = ["MemoryItem", "UnknownRecord", "WriteRejected", "WriteResult", "WriteStatus", "Writer"]


@dataclass(frozen=True, slots=True)
class MemoryItem:
    """One record for ``remember_many`` (imports, the LoCoMo replay)."""

    text: str
    type: FactType | None = None
    veracity: Veracity = Veracity.IMPORTED
    created_at: datetime | None = None
    speaker: str | None = None
    source_message_ids: tuple[str, ...] = ()
    exchange_id: str | None = None
    episode_date: str | None = None
    valid_until: datetime | None = None  # state/commitment: maintenance expires it after
    released_reason: str | None = None  # released from quarantine by the person: stays released


def check_text(text: str) -> str:
    """The text as it will be stored, or ``WriteRejected`` (never truncated)."""
    cleaned = text.strip()
    if not_utf8(cleaned):  # lone surrogates: bytes that were not UTF-8 (argv, a pipe)
        raise WriteRejected("Cannot remember this text: it is not valid UTF-8",
                            next_step="retype it in a UTF-8 terminal (check `locale`) or "
                                      "convert the file with `iconv -t UTF-8`")
    if not cleaned:
        raise WriteRejected("Cannot remember an empty text",
                            next_step="say what to remember, e.g. `wave remember \"...\"`")
    if len(cleaned) > MAX_FACT_CHARS:
        raise WriteRejected(
            f"Cannot remember a text of {len(cleaned):,} characters: the limit is "
            f"{MAX_FACT_CHARS:,} and texts are never cut",
            next_step=(f"split it into notes under {MAX_FACT_CHARS:,} characters, or save the "
                       "document and remember a summary"),
        )
    return cleaned


def check_supersede_target(old_id: str | None, text: str) -> str:
    """The target id, or the refusal for a missing target or a record replacing itself."""
    if not old_id or not old_id.strip():
        raise WriteRejected(
            "Cannot supersede: say which record this replaces",
            next_step="`wave supersede <id> \"new text\"` (ids from `wave recall` or "
                      "`wave facts`); to add a new record instead, `wave remember`")
    old_id = old_id.strip()
    if text.strip() == old_id:
        raise WriteRejected(
            f"Cannot supersede #{old_id} by itself",
            next_step=f"give the new text: `wave supersede {old_id} \"new text\"`; if it is "
                      "still true as it is, `wave remember` the same words to confirm it")
    return old_id


class Writer(LifecycleMixin):
    """Writes a person's facts to the graph and the archive. One per process (``Services``)."""

    def __init__(
        self, graph: GraphStore, archive: ArchiveSync, *, locks: PersonLocks | None = None
    ) -> None:
        self.graph = graph
        self.archive = archive
        # One writer per person at a time: in this process, and across processes when
        # ``Services`` gives a lock directory (DATA_DIR/locks). Re-entrant within a task.
        self._locks = locks if locks is not None else PersonLocks()

    def _lock(self, user_id: str) -> AbstractAsyncContextManager[None]:
        return self._locks.hold(user_id)

    # -- remember ------------------------------------------------------------------------------

    async def remember(
        self,
        user_id: str,
        text: str,
        *,
        type: FactType | None = None,
        veracity: Veracity = Veracity.STATED,
        pin: bool = False,
        source_message_ids: Sequence[str] = (),
        exchange_id: str | None = None,
        created_at: datetime | None = None,
        speaker: str | None = None,
        entities: Sequence[tuple[str, EntityType]] = (),
        explicit_supersede: bool = False,
        episode_date: str | None = None,
        valid_until: datetime | None = None,
    ) -> WriteResult:
        """Store ``text`` for ``user_id`` unless it repeats, changes or contradicts a record.

        Statuses: ``created``, ``confirmed`` (a near-duplicate: the existing record gains a
        mention), ``proposed`` (same words, other numbers: a supersession proposal; the new
        text waits in the proposal), ``quarantined`` (instruction-like), ``superseded`` (the
        caller said the change outright: ``explicit_supersede=True``).
        A ``state`` without ``valid_until`` gets one (STATE_LIFETIME): it must expire.
        """
        cleaned = check_text(text)
        kind = FactType(type) if type is not None else guess_type(cleaned)
        now = utcnow()
        fact = Fact(
            id=new_id("f"), user_id=user_id, text=cleaned, type=kind, tier=Tier.OBSERVATION,
            status=Status.ACTIVE, veracity=Veracity(veracity),
            confidence=tiers.initial_confidence(Veracity(veracity)),
            created_at=created_at or now, last_confirmed_at=created_at or now,
            source_message_ids=tuple(source_message_ids), speaker=speaker, pinned=pin,
            exchange_ids=(exchange_id,) if exchange_id else (), episode_date=episode_date,
            valid_until=valid_until or (
                (created_at or now) + STATE_LIFETIME if kind is FactType.STATE else None),
        )
        fact = replace(fact, tier=tiers.tier_for(type=kind, pinned=pin,
                                                 exchange_ids=fact.exchange_ids))
        async with self._lock(user_id):
            suspicion = quarantine.detect(cleaned)
            if suspicion is not None:
                return await self._quarantine(fact, suspicion.reason, entities)
            vector = (await self.archive.embedder.embed([cleaned]))[0]
            for candidate, cosine in await self._candidates(user_id, cleaned, vector):
                verdict = await self._verdict(candidate, cleaned, cosine)
                if verdict is None:
                    continue
                relation, score = verdict.relation, verdict.similarity
                if relation is judging.Relation.DUPLICATE:
                    confirmed = await self._confirm(candidate, fact, score, pin=pin)
                    if entities:
                        await self.graph.link_about(user_id, candidate.id, await self._entity_ids(
                            user_id, cleaned, entities))
                    return confirmed
                # a change the person said ("теперь", "больше не", "już nie", "no longer"):
                # proposed, or carried out when the caller says it is a replacement
                stated_change = judging.stated_change(candidate.text, cleaned, verdict,
                                                      told=explicit_supersede)
                if relation is judging.Relation.NUMBER_CHANGE or stated_change:
                    if explicit_supersede:
                        return await self._supersede_with(candidate, fact, vector, score)
                    return await self._propose(candidate, fact, score, verdict.detail,
                                               said=stated_change)
                if relation is judging.Relation.OPPOSITE:
                    return await self._conflict(candidate, fact, vector, score, entities)
            return await self._create(fact, vector, entities)

    async def _verdict(
        self, candidate: Fact, text: str, cosine: float
    ) -> judging.Verdict | None:
        if similarity.normalise(candidate.text) == similarity.normalise(text):
            return judging.Verdict(judging.Relation.DUPLICATE, 1.0, "exact repeat")
        cal = calibration.of(self.archive.embedder)
        verdict = judging.judge(candidate.text, text, cosine, cal=cal)
        if verdict.relation is judging.Relation.DUPLICATE and judging.needs_residual(
                candidate.text, text):
            left, right = judging.residuals(candidate.text, text)
            embedder = self.archive.embedder
            pair = await (embedder.embed_query if cal.residual_as_query else embedder.embed)(
                [left, right])
            verdict = judging.judge(candidate.text, text, cosine, float(pair[0] @ pair[1]), cal)
        return None if verdict.relation is judging.Relation.UNRELATED else verdict

    async def _candidates(
        self, user_id: str, text: str, vector: np.ndarray
    ) -> list[tuple[Fact, float]]:
        """The person's active records nearest to ``text`` by the semantic and lexical voices,
        with their cosine to it, most similar first."""
        ids = [fid for fid, _ in await self.archive.search(user_id, vector, limit=CANDIDATES)]
        lexical = await self.graph.fulltext_search(user_id, text, limit=CANDIDATES)
        ids += [scored.fact.id for scored in lexical]
        facts = [f for f in await self.graph.get_facts(user_id, ids) if f.status is Status.ACTIVE]
        if not facts:
            return []
        vectors = await self.archive.embedder.embed([f.text for f in facts])
        cosines = vectors @ vector
        scored = [(f, float(c)) for f, c in zip(facts, cosines, strict=True)]
        cal = calibration.of(self.archive.embedder)
        scored.sort(key=lambda fc: judging.similarity_of(fc[0].text, text, fc[1], cal),
                    reverse=True)
        return scored

    # -- the outcomes of remember --------------------------------------------------------------

    async def _create(
        self, fact: Fact, vector: np.ndarray | None,
        entities: Sequence[tuple[str, EntityType]] = (),
    ) -> WriteResult:
        """Archive first, then the graph; a failed archive leaves ``needs_index`` on the fact."""
        state = await self.archive.upsert(fact.user_id, [fact],
                                          None if vector is None else vector[None, :])
        stored = replace(fact, needs_index=state is ArchiveState.PENDING)
        entity_ids = await self._relatives(fact)
        entity_ids += [e for e in await self._entity_ids(fact.user_id, fact.text, entities)
                       if e not in entity_ids]
        stored = await self.graph.create_fact(stored, entity_ids)
        status = WriteStatus.QUARANTINED if stored.status is Status.QUARANTINED else WriteStatus.CREATED
        return WriteResult(status, stored, archive=state, archive_problem=self._problem(state))

    async def _quarantine(
        self, fact: Fact, reason: str, entities: Sequence[tuple[str, EntityType]]
    ) -> WriteResult:
        for same in await self.graph.list_facts(fact.user_id,
                                                statuses=(Status.QUARANTINED, Status.ACTIVE)):
            if similarity.normalise(same.text) == similarity.normalise(fact.text):
                if same.status is Status.ACTIVE:  # released by the person: stays released
                    return await self._confirm(same, fact, 1.0)
                return WriteResult(WriteStatus.QUARANTINED, same, reason=same.quarantine_reason)
        held = replace(fact, status=Status.QUARANTINED, tier=Tier.OBSERVATION, pinned=False,
                       quarantine_reason=reason)
        vector = (await self.archive.embedder.embed([held.text]))[0]
        return await self._create(held, vector, entities)

    async def _confirm(
        self, existing: Fact, new: Fact, score: float, *, pin: bool = False
    ) -> WriteResult:
        """One more mention of ``existing``, counted by the graph in one transaction (a mention
        from an exchange it already counts, e.g. an outbox retry, changes nothing)."""
        async with self.graph.transaction() as tx:
            fact, counted = await tx.add_mention(
                existing.user_id, existing.id, exchange_ids=new.exchange_ids,
                source_message_ids=new.source_message_ids, confirmed_at=new.last_confirmed_at,
                confidence_step=tiers.confidence_after_mention(0.0, new.veracity), pin=pin)
            if not counted:
                return WriteResult(WriteStatus.CONFIRMED, fact, similar_to=existing,
                                   similarity=score)
            tier = tiers.tier_for(type=fact.type, pinned=fact.pinned,
                                  exchange_ids=fact.exchange_ids, current=fact.tier)
            before = fact.tier
            if tier is not before:
                fact = await tx.update_fact(fact.user_id, fact.id, tier=tier)
        updated = await self._reindex(fact)
        return WriteResult(WriteStatus.CONFIRMED, updated.fact, similar_to=existing,
                           similarity=score, promoted=tier is not before,
                           archive=updated.archive, archive_problem=updated.archive_problem)

    async def _propose(self, old: Fact, new: Fact, score: float, detail: str,
                       *, said: str | None = None) -> WriteResult:
        for pending in await self.graph.list_proposals(old.user_id):
            if pending.target_ids == (old.id,) and pending.text == new.text:
                return self._proposed(old, pending)
        proposal = await self.graph.create_proposal(
            self._supersede_proposal(old, new, score, detail, said=said))
        return self._proposed(old, proposal)

    @staticmethod
    def _supersede_proposal(old: Fact, new: Fact, score: float, detail: str, *,
                            said: str | None = None, told: datetime | None = None) -> Proposal:
        # an import: when each value was told orders its proposals for the person
        when = f", told {told.date().isoformat()}" if told is not None else ""
        if numbers.same_words_other_numbers(old.text, new.text):
            reason = f"same words, other numbers ({detail}) as #{old.id}{when}: replace it?"
        else:
            reason = f"said it changed (\"{said}\"){when}: replaces #{old.id}?"
        return Proposal(id=new_id("p"), user_id=old.user_id, kind=ProposalKind.SUPERSEDE,
                        target_ids=(old.id,), text=new.text, similarity=score, reason=reason)

    @staticmethod
    def _proposed(old: Fact, proposal: Proposal) -> WriteResult:
        return WriteResult(WriteStatus.PROPOSED, None, similar_to=old,
                           similarity=proposal.similarity, proposal=proposal,
                           reason=proposal.reason)

    async def _propose_many(
        self, user_id: str, items: Sequence[MemoryItem], positions: Sequence[int],
        changes: dict[str, batch_changes.Change],
    ) -> dict[int, WriteResult]:
        """An import's number changes as proposals, written in one statement; a proposal
        already pending for the same record and text is reused."""
        pending = {(p.target_ids, p.text): p for p in await self.graph.list_proposals(user_id)}
        fresh: dict[tuple[tuple[str, ...], str | None], Proposal] = {}
        chosen: dict[int, tuple[batch_changes.Change, tuple[tuple[str, ...], str | None]]] = {}
        for i in positions:
            change = changes.get(similarity.normalise(items[i].text))
            if change is None:
                continue
            key = ((change.old.id,), change.new.text)
            if key not in pending and key not in fresh:
                fresh[key] = self._supersede_proposal(
                    change.old, change.new, change.similarity, change.detail,
                    told=items[i].created_at)
            chosen[i] = (change, key)
        written = {(p.target_ids, p.text): p
                   for p in await self.graph.create_proposals(user_id, list(fresh.values()))}
        return {i: self._proposed(change.old, pending.get(key) or written[key])
                for i, (change, key) in chosen.items()}

    async def _conflict(
        self, old: Fact, new: Fact, vector: np.ndarray, score: float,
        entities: Sequence[tuple[str, EntityType]],
    ) -> WriteResult:
        created = await self._create(new, vector, entities)
        assert created.fact is not None
        subject = " ".join(sorted(similarity.content_stems(old.text)
                                  & similarity.content_stems(new.text)))[:200]
        conflict = await self.graph.create_conflict(Conflict(
            id=new_id("c"), user_id=old.user_id, fact_ids=(old.id, created.fact.id),
            subject=subject or old.text[:200],
            reason=f"#{created.fact.id} says the opposite of #{old.id} ({score:.2f} similar)",
        ))
        log.warning("conflict %s for user %s: %s", conflict.id, old.user_id, conflict.reason)
        return replace(created, similar_to=old, similarity=score, conflict=conflict,
                       reason=conflict.reason)

    # -- supersession --------------------------------------------------------------------------

    async def supersede(
        self, user_id: str, old_id: str | None, text: str, *,
        type: FactType | None = None, exchange_id: str | None = None,
    ) -> WriteResult:
        """The person says outright that ``text`` replaces record ``old_id``."""
        old_id = check_supersede_target(old_id, text)
        old = await self._fact(user_id, old_id)
        cleaned = check_text(text)
        if similarity.normalise(cleaned) == similarity.normalise(old.text):
            raise WriteRejected(
                f"Cannot supersede #{old_id} by itself: the new text is the same as the old one",
                next_step=f"give what changed: `wave supersede {old_id} \"new text\"`; to "
                          f"confirm it unchanged, `wave remember \"{old.text[:60]}\"`")
        self._check_replaceable(old)
        suspicion = quarantine.detect(cleaned)
        if suspicion is not None:
            raise WriteRejected(
                f"Cannot supersede #{old_id} with instruction-like text: {suspicion.reason}",
                next_step="`wave remember` it to have it quarantined for review, or reword it "
                          "as a statement about the person")
        now = utcnow()
        kind = FactType(type) if type is not None else old.type
        fact = Fact(
            id=new_id("f"), user_id=user_id, text=cleaned, type=kind,
            tier=Tier.OBSERVATION, status=Status.ACTIVE, veracity=Veracity.STATED,
            confidence=tiers.initial_confidence(Veracity.STATED), created_at=now,
            last_confirmed_at=now, pinned=old.pinned,
            exchange_ids=(exchange_id,) if exchange_id else (),
        )
        vector = (await self.archive.embedder.embed([cleaned]))[0]
        async with self._lock(user_id):
            old = await self._fact(user_id, old_id)  # as it is now that this writer holds it
            return await self._supersede_with(old, fact, vector, None)

    def _check_replaceable(self, old: Fact) -> None:
        if old.status is Status.SUPERSEDED:
            raise WriteRejected(
                f"Cannot supersede #{old.id}: it was already replaced by #{old.superseded_by}",
                next_step=f"supersede the current version: `wave supersede {old.superseded_by} "
                          "\"new text\"` (its history keeps both)")

    async def _supersede_with(
        self, old: Fact, new: Fact, vector: np.ndarray, score: float | None,
        *, proposal_id: str | None = None,
    ) -> WriteResult:
        """Create ``new`` and link it to ``old`` both ways, in one graph transaction.

        The replacement of a fact or core record keeps its tier: the person stated it."""
        self._check_replaceable(old)
        new = replace(new, tier=tiers.tier_for(type=new.type, pinned=new.pinned,
                                               exchange_ids=new.exchange_ids, current=old.tier
                                               if old.tier is not Tier.ARCHIVE else None))
        state = await self.archive.upsert(new.user_id, [new], vector[None, :])
        entity_ids = await self._entity_ids(new.user_id, new.text, ())
        async with self.graph.transaction() as tx:
            await tx.create_fact(replace(new, needs_index=True), entity_ids)
            faults.checkpoint("supersede:created")
            old_stored, new_stored = await tx.supersede(old.user_id, old.id, new.id)
            await tx.update_fact(old.user_id, old.id, needs_index=True)
            if proposal_id is not None:
                await tx.set_proposal_status(old.user_id, proposal_id, "approved")
        old_state = await self.archive.upsert(old.user_id, [old_stored])
        if state is not ArchiveState.PENDING:
            new_stored = await self.graph.update_fact(new.user_id, new.id, needs_index=False)
        if old_state is not ArchiveState.PENDING:
            old_stored = await self.graph.update_fact(old.user_id, old.id, needs_index=False)
        final_state = ArchiveState.PENDING if ArchiveState.PENDING in (state, old_state) else state
        return WriteResult(
            WriteStatus.SUPERSEDED, new_stored, similar_to=old, similarity=score,
            replaced=old_stored, archive=final_state, archive_problem=self._problem(final_state),
        )

    # -- batch ---------------------------------------------------------------------------------

    async def remember_many(self, user_id: str, items: Sequence[MemoryItem]) -> list[WriteResult]:
        """Import many records at once: one embedding batch, one graph statement.

        Applies the length limit (an over-long item is ``skipped``, the batch goes on), the
        quarantine, exact-repeat dedupe (within the batch and against the person's active
        records: a repeat confirms) and number changes by words alone (against the active
        records and earlier items, in date order: ``proposed``, the text waits in a
        supersession proposal; ``batch_changes``). It skips the embedding near-duplicate and
        contradiction checks (a replay of thousands of turns; ``wave maintain`` finds
        near-duplicate clusters and proposes merges afterwards).
        """
        results: list[WriteResult | None] = [None] * len(items)
        async with self._lock(user_id):
            existing = {similarity.normalise(f.text): f
                        for f in await self.graph.list_facts(user_id, statuses=(Status.ACTIVE,))}
            fresh: dict[str, int] = {}
            new_facts: list[Fact] = []
            positions: list[int] = []
            for i, item in enumerate(items):
                try:
                    cleaned = check_text(item.text)
                except WriteRejected as exc:
                    results[i] = WriteResult(WriteStatus.SKIPPED, reason=str(exc))
                    continue
                key = similarity.normalise(cleaned)
                if key in existing:
                    results[i] = await self._confirm(existing[key], self._item_fact(
                        user_id, item, cleaned), 1.0)
                    existing[key] = results[i].fact  # type: ignore[union-attr,assignment]
                    continue
                if key in fresh:
                    first = new_facts[fresh[key]]
                    new_facts[fresh[key]] = replace(
                        first, mention_count=first.mention_count + 1,
                        exchange_ids=first.exchange_ids + tuple(
                            e for e in (item.exchange_id,) if e and e not in first.exchange_ids),
                        source_message_ids=first.source_message_ids + tuple(
                            m for m in item.source_message_ids
                            if m not in first.source_message_ids))
                    merged = new_facts[fresh[key]]
                    if merged.status is Status.ACTIVE:
                        new_facts[fresh[key]] = replace(merged, tier=tiers.tier_for(
                            type=merged.type, pinned=False, exchange_ids=merged.exchange_ids))
                    positions.append(i)
                    continue
                fact = self._item_fact(user_id, item, cleaned)
                fresh[key] = len(new_facts)
                new_facts.append(fact)
                positions.append(i)
            # same words, other numbers, against the records in force and earlier items of
            # this import (in date order): proposals, never a silent second value
            changes = {similarity.normalise(c.new.text): c for c in batch_changes.number_changes(
                list(existing.values()), new_facts)} if new_facts else {}
            new_facts = [f for f in new_facts if similarity.normalise(f.text) not in changes]
            if new_facts:
                vectors = await self.archive.embedder.embed([f.text for f in new_facts])
                state = await self.archive.upsert(user_id, new_facts, vectors)
                pending = state is ArchiveState.PENDING
                new_facts = [replace(f, needs_index=pending) for f in new_facts]
                about = {f.id: ids for f in new_facts if (ids := await self._relatives(f))}
                await self.graph.create_facts(new_facts, about)
                by_key = {similarity.normalise(f.text): f for f in new_facts}
                seen: set[str] = set()
                for i in positions:
                    key = similarity.normalise(items[i].text)
                    if key in changes:
                        continue
                    fact = by_key[key]
                    status = (WriteStatus.QUARANTINED if fact.status is Status.QUARANTINED
                              else WriteStatus.CREATED if key not in seen
                              else WriteStatus.CONFIRMED)
                    seen.add(key)
                    results[i] = WriteResult(status, fact, archive=state,
                                             archive_problem=self._problem(state))
            if changes:
                for i, proposed in (await self._propose_many(
                        user_id, items, positions, changes)).items():
                    results[i] = proposed
        return [r for r in results if r is not None]

    def _item_fact(self, user_id: str, item: MemoryItem, cleaned: str) -> Fact:
        when = item.created_at or utcnow()
        suspicion = None if item.released_reason else quarantine.detect(cleaned)
        kind = FactType(item.type) if item.type is not None else guess_type(cleaned)
        exchanges = (item.exchange_id,) if item.exchange_id else ()
        return Fact(
            id=new_id("f"), user_id=user_id, text=cleaned, type=kind,
            tier=Tier.OBSERVATION,
            status=Status.QUARANTINED if suspicion else Status.ACTIVE,
            veracity=Veracity(item.veracity),
            confidence=tiers.initial_confidence(Veracity(item.veracity)),
            created_at=when, last_confirmed_at=when, speaker=item.speaker,
            source_message_ids=tuple(item.source_message_ids), exchange_ids=exchanges,
            episode_date=item.episode_date, valid_until=item.valid_until or (
                when + STATE_LIFETIME if kind is FactType.STATE else None),
            quarantine_reason=suspicion.reason if suspicion else item.released_reason,
        )

    # -- shared helpers --------------------------------------------------------------------------

    async def _relatives(self, fact: Fact) -> list[str]:
        """The person's relatives the record names with their role ("Сыну Игорю девять лет"):
        each a person entity carrying the role as an alias, so recall reads "что я обещал
        сыну?" as a question about Igor too (``graph.kin``). A held record teaches nothing:
        an injected "my son is X" must not rewire who the son is."""
        if fact.status is not Status.ACTIVE:
            return []
        ids: list[str] = []
        for relative in kin.relatives(fact.text):
            entity = await self.graph.resolve_entity(fact.user_id, relative.name, EntityType.PERSON)
            if relative.alias not in entity.aliases:
                entity = await self.graph.add_aliases(fact.user_id, entity.id, [relative.alias])
            if entity.id not in ids:
                ids.append(entity.id)
        return ids

    async def _entity_ids(
        self, user_id: str, text: str, entities: Sequence[tuple[str, EntityType]]
    ) -> list[str]:
        """Given entities (resolved or created) and the person's known ones named in the text."""
        ids: list[str] = []
        for name, kind in entities:
            entity = await self.graph.resolve_entity(user_id, name, kind)
            if entity is not None and entity.id not in ids:
                ids.append(entity.id)
        for entity in await self.graph.entities_in_text(user_id, text):
            if entity.id not in ids:
                ids.append(entity.id)
        return ids

    def _problem(self, state: ArchiveState) -> str | None:
        return self.archive.problem if state is ArchiveState.PENDING else None

    async def _fact(self, user_id: str, fact_id: str) -> Fact:
        fact = await self.graph.get_fact(user_id, fact_id)
        if fact is None:
            raise UnknownRecord(user_id, fact_id)
        return fact

    async def _update(self, fact: Fact, **fields: Any) -> WriteResult:
        """Change a record in the graph and re-send it to the archive (flag until it lands)."""
        updated = await self.graph.update_fact(fact.user_id, fact.id, needs_index=True, **fields)
        return await self._reindex(updated)

    async def _reindex(self, updated: Fact) -> WriteResult:
        """Send a record flagged ``needs_index`` to the archive; clear the flag once it lands."""
        fact = updated
        state = await self.archive.upsert(fact.user_id, [updated])
        if state is not ArchiveState.PENDING:
            updated = await self.graph.update_fact(fact.user_id, fact.id, needs_index=False)
        return WriteResult(WriteStatus.UNCHANGED, updated, archive=state,
                           archive_problem=self._problem(state))

    @staticmethod
    def change_marker(text: str) -> str | None:
        """"теперь", "now", "no longer"...: callers may pass ``explicit_supersede`` on these."""
        return numbers.has_change_marker(text)
