"""The one write path for facts (DESIGN section 4): limits, quarantine, near-duplicates,
supersession, conflicts, tiers, the archive kept in step, and every later move on a record
(forget/restore, pin, approve/reject, delete, maintenance's reversible moves).

Why one class in one file of this size: every change to a person's facts takes the person's
lock, writes the graph and then the archive in the same order, flags what the archive missed,
and announces the change (``MemoryChanges``); keeping the moves together keeps that sequence
in one place, and ``tests/unit/test_single_writer.py`` checks that no other module writes a
fact. What does not share that sequence lives beside it: the checks on a text before any store
(``checks``), the entities a record is linked to (``entities``), the archive's side
(``archive_sync``), what a write returns (``result``). Erasing a record from every layer is the
eraser's (``wave_agent.ops.erasure``), which calls ``delete`` here for the graph and archive.

What the agent may do by itself is reversible (confirm a repetition, promote, archive a stale
observation); what would lose knowledge is proposed to the person (supersession it was not
told, deletion). Every refusal names the working next step.
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Awaitable, Callable, Sequence
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass, replace
from datetime import datetime
from typing import TYPE_CHECKING, Any, Concatenate, ParamSpec, TypeVar

import numpy as np

from graph.models import (
    MAX_FACT_CHARS,
    MAX_TEXT_CHARS,
    Conflict,
    EntityType,
    Fact,
    FactType,
    Proposal,
    ProposalKind,
    ProposalStatus,
    Status,
    Tier,
    Veracity,
    new_id,
)
from wave_agent.infra import clock, faults
from wave_agent.infra.person_lock import PersonLocks
from wave_agent.policy import batch_changes, calibration, numbers, quarantine, similarity, tiers
from wave_agent.policy import judge as judging
from wave_agent.policy.edge_input import pieces
from wave_agent.policy.lifetimes import STATE_LIFETIME
from wave_agent.policy.quarantine import meaning
from wave_agent.policy.types import guess_type
from wave_agent.world.attributes import Value
from wave_agent.write import attributes, unread_old
from wave_agent.write.archive_sync import ArchiveSync
from wave_agent.write.checks import check_record_text, check_supersede_target, check_text
from wave_agent.write.entities import EntityLinks
from wave_agent.write.events import ChangeKind, MemoryChanges
from wave_agent.write.result import (
    ArchiveState,
    UnknownRecord,
    WriteRejected,
    WriteResult,
    WriteStatus,
)

if TYPE_CHECKING:
    from graph.store import GraphStore, GraphTransaction
    from wave_agent.write.block_lines import BlockLines

log = logging.getLogger("wave.writer")

CANDIDATES = 8  # nearest active records (each voice) compared with a new text

__all__ = ["MemoryItem", "UnknownRecord", "WriteRejected", "WriteResult", "WriteStatus", "Writer",
           "check_record_text", "check_supersede_target", "check_text"]

P = ParamSpec("P")
R = TypeVar("R")
W = TypeVar("W", bound="Writer")


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
    part_of: str | None = None  # a piece of a long text: the whole's id, place, count (Fact)
    part: int = 0
    parts: int = 0


def locked(
    method: Callable[Concatenate[W, str, P], Awaitable[R]],
) -> Callable[Concatenate[W, str, P], Awaitable[R]]:
    """Run a writer method holding the person's lock (``Writer.hold``: across processes)."""
    @functools.wraps(method)
    async def run(self: W, user_id: str, /, *args: P.args, **kwargs: P.kwargs) -> R:
        async with self.hold(user_id):
            return await method(self, user_id, *args, **kwargs)
    return run


class Writer:
    """Writes a person's facts to the graph and the archive. One per process (``Services``)."""

    def __init__(
        self, graph: GraphStore, archive: ArchiveSync, *, locks: PersonLocks | None = None,
        changes: MemoryChanges | None = None, blocks: BlockLines | None = None,
    ) -> None:
        self.graph = graph
        self.archive = archive
        self.entities = EntityLinks(graph)
        # Every change is announced here; ``Services`` passes the process's one board, a bare
        # writer (tests, benchmarks) gets its own that nobody listens to.
        self.changes = changes if changes is not None else MemoryChanges()
        # One writer per person at a time: in this process, and across processes when
        # ``Services`` gives a lock directory (DATA_DIR/locks). Re-entrant within a task.
        self._locks = locks if locks is not None else PersonLocks()
        # The core block's lines follow every supersession (``write.block_lines``); a bare
        # writer (tests, benchmarks of the graph alone) has no block to keep in step.
        self.blocks = blocks

    def hold(self, user_id: str) -> AbstractAsyncContextManager[None]:
        """The person's write lock (re-entrant within a task): the eraser holds it while it
        carries out an approved deletion, so no other write sees it half done."""
        return self._locks.hold(user_id)

    def _announce(self, user_id: str, kind: ChangeKind, result: WriteResult) -> WriteResult:
        """Tell the process what changed (unless nothing did) and hand the result back."""
        if result.status not in (WriteStatus.UNCHANGED, WriteStatus.SKIPPED):
            ids = (result.id, result.replaced.id if result.replaced else None,
                   result.proposal.id if result.proposal else None)
            self.changes.announce(user_id, kind, ids)
        return result

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
        held_with: str | None = None,
        attributes: Sequence[str] = (),
        _part: tuple[str, int, int] | None = None,
    ) -> WriteResult:
        """Store ``text`` for ``user_id`` unless it repeats, changes or contradicts a record.

        Statuses: ``created``, ``confirmed`` (a near-duplicate: the existing record gains a
        mention), ``proposed`` (same words, other numbers: a supersession proposal; the new
        text waits in the proposal), ``quarantined`` (instruction-like), ``superseded`` (the
        caller said the change outright: ``explicit_supersede=True``).
        A ``state`` without ``valid_until`` gets one (STATE_LIFETIME): it must expire.

        A text longer than one record (``MAX_FACT_CHARS``) is stored as pieces said at the
        same moment, each pointing back to the whole (``Fact.part_of``) and placed on its own
        (a piece may confirm a record or be quarantined); the result is the first piece's,
        with every piece's id and status in ``extra["pieces"]``.
        ``held_with``: the quarantine reason of the message ``text`` came in; a part of a
        message that reads as an instruction waits with it, whatever the part reads like.
        ``attributes``: values a model read (``entity|attribute|value|op``); they stand for
        their attributes, the offline reader fills the rest.
        """
        cleaned = check_text(text)
        cut = pieces(cleaned, MAX_FACT_CHARS)
        if len(cut) > 1:
            whole = new_id("w")
            results = []
            async with self.hold(user_id):
                for n, piece in enumerate(cut, 1):
                    results.append(await self.remember(
                        user_id, piece, type=type, veracity=veracity, pin=pin,
                        source_message_ids=source_message_ids, exchange_id=exchange_id,
                        created_at=created_at, speaker=speaker, entities=entities,
                        explicit_supersede=explicit_supersede, episode_date=episode_date,
                        valid_until=valid_until, held_with=held_with, attributes=attributes,
                        _part=(whole, n, len(cut))))
            return self._whole(results)
        kind = FactType(type) if type is not None else guess_type(cleaned)
        now = clock.now()
        whole_id, part, parts = _part or (None, 0, 0)
        fact = Fact(
            id=new_id("f"), user_id=user_id, text=cleaned, type=kind, tier=Tier.OBSERVATION,
            status=Status.ACTIVE, veracity=Veracity(veracity),
            confidence=tiers.initial_confidence(Veracity(veracity)),
            created_at=created_at or now, last_confirmed_at=created_at or now,
            source_message_ids=tuple(source_message_ids), speaker=speaker, pinned=pin,
            exchange_ids=(exchange_id,) if exchange_id else (), episode_date=episode_date,
            valid_until=valid_until or (
                (created_at or now) + STATE_LIFETIME if kind is FactType.STATE else None),
            part_of=whole_id, part=part, parts=parts,
        )
        fact = replace(fact, tier=tiers.tier_for(type=kind, pinned=pin,
                                                 exchange_ids=fact.exchange_ids))
        async with self.hold(user_id):
            result = await self._place(fact, entities, explicit_supersede=explicit_supersede,
                                       held_with=held_with, given=attributes)
        return self._announce(user_id, ChangeKind.REMEMBERED, result)

    @staticmethod
    def _whole(results: Sequence[WriteResult]) -> WriteResult:
        """The result of a text stored in pieces: the first piece's, listing every piece."""
        listed = [{"id": r.id or (r.proposal.id if r.proposal else None),
                   "status": r.status.value} for r in results]
        first = results[0]
        return replace(first, extra={**first.extra, "pieces": listed})

    async def _place(
        self, fact: Fact, entities: Sequence[tuple[str, EntityType]], *, explicit_supersede: bool,
        held_with: str | None = None, given: Sequence[str] = (),
    ) -> WriteResult:
        """Where a new text goes among the person's records (the caller holds the lock)."""
        user_id, cleaned = fact.user_id, fact.text
        vector = (await self.archive.embedder.embed([cleaned]))[0]
        suspicion = quarantine.detect(cleaned, vector=self._readable(vector),  # the meaning layer reads it
                                      undone_vector=await self._undone(cleaned))
        if suspicion is not None:
            return await self._quarantine(fact, suspicion.reason, entities, vector)
        if held_with is not None:
            return await self._quarantine(fact, held_with, entities, vector)
        stating = await self.graph.attribute_facts(user_id)
        held = attributes.held_values(stating)
        values = attributes.given_first(given, await attributes.read(cleaned, held))
        if self._readable(vector) is not None and unread_old.MODEL_PATH.exists():
            # a phone said by its make with no verb of having ("Айфон 11 еле живой"), which the
            # rules do not read, held when the head is sure it is the person's device
            values = unread_old.with_device(cleaned, vector, values)
        if values:  # the attribute settles the type (its decay) and may change a held value
            fact = attributes.settled(fact, values,
                                      auto_until=fact.created_at + STATE_LIFETIME)
            fact = replace(fact, tier=tiers.tier_for(type=fact.type, pinned=fact.pinned,
                                                     exchange_ids=fact.exchange_ids))
            decision = attributes.decide(
                values, held, fact.id, attributes.held_values(stating, ops=("negate",)),
                changed=attributes.marks_change(cleaned), at=fact.created_at,
                birthday=attributes.says_birthday(cleaned),
                news=attributes.tells_news(cleaned), again=attributes.only_again(cleaned),
                found_out=attributes.finds_out(cleaned),
                past=await self._past_values(user_id, cleaned, values),
                ever=attributes.denies_ever(cleaned),
                ended=attributes.held_values(stating, ops=("remove",)),
                moved=attributes.tells_move(cleaned))
            await self._unread_olds(fact, vector, values, held, decision)
            if decision.acts:
                return await self._attributes(fact, vector, entities, decision)
        for candidate, cosine in await self._candidates(user_id, cleaned, vector):
            if fact.part_of is not None and candidate.part_of == fact.part_of:
                continue  # the pieces of one text are never copies or changes of each other
            verdict = await self._verdict(candidate, cleaned, cosine)
            if verdict is None:
                continue
            relation, score = verdict.relation, verdict.similarity
            if relation is judging.Relation.DUPLICATE:
                confirmed = await self._confirm(candidate, fact, score, pin=fact.pinned)
                if entities:
                    await self.graph.link_about(user_id, candidate.id, await self.entities.named(
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
                if attributes.about_other_things(values, candidate.attributes):
                    # "Мой брат не курит" beside "Курю полпачки в день": the two read as
                    # values of different attributes or holders, so neither denies the other
                    continue
                return await self._conflict(candidate, fact, vector, score, entities)
        return await self._create(fact, vector, entities)

    async def _past_values(self, user_id: str, text: str,
                           values: Sequence[Value]) -> list[attributes.Held]:
        """The values the person's replaced records held, read only when the new text denies
        one for the whole past (``attributes.denies_ever``): "никогда в жизни не курила"
        after "курю" was ended by "бросила" meets the ended record."""
        if not any(v.op == "negate" for v in values) or not attributes.denies_ever(text):
            return []
        return attributes.held_values(
            await self.graph.attribute_facts(user_id, statuses=(Status.SUPERSEDED,)))

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
        near = await self._nearby(user_id, text, vector)
        if not near:
            return []
        scored = [(f, float(v @ vector)) for f, v in near]
        cal = calibration.of(self.archive.embedder)
        scored.sort(key=lambda fc: judging.similarity_of(fc[0].text, text, fc[1], cal),
                    reverse=True)
        return scored

    async def _nearby(
        self, user_id: str, text: str, vector: np.ndarray
    ) -> list[tuple[Fact, np.ndarray]]:
        """The person's active records nearest to ``text`` (each voice's ``CANDIDATES``) with
        their vectors."""
        ids = [fid for fid, _ in await self.archive.search(user_id, vector, limit=CANDIDATES)]
        lexical = await self.graph.fulltext_search(user_id, text, limit=CANDIDATES)
        ids += [scored.fact.id for scored in lexical]
        facts = [f for f in await self.graph.get_facts(user_id, ids) if f.status is Status.ACTIVE]
        if not facts:
            return []
        vectors = await self.archive.embedder.embed([f.text for f in facts])
        return list(zip(facts, vectors, strict=True))

    async def _unread_olds(self, fact: Fact, vector: np.ndarray,
                           values: Sequence[Value], held: Sequence[attributes.Held],
                           decision: attributes.Decision) -> None:
        """A new value of the person's whose old value no record holds as read: the nearby
        earlier record the learned head is sure set that attribute is replaced
        (``write.unread_old``)."""
        if self._readable(vector) is None or not unread_old.MODEL_PATH.exists():
            return  # the head reads e5 vectors only
        todo = unread_old.wanted(values, {h.value.key for h in held})
        if not todo:
            return
        near = [(f, v) for f, v in await self._nearby(fact.user_id, fact.text, vector)
                if f.id not in {x.id for x in decision.replaces}
                and f.id not in {x.id for x, _ in decision.contradicts}]
        for value in todo:
            for old in unread_old.unread_olds(value, fact, near):
                attributes._change(decision, attributes.Held(old, replace(value, value="")),
                                   value, held)

    # -- the outcomes of remember --------------------------------------------------------------

    async def _create(
        self, fact: Fact, vector: np.ndarray | None,
        entities: Sequence[tuple[str, EntityType]] = (),
    ) -> WriteResult:
        """Archive first, then the graph; a failed archive leaves ``needs_index`` on the fact."""
        state = await self.archive.upsert(fact.user_id, [fact],
                                          None if vector is None else vector[None, :])
        stored = replace(fact, needs_index=state is ArchiveState.PENDING)
        world = (await self.entities.read([fact], [entities]))[fact.id]
        entity_ids = list(world.entity_ids)
        entity_ids += [e for e in await self.entities.named(fact.user_id, fact.text, (),
                                                            world.named_roles)
                       if e not in entity_ids]
        stored = await self.graph.create_fact(stored, entity_ids)
        await self.entities.relate(world.relations)
        status = WriteStatus.QUARANTINED if stored.status is Status.QUARANTINED else WriteStatus.CREATED
        return WriteResult(status, stored, archive=state, archive_problem=self._problem(state))

    async def _quarantine(
        self, fact: Fact, reason: str, entities: Sequence[tuple[str, EntityType]], vector: np.ndarray
    ) -> WriteResult:
        for same in await self.graph.list_facts(fact.user_id,
                                                statuses=(Status.QUARANTINED, Status.ACTIVE)):
            if similarity.normalise(same.text) == similarity.normalise(fact.text):
                if same.status is Status.ACTIVE:  # released by the person: stays released
                    return await self._confirm(same, fact, 1.0)
                return WriteResult(WriteStatus.QUARANTINED, same, reason=same.quarantine_reason)
        held = replace(fact, status=Status.QUARANTINED, tier=Tier.OBSERVATION, pinned=False,
                       quarantine_reason=reason)
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

    async def _attributes(
        self, fact: Fact, vector: np.ndarray, entities: Sequence[tuple[str, EntityType]],
        decision: attributes.Decision,
    ) -> WriteResult:
        """Carry out what a record's attribute values decided (``write.attributes.decide``):
        release changed values from records that keep others, replace the records whose value
        changed or ended (their relations ended with them), and raise a conflict for each held
        value the record denies. The caller holds the person's lock."""
        user_id = fact.user_id
        for fact_id, kept in decision.released.items():
            await self.graph.update_fact(user_id, fact_id, attributes=tuple(kept))
        if decision.replaces:
            fact = replace(fact, attributes=(*fact.attributes, *(
                v for v in decision.carried if v not in fact.attributes)))
            first, *rest = decision.replaces
            result = await self._supersede_with(first, fact, vector, None)
            for old in rest:
                async with self.graph.transaction() as tx:
                    old_stored, new_stored = await tx.supersede(user_id, old.id, fact.id)
                await self.archive.upsert(user_id, [old_stored])
                if self.blocks is not None:
                    await self.blocks.replaced(old_stored, new_stored)
            for old in decision.replaces:
                await self.graph.end_relations_of(user_id, old.id, fact.id)
        else:
            result = await self._create(fact, vector, entities)
        assert result.fact is not None
        for old, value in decision.contradicts:
            denied = "any" if value.value == attributes.ANY else f"\"{value.value}\""
            conflict = await self.graph.create_conflict(Conflict(
                id=new_id("c"), user_id=user_id, fact_ids=(old.id, result.fact.id),
                against_past=old.status is not Status.ACTIVE,
                subject=f"{value.entity} {value.attribute}: {value.value}"[:200],
                # the new record holds the value ("вышла покурить") against an ending or a
                # denial, or denies it against a record that holds it
                reason=(f"#{result.fact.id} (\"{result.fact.text[:80]}\") says {value.attribute} "
                        f"{denied} {'holds' if value.op in ('set', 'add') else 'does not hold'}; "
                        f"#{old.id} (\"{old.text[:80]}\") says "
                        f"{'it does not' if value.op in ('set', 'add') else 'it does'}: "
                        "which is true?"),
            ))
            log.warning("conflict %s for user %s: %s", conflict.id, user_id, conflict.reason)
            result = replace(result, conflict=conflict, similar_to=old, reason=conflict.reason)
        return replace(result, extra={**result.extra, "attributes": list(fact.attributes),
                                      "changes": decision.changes})

    # -- supersession --------------------------------------------------------------------------

    async def supersede(
        self, user_id: str, old_id: str | None, text: str, *,
        type: FactType | None = None, exchange_id: str | None = None,
    ) -> WriteResult:
        """The person says outright that ``text`` replaces record ``old_id``."""
        old_id = check_supersede_target(old_id, text)
        old = await self._fact(user_id, old_id)
        cleaned = check_record_text(text)
        if similarity.normalise(cleaned) == similarity.normalise(old.text):
            raise WriteRejected(
                f"Cannot supersede #{old_id} by itself: the new text is the same as the old one",
                next_step=f"give what changed: `wave supersede {old_id} \"new text\"`; to "
                          f"confirm it unchanged, `wave remember \"{old.text[:60]}\"`")
        self._check_replaceable(old)
        suspicion = quarantine.detect(
            cleaned, vector=self._readable((await self.archive.embedder.embed([cleaned]))[0]),
            undone_vector=await self._undone(cleaned))
        if suspicion is not None:
            raise WriteRejected(
                f"Cannot supersede #{old_id} with instruction-like text: {suspicion.reason}",
                next_step="`wave remember` it to have it quarantined for review, or reword it "
                          "as a statement about the person")
        now = clock.now()
        kind = FactType(type) if type is not None else old.type
        fact = Fact(
            id=new_id("f"), user_id=user_id, text=cleaned, type=kind,
            tier=Tier.OBSERVATION, status=Status.ACTIVE, veracity=Veracity.STATED,
            confidence=tiers.initial_confidence(Veracity.STATED), created_at=now,
            last_confirmed_at=now, pinned=old.pinned,
            exchange_ids=(exchange_id,) if exchange_id else (),
        )
        vector = (await self.archive.embedder.embed([cleaned]))[0]
        async with self.hold(user_id):
            old = await self._fact(user_id, old_id)  # as it is now that this writer holds it
            result = await self._supersede_with(old, await self._read_values(fact), vector, None)
        return self._announce(user_id, ChangeKind.SUPERSEDED, result)

    async def _read_values(self, fact: Fact) -> Fact:
        """``fact`` with the attribute values its text states, read against the held ones: a
        replacement the person approved or wrote by hand holds its value as a remembered one
        does, so the next change of it finds the record (and its core-block line)."""
        held = attributes.held_values(await self.graph.attribute_facts(fact.user_id))
        values = await attributes.read(fact.text, held)
        return replace(fact, attributes=tuple(v.encode() for v in values)) if values else fact

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
        world = (await self.entities.read([new]))[new.id]
        entity_ids = list(world.entity_ids)
        entity_ids += [e for e in await self.entities.named(new.user_id, new.text, (),
                                                            world.named_roles)
                       if e not in entity_ids]
        async with self.graph.transaction() as tx:
            await tx.create_fact(replace(new, needs_index=True), entity_ids)
            faults.checkpoint("supersede:created")
            old_stored, new_stored = await tx.supersede(old.user_id, old.id, new.id)
            await tx.update_fact(old.user_id, old.id, needs_index=True)
            if proposal_id is not None:
                await tx.set_proposal_status(old.user_id, proposal_id, "approved")
        await self.entities.relate(world.relations)  # a new "lives in" ends the old one
        old_state = await self.archive.upsert(old.user_id, [old_stored])
        if state is not ArchiveState.PENDING:
            new_stored = await self.graph.update_fact(new.user_id, new.id, needs_index=False)
        if old_state is not ArchiveState.PENDING:
            old_stored = await self.graph.update_fact(old.user_id, old.id, needs_index=False)
        final_state = ArchiveState.PENDING if ArchiveState.PENDING in (state, old_state) else state
        if self.blocks is not None:  # every path that replaces a record: its block line goes too
            await self.blocks.replaced(old_stored, new_stored)
        return WriteResult(
            WriteStatus.SUPERSEDED, new_stored, similar_to=old, similarity=score,
            replaced=old_stored, archive=final_state, archive_problem=self._problem(final_state),
        )

    # -- batch ---------------------------------------------------------------------------------

    async def remember_many(self, user_id: str, items: Sequence[MemoryItem]) -> list[WriteResult]:
        """Import many records at once: one embedding batch, one graph statement; one result
        per item. An item longer than one record is stored as pieces (as ``remember`` does):
        its result is the first piece's, with every piece in ``extra["pieces"]``.
        """
        flat: list[MemoryItem] = []
        owner: list[int] = []
        for i, item in enumerate(items):
            # past MAX_TEXT_CHARS the item stays whole, and check_text skips it below
            cut = pieces(item.text, MAX_FACT_CHARS) if len(
                item.text.strip()) <= MAX_TEXT_CHARS else [item.text]
            whole = new_id("w") if len(cut) > 1 else None
            for n, piece in enumerate(cut, 1):
                flat.append(replace(item, text=piece, part_of=whole, part=n if whole else 0,
                                    parts=len(cut) if whole else 0))
                owner.append(i)
        if len(flat) == len(items):
            return await self._remember_flat(user_id, flat)
        done = await self._remember_flat(user_id, flat)
        grouped: dict[int, list[WriteResult]] = {}
        for i, result in zip(owner, done, strict=True):
            grouped.setdefault(i, []).append(result)
        return [group[0] if len(group) == 1 else self._whole(group)
                for _, group in sorted(grouped.items())]

    async def _remember_flat(self, user_id: str, items: Sequence[MemoryItem]) -> list[WriteResult]:
        """``remember_many`` over items that each fit one record.

        Applies the length limit (an over-long item is ``skipped``, the batch goes on), the
        quarantine, exact-repeat dedupe (within the batch and against the person's active
        records: a repeat confirms) and number changes by words alone (against the active
        records and earlier items, in date order: ``proposed``, the text waits in a
        supersession proposal; ``batch_changes``). It skips the embedding near-duplicate and
        contradiction checks (a replay of thousands of turns; ``wave maintain`` finds
        near-duplicate clusters and proposes merges afterwards).
        """
        results: list[WriteResult | None] = [None] * len(items)
        async with self.hold(user_id):
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
            vectors = await self.archive.embedder.embed([f.text for f in new_facts]) if new_facts else None
            if vectors is not None:  # the meaning layer reads each text's vector
                new_facts = [self._judged(f, self._readable(v), await self._undone(f.text))
                             for f, v in zip(new_facts, vectors, strict=True)]
            changes = {similarity.normalise(c.new.text): c for c in batch_changes.number_changes(
                list(existing.values()), new_facts)} if new_facts else {}
            kept = [i for i, f in enumerate(new_facts) if similarity.normalise(f.text) not in changes]
            new_facts = [new_facts[i] for i in kept]
            if new_facts and vectors is not None:
                vectors = vectors[kept]
                state = await self.archive.upsert(user_id, new_facts, vectors)
                pending = state is ArchiveState.PENDING
                new_facts = [replace(f, needs_index=pending) for f in new_facts]
                world = await self.entities.read(new_facts)
                # the values each record states, so a later change or denial finds them
                # (an import itself compares numbers by words, above, not by attribute)
                new_facts = await attributes.with_values(new_facts)
                about = {fid: found.entity_ids for fid, found in world.items()
                         if found.entity_ids}
                await self.graph.create_facts(new_facts, about)
                await self.entities.relate([rel for found in world.values()
                                            for rel in found.relations])
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
        done = [r for r in results if r is not None]
        changed = [r.id or (r.proposal.id if r.proposal else None) for r in done
                   if r.status is not WriteStatus.SKIPPED]
        if changed:
            self.changes.announce(user_id, ChangeKind.IMPORTED, changed)
        return done

    def _readable(self, vector: np.ndarray) -> np.ndarray | None:
        """The vector for the quarantine's meaning layer: only the e5 vectors it was trained on."""
        return meaning.vector_for(self.archive.embedder.model_name, vector)

    async def _undone(self, text: str) -> np.ndarray | None:
        """The e5 vector of ``text`` with its disguise undone (spaced letters, leetspeak, …), for
        the meaning layer to read beside the text's own; None for an undisguised text."""
        return await quarantine.undone_vector(text, self.archive.embedder.embed, self.archive.embedder.model_name)

    @staticmethod
    def _judged(fact: Fact, vector: np.ndarray | None, undone_vector: np.ndarray | None = None) -> Fact:
        """``fact`` held in quarantine when its text with its vector reads as an instruction."""
        if fact.status is not Status.ACTIVE:
            return fact
        suspicion = quarantine.detect(fact.text, vector=vector, undone_vector=undone_vector)
        return fact if suspicion is None else replace(
            fact, status=Status.QUARANTINED, tier=Tier.OBSERVATION, pinned=False,
            quarantine_reason=suspicion.reason)

    def _item_fact(self, user_id: str, item: MemoryItem, cleaned: str) -> Fact:
        """The record an item becomes; the quarantine judges it once its vector is computed
        (``_judged``), and a file's word that a record was released is never trusted."""
        when = item.created_at or clock.now()
        kind = FactType(item.type) if item.type is not None else guess_type(cleaned)
        exchanges = (item.exchange_id,) if item.exchange_id else ()
        return Fact(
            id=new_id("f"), user_id=user_id, text=cleaned, type=kind,
            tier=Tier.OBSERVATION,
            status=Status.ACTIVE, veracity=Veracity(item.veracity),
            confidence=tiers.initial_confidence(Veracity(item.veracity)),
            created_at=when, last_confirmed_at=when, speaker=item.speaker,
            source_message_ids=tuple(item.source_message_ids), exchange_ids=exchanges,
            episode_date=item.episode_date, valid_until=item.valid_until or (
                when + STATE_LIFETIME if kind is FactType.STATE else None),
            part_of=item.part_of, part=item.part, parts=item.parts,
        )

    # -- shared helpers --------------------------------------------------------------------------

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


    async def _moved(self, outcome: WriteStatus, fact: Fact, /, reason: str | None = None,
                     **fields: Any) -> WriteResult:
        result = await self._update(fact, **fields)
        return self._announce(fact.user_id, ChangeKind(outcome.value),
                              replace(result, status=outcome, reason=reason))

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
                                 last_confirmed_at=clock.now())

    @locked
    async def delete(self, user_id: str, fact_id: str) -> WriteResult:
        """Erase a record from the graph AND the archive (only a person calls this)."""
        fact = await self._fact(user_id, fact_id)
        await self.graph.delete_fact(user_id, fact_id)
        state = await self.archive.delete(user_id, [fact_id])
        log.info("deleted fact %s of user %s (archive %s)", fact_id, user_id, state.value)
        return self._announce(user_id, ChangeKind.DELETED, WriteResult(
            WriteStatus.DELETED, fact, archive=state, archive_problem=self._problem(state)))

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
        self.changes.announce(user_id, ChangeKind.PERSON_ERASED)
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
                                 last_confirmed_at=clock.now())

    @locked
    async def approve(self, user_id: str, record_id: str) -> WriteResult:
        """Carry out a proposal (``p-…``), or release a quarantined record (``f-…``)."""
        if record_id.startswith("p-"):
            return self._announce(user_id, ChangeKind.APPROVED,
                                  await self._approve_proposal(user_id, record_id))
        fact = await self.graph.get_fact(user_id, record_id)
        if fact is None:
            raise UnknownRecord(user_id, record_id, kind="proposal or quarantined record")
        if fact.status is not Status.QUARANTINED:
            raise WriteRejected(
                f"Nothing to approve for #{record_id}: it is {fact.status.value}",
                next_step="`wave proposals` and `wave quarantine` list what waits for approval")
        return await self._moved(WriteStatus.APPROVED, fact, status=Status.ACTIVE,
                                 last_confirmed_at=clock.now(), reason=fact.quarantine_reason)

    @locked
    async def reject(self, user_id: str, record_id: str) -> WriteResult:
        """Decline a proposal, or archive a quarantined record (reversible; `wave delete` erases)."""
        if record_id.startswith("p-"):
            proposal = await self.pending_proposal(user_id, record_id)
            done = await self.graph.set_proposal_status(user_id, record_id, ProposalStatus.REJECTED)
            if done.text:  # a declined text is not kept; kind and targets stay
                await self.graph.clear_proposal_text(user_id, record_id)
                done = replace(done, text=None, reason="declined; its text was erased")
            return self._announce(user_id, ChangeKind.REJECTED, WriteResult(
                WriteStatus.REJECTED, proposal=done, reason=proposal.reason))
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
        proposal = await self.graph.create_proposal(Proposal(
            id=new_id("p"), user_id=user_id, kind=ProposalKind(kind),
            target_ids=tuple(target_ids), reason=reason, text=text, similarity=similarity))
        self.changes.announce(user_id, ChangeKind.PROPOSED, (proposal.id,))
        return proposal

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
    async def read_world(self, user_id: str, *, limit: int = 500) -> tuple[int, int, int]:
        """Read records written before entities were read from every record (maintenance's
        backfill): link them to what they name, relate what they state, in the order they
        were written (a later move ends an earlier "lives in"). Returns (records read,
        records linked, relations stated); the records are marked read either way."""
        facts = await self.graph.facts_unread(user_id, limit=limit)
        if not facts:
            return 0, 0, 0
        world = await self.entities.read(facts)
        linked = 0
        for fact in facts:
            ids = world[fact.id].entity_ids
            if ids:
                await self.graph.link_about(user_id, fact.id, ids)
                linked += 1
        relations = [rel for fact in facts for rel in world[fact.id].relations]
        await self.entities.relate(relations)
        await self.graph.mark_world_read(user_id, [f.id for f in facts])
        return len(facts), linked, len(relations)

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
        self.changes.announce(user_id, ChangeKind.REINDEXED, [f.id for f in flagged])
        return len(flagged)

    # -- proposals -------------------------------------------------------------------------------

    async def pending_proposal(self, user_id: str, proposal_id: str) -> Proposal:
        """The proposal, still waiting for the person; refused if unknown or decided."""
        proposal = await self.graph.get_proposal(user_id, proposal_id)
        if proposal is None:
            raise UnknownRecord(user_id, proposal_id, kind="proposal")
        if proposal.status is not ProposalStatus.PENDING:
            raise WriteRejected(f"Proposal {proposal_id} was already {proposal.status.value}",
                                next_step="`wave proposals` lists the pending ones")
        return proposal

    async def _approve_proposal(self, user_id: str, proposal_id: str) -> WriteResult:
        p = await self.pending_proposal(user_id, proposal_id)
        if p.kind is ProposalKind.DELETE:
            # the graph and the archive are not all that hold a record's words: erasure
            # (``Eraser.approve_deletion``) takes it from every layer, as `wave delete` does
            raise WriteRejected(
                f"Proposal {proposal_id} erases records, which erasure across every layer "
                "carries out, not the writer alone",
                next_step=f"`wave approve {proposal_id}` (or /proposals in the bot, or the "
                          "memory page's waiting list)")
        targets = [await self._fact(user_id, fid) for fid in p.target_ids]
        if p.kind is ProposalKind.SUPERSEDE:
            if not p.text or len(targets) != 1:
                raise WriteRejected(f"Proposal {proposal_id} has no replacement text",
                                    next_step=f"`wave reject {proposal_id}`")
            old = await self._in_force(targets[0])
            now = clock.now()
            new = Fact(id=new_id("f"), user_id=user_id, text=p.text, type=old.type,
                       tier=Tier.OBSERVATION, status=Status.ACTIVE, veracity=Veracity.STATED,
                       confidence=tiers.initial_confidence(Veracity.STATED), created_at=now,
                       last_confirmed_at=now, pinned=old.pinned)
            vector = (await self.archive.embedder.embed([p.text]))[0]
            new = await self._read_values(new)
            result = await self._supersede_with(old, new, vector, p.similarity,
                                                proposal_id=proposal_id)
            done = await self.graph.get_proposal(user_id, proposal_id)
            return replace(result, proposal=done, reason=p.reason)
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
            now = clock.now()
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
