"""The ``wave`` command line: thin; parses, calls the same services as the bot.

Each command group lives in its own module and registers itself on ``app``. Every
``WaveError`` ends as one clear line on stderr (with the next step) and a non-zero exit,
never a traceback.
"""

from __future__ import annotations

import logging
import sys

import typer

from wave_agent.errors import ConfigError, WaveError

app = typer.Typer(
    name="wave",
    help="Wave: a personal agent with layered long-term memory.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
VERBOSE_OPTION = typer.Option(
    False, "--verbose", help="Show every log record on stderr (they always go to "
    "DATA_DIR/logs/wave.log).")


@app.callback()
def _options(verbose: bool = VERBOSE_OPTION) -> None:
    """Wave: a personal agent with layered long-term memory."""
    from wave_agent.cli import terminal

    terminal.VERBOSE = verbose


bench_app = typer.Typer(help="Benchmarks that print figures (see docs/benchmarks.md).", no_args_is_help=True)
app.add_typer(bench_app, name="bench")


def _register() -> None:
    # Imported for their side effect: each module adds its commands to ``app``.
    from wave_agent.cli import (  # noqa: F401
        bench_attributes_cmd,
        bench_entities_cmd,
        bench_longmemeval_cmd,
        bench_memory_cmd,
        bench_month_cmd,
        bench_scale_cmd,
        blocks_cmd,
        chat_cmd,
        commitments_cmd,
        data_cmd,
        dates_bench_cmd,
        erasure_cmd,
        maintain_cmd,
        mcp_cmd,
        memory_cmd,
        offline_bench_cmd,
        quarantine_cmd,
        recall_cmd,
        run_cmd,
        services_cmd,
        transfer_cmd,
        web_cmd,
    )


def main() -> None:
    _register()
    try:
        result = app(standalone_mode=False)
        if isinstance(result, int) and result:
            sys.exit(result)
    except WaveError as exc:  # Wave's and every layer's: one line with the next step
        code = 2 if isinstance(exc, ConfigError) else 1
        typer.echo(f"wave: {exc}", err=True)
        sys.exit(code)
    except (typer.Abort, KeyboardInterrupt):
        typer.echo("wave: interrupted", err=True)
        sys.exit(130)
    except typer.Exit as exc:
        sys.exit(exc.exit_code)
    except Exception as exc:  # click usage errors and the like
        if isinstance(exc, _usage_error_types()):
            line = _usage_line(exc)
            if line:
                typer.echo(line, err=True)
            sys.exit(getattr(exc, "exit_code", 2))
        logging.getLogger("wave").exception("unexpected error")
        typer.echo(f"wave: unexpected error: {exc!r}. Next: rerun with LOG_LEVEL=DEBUG and report it", err=True)
        sys.exit(1)


def _usage_error_types() -> tuple[type[Exception], ...]:
    """Usage errors of the click typer runs on: typer >= 0.29 bundles its own click."""
    found: list[type[Exception]] = []
    bundled = getattr(typer, "TyperException", None)
    if isinstance(bundled, type) and issubclass(bundled, Exception):
        found.append(bundled)
    try:
        import click
    except ImportError:  # typer no longer needs click itself
        pass
    else:
        found.append(click.ClickException)
    return tuple(found)


def _usage_line(exc: Exception) -> str:
    """One line: what was wrong with the command line, and where its usage is shown."""
    ctx = getattr(exc, "ctx", None)
    command = getattr(ctx, "command_path", None) or "wave"
    format_message = getattr(exc, "format_message", None)
    message = str(format_message() if callable(format_message) else exc).strip()
    if type(exc).__name__ == "NoArgsIsHelpError":  # `wave` alone: the help is the answer
        return message  # typer has printed it already (empty here); plain click has not
    message = " ".join(message.rstrip(".").split())
    return f"{command}: {message}. Next: see `{command} --help`" if message else ""
