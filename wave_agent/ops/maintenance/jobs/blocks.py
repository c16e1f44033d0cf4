"""Apply core-block updates queued while Letta was down.

``LettaBlockStore.set`` keeps an update it could not send in ``letta_pending.sqlite3`` under
DATA_DIR; the next operation on that block applies it, but a block nobody touches again would
keep it forever. This job lands them (``flush_pending``), one action per user and block. A
markdown block store has no queue: nothing to do. Letta still down is an error in the report;
the updates stay queued for the next run. ``queued_block_updates`` is what the health report
reads too.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from datetime import datetime
from typing import TYPE_CHECKING, Protocol, runtime_checkable

from wave_agent.ops.maintenance.report import Action, JobReport

if TYPE_CHECKING:
    from wave_agent.blocks.store import Block, BlockStore
    from wave_agent.ops.maintenance.base import JobContext

log = logging.getLogger("wave.maintenance")


class QueuedUpdate(Protocol):
    """One update waiting in the Letta store's queue."""

    @property
    def id(self) -> int: ...
    @property
    def user_id(self) -> str: ...
    @property
    def label(self) -> str: ...
    @property
    def queued_at(self) -> datetime: ...


@runtime_checkable
class QueuedBlockStore(Protocol):
    """A block store that queues updates while its server is down (``LettaBlockStore``)."""

    async def pending_updates(self) -> Sequence[QueuedUpdate]: ...

    async def flush_pending(self) -> int: ...

    async def get(self, user_id: str, label: str) -> Block: ...


async def queued_block_updates(
    store: BlockStore, user_ids: tuple[str, ...] | None = None
) -> list[QueuedUpdate] | None:
    """The core-block updates waiting for Letta, oldest first (only ``user_ids`` when given);
    None when the block store keeps no queue (markdown blocks). Opens no connection."""
    if not isinstance(store, QueuedBlockStore):
        return None
    return await _waiting(store, user_ids)


async def _waiting(
    store: QueuedBlockStore, user_ids: tuple[str, ...] | None
) -> list[QueuedUpdate]:
    return [u for u in await store.pending_updates() if user_ids is None or u.user_id in user_ids]


class Blocks:
    name = "blocks"
    description = "apply core-block updates queued while Letta was down"

    async def run(self, ctx: JobContext, report: JobReport) -> None:
        store = await ctx.stores.blocks()
        if not isinstance(store, QueuedBlockStore):
            return
        waiting = await _waiting(store, ctx.user_ids)
        if not waiting:
            return
        groups: dict[tuple[str, str], list[QueuedUpdate]] = {}
        for update in waiting:
            groups.setdefault((update.user_id, update.label), []).append(update)
        report.users.extend(dict.fromkeys(user for user, _ in groups))
        actions = {
            key: report.add(Action(
                "block-update", key[0], (key[1],),
                f"{len(ups)} update(s) queued since {ups[0].queued_at:%Y-%m-%d %H:%M} UTC"))
            for key, ups in groups.items()
        }
        if ctx.dry_run:
            return
        if ctx.user_ids is None:
            try:
                await store.flush_pending()
            except Exception as exc:  # Letta still down or refusing: kept, retried next run
                log.warning("maintenance blocks: queued updates not applied (retried next "
                            "run): %s", exc)
                report.fail(None, exc)
        else:
            for user_id, label in groups:
                try:
                    await store.get(user_id, label)  # applies this block's queue first
                except Exception as exc:
                    log.warning("maintenance blocks for %s: queued %s update not applied "
                                "(retried next run): %s", user_id, label, exc)
                    report.fail(user_id, exc)
        left = {u.id for u in await store.pending_updates()}
        for key, action in actions.items():
            action.applied = not any(u.id in left for u in groups[key])
