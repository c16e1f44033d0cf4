"""``wave chat``: talk to Wave in the terminal, the same turn as the bot.

Usable in a pipe: one message per line on stdin, the replies on stdout (``--debug`` writes each
turn's layers and sizes to stderr). ``/reset`` starts a new session, ``/debug`` shows the last
turn, ``/quit`` ends. Before it exits it drains the post-processing outbox, so every fact of the
conversation is stored (what cannot be stored yet stays in the outbox and is said so).

Logs go to ``DATA_DIR/logs/wave-chat.log``; the screen gets only what a person must act on,
never in the middle of the input line (``--verbose`` shows every record on stderr). A line that
is not UTF-8 is skipped with one line saying so.

``wave bench turn`` measures everything the turn does before the model call.
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path
from typing import TYPE_CHECKING

import typer

from wave_agent.cli import app, bench_app
from wave_agent.cli.common import AT_OPTION, USER_OPTION, run, settings, use_at, user_or_default
from wave_agent.cli.terminal import Screen, log_to_file

if TYPE_CHECKING:
    from wave_agent.settings import Settings

DEBUG_OPTION = typer.Option(False, "--debug", help="Show each turn's layers and sizes on stderr.")
VERBOSE_OPTION = typer.Option(False, "--verbose", "-v", help="Show every log record on stderr.")
DRAIN_OPTION = typer.Option(
    120.0, "--drain-timeout", help="Seconds to keep retrying the outbox before exiting."
)


@app.command("chat")
def chat_command(
    user: str | None = USER_OPTION,
    debug: bool = DEBUG_OPTION,
    drain_timeout: float = DRAIN_OPTION,
    verbose: bool = VERBOSE_OPTION,
    at: str | None = AT_OPTION,
) -> None:
    """Chat with Wave in the terminal (or a pipe: one message per line)."""
    from wave_agent.cli import terminal

    use_at(at)
    terminal.VERBOSE = verbose = verbose or terminal.VERBOSE  # `wave --verbose chat` too
    loaded = settings()
    run(chat(loaded, user_or_default(user), debug=debug, drain_timeout=drain_timeout,
             verbose=verbose))


def _err(text: str) -> None:
    typer.echo(text, err=True)


OFFLINE_LINE = (
    "Offline mode: I keep what you tell me about yourself and answer from those records, but "
    "cannot reason or chat. For a model, set LLM_BASE_URL to an OpenAI-compatible endpoint, "
    "e.g. Ollama: LLM_BASE_URL=http://localhost:11434/v1 LLM_MODEL=qwen2.5"
)
NOT_UTF8 = "wave: line {0} could not be read (it is not UTF-8 text); skipped it, go on typing."


def read_line(raw: bytes, number: int, screen: Screen) -> str | None:
    """One line of input as text; None (and one line on the screen) when it is not UTF-8."""
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        screen.say(NOT_UTF8.format(number), now=True)
        return None


async def chat(
    loaded: Settings, user_id: str, *, debug: bool, drain_timeout: float, verbose: bool = False
) -> None:
    from wave_agent.services import Services

    interactive = sys.stdin.isatty()
    screen = Screen()
    log_path = None if verbose else log_to_file(loaded.data_dir, loaded.log_level, screen,
                                                verbose=False)
    if interactive:
        if loaded.offline_llm:
            _err(OFFLINE_LINE)
        else:
            _err(f"Wave, model {loaded.llm_model} at {loaded.llm_base_url}.")
        if log_path is not None:
            _err(f"Logs: {log_path} (--verbose shows them here). Starting the memory...")
    async with Services(loaded, autostart_neo4j=True) as services:
        turns = await services.turns()
        await turns.warm_up()
        worker = services.postprocessor()
        if services.outbox().pending_count():
            worker.kick()  # leftovers of an earlier run
        if interactive:
            _err("Ready. /reset new session, /debug last turn, /quit or Ctrl-D to end.")
        number = 0
        while True:
            if interactive:
                screen.prompt("> ")
            raw = await asyncio.to_thread(sys.stdin.buffer.readline)
            screen.line_read()
            if not raw:
                break
            number += 1
            line = read_line(raw, number, screen)
            if line is None:
                continue
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
    from wave_agent.bench.turn import bench_turn, render

    counts = [int(s) for s in sizes.split(",") if s.strip()]
    figures = run(bench_turn(settings(), counts, turns=turns))
    typer.echo(render(figures))
    if out is not None:
        from wave_agent.cli.common import to_json

        out.write_text(to_json(figures), encoding="utf-8")
