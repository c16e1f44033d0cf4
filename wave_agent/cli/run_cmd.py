"""``wave run``: the Telegram bot (long polling, or webhook by setting) and maintenance.

Without ``TELEGRAM_BOT_TOKEN`` it says how to get one and points to ``wave chat``. With
``NEO4J_URI`` unset it starts the embedded Neo4j first. The maintenance scheduler runs beside
the bot when the maintenance package is installed; the post-processor is drained on exit.
"""

from __future__ import annotations

import importlib.util
import logging
from contextlib import AsyncExitStack
from typing import TYPE_CHECKING

from wave_agent.cli import app
from wave_agent.cli.common import run, settings
from wave_agent.errors import ConfigError

if TYPE_CHECKING:
    from wave_agent.services import Services
    from wave_agent.settings import Settings

log = logging.getLogger("wave.run")

NO_TOKEN_FIX = (
    "talk to @BotFather in Telegram (/newbot), put the token it gives you in .env as "
    "TELEGRAM_BOT_TOKEN=123456:ABC..., and your own numeric Telegram id in "
    "TELEGRAM_ALLOWED_USERS; meanwhile you can talk to Wave in this terminal with `wave chat`"
)


@app.command("run")
def run_command() -> None:
    """Run Wave on Telegram (needs TELEGRAM_BOT_TOKEN; try `wave chat` without one)."""
    loaded = settings()
    if not loaded.telegram_bot_token:
        raise ConfigError("TELEGRAM_BOT_TOKEN", "not set, so there is no bot to run", NO_TOKEN_FIX)
    if loaded.telegram_mode == "webhook":
        from wave_agent.bot.webhook import check_webhook_settings

        check_webhook_settings(loaded)  # before Neo4j or any store starts
    run(serve(loaded))


async def _start_maintenance(stack: AsyncExitStack, services: Services) -> None:
    """Start the scheduled maintenance jobs if the maintenance package is present."""
    if importlib.util.find_spec("wave_agent.ops.maintenance") is None:
        log.info("maintenance package not installed: no scheduled jobs")
        return
    from wave_agent.ops.maintenance import start_scheduler

    scheduler = await start_scheduler(services.ops_stores())
    stack.callback(scheduler.shutdown)


async def _start_web(stack: AsyncExitStack, services: Services, loaded: Settings) -> None:
    """The memory page beside the bot (WEB_ENABLED); links come from the bot's /web."""
    import asyncio

    from wave_agent.web.serve import check_address
    from wave_agent.web.serve import serve as serve_web

    check_address(loaded, loaded.web_host)
    task = asyncio.create_task(serve_web(services, loaded.web_host, loaded.web_port))
    log.info("memory page on http://%s:%s (ask the bot for /web)", loaded.web_host, loaded.web_port)

    async def stop() -> None:
        task.cancel()
        try:
            await task
        except (asyncio.CancelledError, Exception) as exc:
            if not isinstance(exc, asyncio.CancelledError):
                log.warning("the memory page stopped with an error: %s", exc)

    stack.push_async_callback(stop)


async def serve(loaded: Settings) -> None:
    """Open the services, start maintenance, and run the bot until a signal stops it."""
    from wave_agent.bot.services_backend import ServicesBackend
    from wave_agent.services import Services

    async with AsyncExitStack() as stack:
        services = await stack.enter_async_context(Services(loaded, autostart_neo4j=True))
        await services.graph()  # fail early (embedded Neo4j started here when NEO4J_URI is unset)
        backend = ServicesBackend(services)
        await backend.start()
        await _start_maintenance(stack, services)
        if loaded.web_enabled:
            await _start_web(stack, services, loaded)
        if loaded.telegram_mode == "webhook":
            from wave_agent.bot.webhook import run_webhook

            await run_webhook(loaded, backend)
        else:
            from wave_agent.bot.app import run_polling

            await run_polling(loaded, backend)
