"""The person decides what waits for them: approve or reject a proposal or a quarantined record.

One path for every surface that offers the decision (the bot's /proposals buttons, the memory
page's waiting list, `wave approve` / `wave reject`). Approving a DELETE proposal is an erasure:
the eraser takes each record it names from every layer (graph, archive, day log, snapshots,
core blocks, session log, outbox), exactly as `wave delete` does. Everything else is the
writer's (supersede, merge, generalise, demote, release from quarantine, decline).

The writer does not call the eraser: the eraser is built on the writer (it deletes the record
from the graph and archive through it), so the decision that needs both is made here, above
them, and the writer refuses a DELETE proposal rather than erase only part of the record.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

from graph.models import ProposalKind

if TYPE_CHECKING:
    from wave_agent.ops.erasure import Eraser
    from wave_agent.write.result import WriteResult
    from wave_agent.write.writer import Writer


async def decide(
    writer: Writer, eraser: Callable[[], Awaitable[Eraser]], user_id: str, record_id: str,
    *, approve: bool,
) -> WriteResult:
    """Carry out (``approve``) or decline the proposal ``p-…`` or quarantined record ``f-…``.

    ``eraser`` builds the eraser (``Services.eraser``); it is opened only for a deletion."""
    record_id = record_id.strip()
    if not approve:
        return await writer.reject(user_id, record_id)
    if record_id.startswith("p-"):
        proposal = await writer.pending_proposal(user_id, record_id)
        if proposal.kind is ProposalKind.DELETE:
            return await (await eraser()).approve_deletion(user_id, record_id)
    return await writer.approve(user_id, record_id)


__all__ = ["decide"]
