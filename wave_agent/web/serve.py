"""Serving the memory page: alone (``wave web``) or beside the bot (``wave run`` with
``WEB_ENABLED``). Bound to 127.0.0.1 unless told otherwise; any other address needs
``WEB_SECRET``, so links and sessions are signed by a secret the operator chose.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from wave_agent.errors import ConfigError, WaveError
from wave_agent.policy.edge_input import is_loopback
from wave_agent.services import Services
from wave_agent.settings import Settings

log = logging.getLogger("wave.web")


def check_address(settings: Settings, host: str) -> None:
    if not is_loopback(host) and not settings.web_secret:
        raise ConfigError(
            "WEB_SECRET", f"not set, and the page would listen on {host}, beyond this machine",
            "set WEB_SECRET to a long random string (e.g. `openssl rand -hex 32`) in .env, or "
            "serve on 127.0.0.1 (the default) behind your own proxy")


def base_url(settings: Settings, host: str, port: int) -> str:
    return settings.web_public_url or f"http://{host}:{port}"


async def serve(services: Services, host: str, port: int, *,
                announce: Callable[[str], None] | None = None, user_id: str | None = None) -> None:
    """Serve until cancelled; ``announce`` gets a login link for ``user_id`` once listening."""
    import uvicorn

    from wave_agent.app.page_auth import login_url
    from wave_agent.web.app import build_app

    check_address(services.settings, host)
    app, web = build_app(services)
    config = uvicorn.Config(app, host=host, port=port, log_level="warning", lifespan="off")
    server = uvicorn.Server(config)
    if announce is not None and user_id is not None:
        link = login_url(base_url(services.settings, host, port), web.secret, user_id, once=False)
        announce(f"Wave's memory page for {user_id}: {link}")
    try:
        await server.serve()
    except (OSError, SystemExit) as exc:
        raise WaveError(f"the memory page cannot listen on {host}:{port} ({exc})",
                        next_step="choose another port with --port or WEB_PORT") from exc


#END
