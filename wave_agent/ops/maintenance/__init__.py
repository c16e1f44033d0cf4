"""Memory maintenance (DESIGN section 6): one job a file under ``jobs/``, run once by
``wave maintain`` or on schedule inside ``wave run`` (``start_scheduler``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from wave_agent.ops.stores import OpsStores

__all__ = ["run_maintenance", "start_scheduler"]


async def start_scheduler(stores: OpsStores) -> Any:
    """The apscheduler ``AsyncIOScheduler`` running the jobs (``wave run`` calls this)."""
    from wave_agent.ops.maintenance.scheduler import start_scheduler as start

    return await start(stores)


async def run_maintenance(stores: OpsStores, **kwargs: Any) -> Any:
    from wave_agent.ops.maintenance.runner import run_maintenance as run

    return await run(stores, **kwargs)
