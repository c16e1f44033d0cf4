"""Webhook mode (``TELEGRAM_MODE=webhook``): an aiohttp server Telegram posts updates to.

Wave listens on ``TELEGRAM_WEBHOOK_LISTEN`` (plain HTTP, behind your TLS-terminating proxy) at
the path of ``TELEGRAM_WEBHOOK_URL``, registers that URL with Telegram (``setWebhook``, with
``TELEGRAM_WEBHOOK_SECRET`` as the secret token Telegram sends back) and checks the secret on
every request. Shutdown (SIGINT/SIGTERM or ``stop``) drains the post-processor.

The secret is required (at least ``MIN_SECRET_CHARS`` characters): the allow-list trusts the
sender id inside each update, so without it anyone who can reach the listener could post an
update that poses as the owner. ``check_webhook_settings`` refuses before anything starts.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
from urllib.parse import urlparse

from aiogram.webhook.aiohttp_server import SimpleRequestHandler, setup_application
from aiohttp import web

from wave_agent.bot.app import build_bot, build_dispatcher
from wave_agent.bot.backend import BotBackend
from wave_agent.errors import ConfigError
from wave_agent.settings import Settings

log = logging.getLogger("wave.bot.webhook")


MIN_SECRET_CHARS = 16
MAKE_SECRET = "python3 -c 'import secrets; print(secrets.token_urlsafe(32))'"


def check_webhook_settings(settings: Settings) -> str:
    """The webhook URL; refuses one that is not public https, or a missing or short secret."""
    url = settings.telegram_webhook_url
    if not url or urlparse(url).scheme != "https":
        raise ConfigError(
            "TELEGRAM_WEBHOOK_URL", "webhook mode needs a public https:// URL",
            "set TELEGRAM_WEBHOOK_URL=https://your.host/wave-hook (proxied to "
            "TELEGRAM_WEBHOOK_LISTEN), or use TELEGRAM_MODE=polling",
        )
    secret = settings.telegram_webhook_secret
    if not secret or len(secret) < MIN_SECRET_CHARS:
        problem = ("not set" if not secret else f"only {len(secret)} characters") + (
            ": webhook mode needs it, or anyone reaching the listener could pose as you")
        raise ConfigError(
            "TELEGRAM_WEBHOOK_SECRET", problem,
            f"put at least {MIN_SECRET_CHARS} random letters, digits, _ or - there (make some "
            f"with `{MAKE_SECRET}`), or use TELEGRAM_MODE=polling",
        )
    return url


def _listen(settings: Settings) -> tuple[str, int]:
    host, _, port = settings.telegram_webhook_listen.rpartition(":")
    return host, int(port)


async def run_webhook(
    settings: Settings, backend: BotBackend, *, stop: asyncio.Event | None = None
) -> None:
    """Serve the webhook until ``stop`` is set (or SIGINT/SIGTERM when ``stop`` is None)."""
    url = check_webhook_settings(settings)
    bot = build_bot(settings)
    dispatcher = build_dispatcher(settings, backend)
    app = web.Application()
    # Shutdown hooks run in order: first the dispatcher's (turns in progress finish, the
    # post-processor drains), then the handler's (closes the bot session).
    setup_application(app, dispatcher, bot=bot)
    SimpleRequestHandler(
        dispatcher=dispatcher, bot=bot, secret_token=settings.telegram_webhook_secret
    ).register(app, path=urlparse(url).path or "/")

    runner = web.AppRunner(app, handle_signals=False, access_log=None)
    await runner.setup()
    host, port = _listen(settings)
    await web.TCPSite(runner, host, port).start()
    log.info("webhook listening on %s:%s for %s", host, port, url)

    own_stop = stop is None
    stop = stop or asyncio.Event()
    if own_stop:
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGINT, signal.SIGTERM):
            with contextlib.suppress(NotImplementedError):
                loop.add_signal_handler(sig, stop.set)
    try:
        await bot.set_webhook(
            url,
            secret_token=settings.telegram_webhook_secret,
            allowed_updates=dispatcher.resolve_used_update_types(),
        )
        await stop.wait()
    finally:
        await runner.cleanup()  # emits shutdown (drains the post-processor), closes the session
