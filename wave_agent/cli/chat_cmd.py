"""``wave chat``: talk to Wave in the terminal, the same turn as the bot.

Usable in a pipe: one message per line on stdin, the replies on stdout (``--debug`` writes each
turn's layers and sizes to stderr). ``/reset`` starts a new session, ``/debug`` shows the last
turn, ``/quit`` ends. Before it exits it drains the post-processing outbox, so every fact of the
conversation is stored (what cannot be stored yet stays in the outbox and is said so).

``wave bench turn`` measures everything the turn does before the model call.
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

import typer

from wave_agent.cli import app, bench_app
from wave_agent.cli.common import USER_OPTION, run, settings, user_or_default
from wave_agent.settings import Settings

DEBUG_OPTION = typer.Option(False, "--debug", help="Show each turn's layers and sizes on stderr.")
DRAIN_OPTION = typer.Option(
    120.0, "--drain-timeout", help="Seconds to keep retrying the outbox before exiting."
)


@app.command("chat")
def chat_command(
    user: str | None = USER_OPTION,
    debug: bool = DEBUG_OPTION,
    drain_timeout: float = DRAIN_OPTION,
) -> None:
    """Chat with Wave in the terminal (or a pipe: one message per line)."""
    loaded = settings()
    run(chat(loaded, user_or_default(user), debug=debug, drain_timeout=drain_timeout))


def _err(text: str) -> None:
    typer.echo(text, err=True)


async def chat(loaded: Settings, user_id: str, *, debug: bool, drain_timeout: float) -> None:
    from wave_agent.services import Services

    interactive = sys.stdin.isatty()
    async with Services(loaded, autostart_neo4j=True) as services:
        turns = await services.turns()
        await turns.warm_up()
        worker = services.postprocessor()
        if services.outbox().pending_count():
            worker.kick()  # leftovers of an earlier run
        if interactive:
            mode = "offline mode (set LLM_BASE_URL for a model)" if loaded.offline_llm else loaded.llm_model
            _err(f"Wave, {mode}. /reset new session, /debug last turn, /quit or Ctrl-D to end.")
        while True:
            if interactive:
                typer.echo("> ", err=True, nl=False)
            line = await asyncio.to_thread(sys.stdin.readline)
            if not line:
                break
            text = line.strip()
            if not text:
                continue
            if text in ("/quit", "/exit"):
                break
            if text == "/reset":
                ended = await turns.reset(user_id)
                typer.echo("New session." if ended else "New session (there was none open).")
                continue
            if text == "/debug":
                last = turns.last_debug(user_id)
                typer.echo(last.render() if last else "No turn yet in this process.")
                continue
            result = await turns.handle(user_id, text)
            typer.echo(result.reply)
            if interactive:
                typer.echo("")
            if debug:
                _err(result.debug.render())
            worker.kick()
        pending = services.outbox().pending_count()
        if pending and interactive:
            _err(f"Saving what I learned ({pending} exchanges)...")
        report = await worker.drain(drain_timeout)
        if report.pending:
            _err(
                f"wave: {report.pending} exchanges are still in the outbox "
                f"({services.outbox().path}): {report.last_error}. They are kept and "
                "retried by the next `wave chat` or `wave run`."
            )
        elif debug:
            _err(f"outbox drained: {worker.processed} exchanges post-processed")


BENCH_OUT = typer.Option(None, "--out", help="Also write the figures as JSON to this file.")


@bench_app.command("turn")
def bench_turn_command(
    sizes: str = typer.Option("1000,10000", "--sizes", help="Facts per user, comma-separated."),
    turns: int = typer.Option(60, "--turns", help="Measured turns per size."),
    out: Path | None = BENCH_OUT,
) -> None:
    """p50/p95 of everything the turn does before the model call, at 1k and 10k facts."""
    from wave_agent.turn_bench import bench_turn, render

    counts = [int(s) for s in sizes.split(",") if s.strip()]
    figures = run(bench_turn(settings(), counts, turns=turns))
    typer.echo(render(figures))
    if out is not None:
        from wave_agent.cli.common import to_json

        out.write_text(to_json(figures), encoding="utf-8")
