"""``wave mcp``: Wave's memory as an MCP server, over stdio (default) or streamable HTTP.

Over stdio, stdout carries only the protocol: logs and notices go to stderr. Over HTTP the
server listens on loopback by default and every request needs a bearer token; on any other
address it refuses to start unless a token was made beforehand (``--new-token``).
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING

import typer

from wave_agent.cli import app
from wave_agent.cli.common import USER_OPTION, run, settings, user_or_default
from wave_agent.errors import ConfigError, WaveError

if TYPE_CHECKING:
    from wave_agent.services import Services
    from wave_agent.settings import Settings

log = logging.getLogger("wave.mcp")
WARM_UP_USER = "wave-warm-up"


@app.command("mcp")
def mcp_command(
    http: bool = typer.Option(False, "--http", help="Serve streamable HTTP instead of stdio."),
    host: str = typer.Option("127.0.0.1", "--host", help="HTTP address (loopback by default)."),
    port: int = typer.Option(8765, "--port", min=1, max=65535, help="HTTP port."),
    new_token: bool = typer.Option(False, "--new-token",
                                   help="Make a bearer token for --user, print it, and exit."),
    user: str | None = USER_OPTION,
) -> None:
    """Serve the person's memory to MCP clients (desktop, IDE and coding agents)."""
    from wave_agent.infra.tokens import TokenStore
    from wave_agent.policy.edge_input import is_loopback

    loaded = settings()
    tokens = TokenStore(loaded.data_dir / "mcp" / "tokens.json")
    if new_token:
        user_id = user_or_default(user)
        typer.echo(tokens.issue(user_id))
        typer.echo(f"token for {user_id}: send it as `Authorization: Bearer <token>`; it is "
                   "shown once (only its hash is kept)", err=True)
        return
    if not http:
        run(serve_stdio(loaded, user_or_default(user)))
        return
    if not tokens:
        if not is_loopback(host):
            raise ConfigError(
                "--host", f"{host} is not a loopback address and no MCP token exists",
                "make one first with `wave mcp --new-token --user ID`, then start again "
                "(or serve on 127.0.0.1)")
        token = tokens.issue(user_or_default(user))
        typer.echo(f"MCP bearer token for {user_or_default(user)} (shown once): {token}", err=True)
    run(serve_http(loaded, tokens, host, port))


async def serve_stdio(loaded: Settings, user_id: str) -> None:
    from wave_agent.mcp.server import Identity, build_server
    from wave_agent.services import Services

    async with Services(loaded, autostart_neo4j=True) as services:
        # fail early, with one line, if the graph cannot be reached; recall's stores open
        # (and qdrant_client imports) before the handshake, as the imports did when they were
        # eager, so the client's first recall after `initialize` does not wait for them
        await services.recall()
        server = build_server(services, Identity(user_id=user_id))
        # the model and the first queries warm while the client says hello, so
        # its first recall does not pay for them
        warming = asyncio.create_task(warm_up(services, user_id))
        try:
            await server.run_stdio_async()
        finally:
            warming.cancel()
            await asyncio.gather(warming, return_exceptions=True)


async def serve_http(loaded: Settings, tokens: object, host: str, port: int) -> None:
    import uvicorn

    from wave_agent.infra.tokens import TokenStore
    from wave_agent.mcp.server import BearerGuard, Identity, build_server
    from wave_agent.services import Services

    assert isinstance(tokens, TokenStore)
    async with Services(loaded, autostart_neo4j=True) as services:
        await services.graph()
        await warm_up(services, None)
        server = build_server(services, Identity(tokens=tokens))
        guarded = BearerGuard(server.streamable_http_app(host=host), tokens)
        config = uvicorn.Config(guarded, host=host, port=port, log_level="warning")
        try:
            await uvicorn.Server(config).serve()
        except OSError as exc:
            raise WaveError(f"cannot listen on {host}:{port} ({exc})",
                            next_step="choose another port with --port") from exc
        typer.echo(f"MCP server on http://{host}:{port}/mcp stopped", err=True)


async def warm_up(services: Services, user_id: str | None) -> None:
    """Load the embedding model, open recall's stores (or reach the archive's holder) and run
    one search, so the client's first recall answers in time with every voice. A problem here
    is logged; the tools report it when they are called."""
    try:
        # the model loads (a thread) while recall opens its stores (the archive's import is
        # another thread)
        engine, _ = await asyncio.gather(services.recall(),
                                         services.embedder().embed_query(["warm up"]))
        await engine.search(user_id or WARM_UP_USER, "warm up the memory", k=1)
    except Exception as exc:  # the tools will say it to the client
        log.warning("warm-up: %s", exc)
