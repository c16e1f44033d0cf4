"""Generalisation and merge proposals (seed 002, "Обобщение: три наблюдения об одном").

Observations that say the same thing in other words form a group (``maintenance.groups``):
- three or more, said at three or more moments (records within ``GLITCH_WINDOW`` of each
  other are one moment: three writes in one minute are a write glitch, not three
  confirmations) -> a GENERALISE proposal: one ``fact`` in the group's best wording;
- otherwise (two records, or a glitch) -> a MERGE proposal: one thought written twice.
Only proposals: the person approves (``wave approve``) and the writer does the rest. A group
already covered by a pending proposal, or rejected as it is, is not proposed again.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import timedelta

from graph.models import Fact, Proposal, ProposalKind, ProposalStatus, Tier
from wave_agent.ops.maintenance import groups
from wave_agent.ops.maintenance.base import JobContext, each_graph_user
from wave_agent.ops.maintenance.report import Action, JobReport

GLITCH_WINDOW = timedelta(minutes=1)
GENERALISE_MIN_RECORDS = 3
KINDS = (ProposalKind.GENERALISE, ProposalKind.MERGE)


def moments(group: Sequence[Fact]) -> int:
    """How many separate moments the records were written at (a minute apart or more)."""
    times = sorted(f.created_at for f in group)
    count, last = 0, None
    for when in times:
        if last is None or when - last >= GLITCH_WINDOW:
            count += 1
            last = when
    return count


def kind_for(group: Sequence[Fact]) -> ProposalKind:
    if len(group) >= GENERALISE_MIN_RECORDS and moments(group) >= GENERALISE_MIN_RECORDS:
        return ProposalKind.GENERALISE
    return ProposalKind.MERGE


def already_proposed(group: Sequence[Fact], existing: Sequence[Proposal]) -> Proposal | None:
    ids = {f.id for f in group}
    for p in existing:
        if p.kind not in KINDS:
            continue
        targets = set(p.target_ids)
        if p.status is ProposalStatus.PENDING and targets & ids:
            return p
        if p.status is ProposalStatus.REJECTED and targets == ids:
            return p
    return None


class Generalise:
    name = "generalise"
    description = "propose one fact for 3+ paraphrased observations over time; merging for 2"

    async def run(self, ctx: JobContext, report: JobReport) -> None:
        async def work(user_id: str) -> None:
            graph = await ctx.stores.graph()
            sims = await ctx.similarities(user_id)
            pairs = [p for p in sims.paraphrase_pairs()
                     if p.a.tier is Tier.OBSERVATION and p.b.tier is Tier.OBSERVATION]
            found = groups.components(pairs)
            if not found:
                return
            existing = await graph.list_proposals(user_id, status=None)
            writer = None if ctx.dry_run else await ctx.stores.writer()
            for group in found:
                kind = kind_for(group)
                ids = tuple(f.id for f in group)
                covered = already_proposed(group, existing)
                if covered is not None:
                    report.add(Action("already-proposed", user_id, ids,
                                      f"{covered.kind.value} {covered.id} ({covered.status.value})"))
                    continue
                best = groups.medoid(pairs, group)
                score = groups.best_score(pairs, group)
                span = (group[-1].created_at - group[0].created_at).days
                if kind is ProposalKind.GENERALISE:
                    reason = (f"{len(group)} observations say the same thing over {span} days "
                              f"({moments(group)} separate times): keep it as one fact?")
                    text: str | None = best.text
                else:
                    reason = (f"{len(group)} records look like one thought written "
                              f"{'twice' if len(group) == 2 else 'at once'}: merge them?")
                    text = None
                action = report.add(Action(f"proposed-{kind.value}", user_id, ids, reason))
                if writer is not None:
                    proposal = await writer.propose(user_id, kind, ids, reason, text=text,
                                                    similarity=score)
                    existing.append(proposal)
                    action.detail = f"{proposal.id}: {reason}"
                    action.applied = True

        await each_graph_user(ctx, report, work)
