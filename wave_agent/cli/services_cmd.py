"""``wave services up|down|status``: the embedded Neo4j (Qdrant local mode needs no process)."""

from __future__ import annotations

import typer

from wave_agent.cli import app
from wave_agent.cli.common import JSON_OPTION, console, emit_json, err_console, settings
from wave_agent.infra import localneo4j

services_app = typer.Typer(help="Start, stop and inspect the embedded local services.", no_args_is_help=True)
app.add_typer(services_app, name="services")


def _echo(line: str) -> None:
    err_console.print(line)


@services_app.command("up")
def up(wait: float = typer.Option(120.0, help="Seconds to wait for Bolt to answer.")) -> None:
    """Start Neo4j 5.26 embedded in a local JVM (Bolt on 127.0.0.1)."""
    cfg = settings()
    if cfg.neo4j_uri:
        console.print(f"NEO4J_URI is set ({cfg.neo4j_uri}): Wave uses that server; nothing to start.")
        return
    state = localneo4j.up(cfg, wait_s=wait, echo=_echo)
    console.print(f"Neo4j is up: {state.uri} (pid {state.pid}, data {state.home}, log {state.log_file})")


@services_app.command("down")
def down() -> None:
    """Stop the embedded Neo4j."""
    stopped = localneo4j.down(settings())
    console.print("Neo4j stopped." if stopped else "Neo4j was not running.")


@services_app.command("status")
def status(as_json: bool = JSON_OPTION) -> None:
    """Show whether the embedded Neo4j runs, and where Qdrant and Letta are."""
    cfg = settings()
    neo = localneo4j.status(cfg)
    report: dict[str, dict[str, object]] = {
        "neo4j": {
            "mode": "server" if cfg.neo4j_uri else "embedded",
            "uri": cfg.effective_neo4j_uri,
            "running": neo.running if not cfg.neo4j_uri else None,
            "pid": neo.pid,
            "detail": neo.detail if not cfg.neo4j_uri else "external server (not managed by wave)",
            "log": str(neo.log_file),
        },
        "qdrant": {
            "mode": "server" if cfg.qdrant_url else "local",
            "where": cfg.qdrant_url or str(cfg.qdrant_local_path),
        },
        "letta": {"mode": "server" if cfg.letta_base_url else "markdown", "where": cfg.letta_base_url or str(cfg.blocks_dir)},
        "llm": {"mode": "offline" if cfg.offline_llm else "openai-compatible", "where": cfg.llm_base_url},
    }
    if as_json:
        emit_json(report)
        return
    for name, part in report.items():
        console.print(f"[bold]{name}[/bold]: " + ", ".join(f"{k}={v}" for k, v in part.items() if v is not None))
    if not cfg.neo4j_uri and not neo.running:
        raise typer.Exit(code=3)
