"""Helpers shared by the CLI command modules: settings at the edge, async, JSON output."""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Coroutine
from functools import lru_cache
from typing import TYPE_CHECKING, Any, TypeVar

import typer
from rich.console import Console

from wave_agent.app.plain import plain
from wave_agent.policy.edge_input import normalise_user_id

if TYPE_CHECKING:
    from wave_agent.settings import Settings

T = TypeVar("T")

console = Console()
err_console = Console(stderr=True)

USER_OPTION = typer.Option(None, "--user", "-u", help="User id (default: DEFAULT_USER).")
JSON_OPTION = typer.Option(False, "--json", help="Print JSON instead of a table.")
ALSO_ADAPTER_OPTION = typer.Option(
    [], "--also-adapter", help="Also ask every question with the query map in this mode "
                               "(auto, all, search, off) over the same records: system "
                               "wave-<mode>, paired with Wave's own.")
ALSO_CONFIG_OPTION = typer.Option(
    [], "--also-config", help="Also ask every question with these recall settings over the "
                              "same records (name:field=value[,field=value], e.g. "
                              "noabout:entity_first=false): system wave-<name>.")
AT_OPTION = typer.Option(
    None, "--at", help="Act at this moment, for replaying a dated history (ISO 8601, e.g. "
                       "2026-11-03T09:15+03:00; without an offset, in TIMEZONE). As WAVE_NOW.")


def use_at(at: str | None) -> None:
    """``--at``: fix the one clock (``WAVE_NOW``) for this command; a wrong value is refused
    before any store is opened."""
    if at is None:
        return
    import os
    from datetime import datetime
    from zoneinfo import ZoneInfo

    from wave_agent.errors import WaveError
    from wave_agent.infra import clock

    try:
        moment = datetime.fromisoformat(at.strip())
    except ValueError:
        raise WaveError(f"--at {at!r} is not an ISO date and time",
                        next_step="write it as 2026-11-03T09:15+03:00 (or 2026-11-03T09:15 in "
                                  "TIMEZONE)") from None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=ZoneInfo(settings().timezone))
    os.environ[clock.ENV] = moment.isoformat()


@lru_cache(maxsize=1)
def settings() -> Settings:
    """Read settings once, at the edge."""
    from wave_agent.cli import terminal
    from wave_agent.settings import load_settings

    loaded = load_settings()
    terminal.log_for_command(loaded.data_dir, loaded.log_level, verbose=terminal.VERBOSE)
    for noisy in ("httpx", "neo4j", "sentence_transformers", "aiogram.event"):
        logging.getLogger(noisy).setLevel(max(logging.WARNING, logging.getLevelName(loaded.log_level)))
    from wave_agent.infra.outage import install_driver_filter

    install_driver_filter()  # an outage is one line when it begins and one when it ends
    from wave_agent.cli.data_cmd import old_data_notice

    notice = old_data_notice(loaded)
    if notice:
        err_console.print(f"wave: {notice}", highlight=False, soft_wrap=True)
    return loaded


def user_or_default(user: str | None) -> str:
    """The ``--user`` given (normalised; an empty one is refused), else ``DEFAULT_USER``."""
    if user is not None:
        return normalise_user_id(user, source="--user")
    return normalise_user_id(settings().default_user, source="DEFAULT_USER")


def run(coro: Coroutine[Any, Any, T]) -> T:
    return asyncio.run(coro)


def _default(value: Any) -> Any:
    converted = plain(value)
    if converted is value:
        raise TypeError(f"not JSON serialisable: {type(value).__name__}")
    return converted


def to_json(value: Any) -> str:
    return json.dumps(value, default=_default, ensure_ascii=False, indent=2)


def emit_json(value: Any) -> None:
    typer.echo(to_json(value))
