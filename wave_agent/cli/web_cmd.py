"""``wave web``: the memory page for one person, on 127.0.0.1 by default.

It prints a login link (valid for 24 hours); open it in a browser on the same machine.
"""

from __future__ import annotations

import typer

from wave_agent.cli import app
from wave_agent.cli.common import USER_OPTION, run, settings, user_or_default


@app.command("web")
def web_command(
    host: str | None = typer.Option(None, "--host", help="Address (default WEB_HOST, 127.0.0.1)."),
    port: int | None = typer.Option(None, "--port", min=1, max=65535,
                                    help="Port (default WEB_PORT, 8766)."),
    user: str | None = USER_OPTION,
) -> None:
    """See and manage what Wave remembers, in a browser."""
    from wave_agent.web.serve import check_address

    loaded = settings()
    bind = host or loaded.web_host
    check_address(loaded, bind)  # before any store opens
    run(_serve(loaded, bind, port or loaded.web_port, user_or_default(user)))


async def _serve(loaded: object, host: str, port: int, user_id: str) -> None:
    from wave_agent.services import Services
    from wave_agent.settings import Settings
    from wave_agent.web.serve import serve

    assert isinstance(loaded, Settings)
    async with Services(loaded, autostart_neo4j=True) as services:
        await services.graph()  # fail early, in one line, when the graph cannot be reached
        await serve(services, host, port, user_id=user_id,
                    announce=lambda line: typer.echo(line, err=True))
