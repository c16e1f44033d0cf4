"""The ``wave`` command line: thin; parses, calls the same services as the bot.

Each command group lives in its own module and registers itself on ``app``. Every
``WaveError`` ends as one clear line on stderr (with the next step) and a non-zero exit,
never a traceback.
"""

from __future__ import annotations

import logging
import sys

import typer

from wave_agent.errors import ConfigError, layer_error_roots

app = typer.Typer(
    name="wave",
    help="Wave: a personal agent with layered long-term memory.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
bench_app = typer.Typer(help="Benchmarks that print figures (see docs/benchmarks.md).", no_args_is_help=True)
app.add_typer(bench_app, name="bench")


def _register() -> None:
    # Imported for their side effect: each module adds its commands to ``app``.
    from wave_agent.cli import (  # noqa: F401
        bench_memory_cmd,
        blocks_cmd,
        chat_cmd,
        erasure_cmd,
        maintain_cmd,
        mcp_cmd,
        memory_cmd,
        quarantine_cmd,
        recall_cmd,
        run_cmd,
        services_cmd,
        transfer_cmd,
        web_cmd,
    )


def main() -> None:
    _register()
    known_errors = layer_error_roots()
    try:
        result = app(standalone_mode=False)
        if isinstance(result, int) and result:
            sys.exit(result)
    except known_errors as exc:
        code = 2 if isinstance(exc, ConfigError) else 1
        typer.echo(f"wave: {exc}", err=True)
        sys.exit(code)
    except (typer.Abort, KeyboardInterrupt):
        typer.echo("wave: interrupted", err=True)
        sys.exit(130)
    except typer.Exit as exc:
        sys.exit(exc.exit_code)
    except Exception as exc:  # click usage errors and the like
        import click

        if isinstance(exc, click.ClickException):
            exc.show()
            sys.exit(exc.exit_code)
        logging.getLogger("wave").exception("unexpected error")
        typer.echo(f"wave: unexpected error: {exc!r}. Next: rerun with LOG_LEVEL=DEBUG and report it", err=True)
        sys.exit(1)
