"""``wave move-data``: bring a memory kept in a checkout's ``data/`` to the data directory.

Wave used to keep its memory in ``data`` relative to the working directory, so a command
started elsewhere (an MCP client launching ``wave mcp``) opened an empty memory. DATA_DIR now
defaults to the person's data directory; ``old_data_notice`` says, on every command, when an
older ``data/`` sits in the working directory, and names this command to move it.
"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import TYPE_CHECKING

import typer

from wave_agent.cli import app
from wave_agent.cli.common import err_console, settings
from wave_agent.errors import WaveError

if TYPE_CHECKING:
    from wave_agent.settings import Settings

OLD_DATA = Path("data")
# What only a Wave data directory holds (any one is enough).
MARKERS = ("neo4j", "qdrant", "blocks", "episodes", "snapshots", "outbox.sqlite3",
           "sessions.sqlite3")
# What a fresh data directory may already hold without being a memory.
HARMLESS = frozenset({"logs", ".env", "locks"})  # .env: wave_agent.settings.SETTINGS_FILE
SOURCE_ARGUMENT = typer.Argument(OLD_DATA, help="The older data directory (default ./data).")


def holds_memory(folder: Path) -> bool:
    return folder.is_dir() and any((folder / name).exists() for name in MARKERS)


def old_data_notice(loaded: Settings, cwd: Path | None = None) -> str | None:
    """The line to show when DATA_DIR was not set and ``./data`` holds an older memory."""
    if "data_dir" in loaded.model_fields_set:
        return None
    old = ((cwd or Path.cwd()) / OLD_DATA).absolute()
    if not holds_memory(old) or old.resolve() == loaded.data_dir.resolve():
        return None
    return (f"an older memory is in {old}; Wave now keeps memory in {loaded.data_dir}, whatever "
            f"the working directory. Move it there with `wave move-data {old}` "
            f"(or set DATA_DIR={old} to keep using it where it is)")


@app.command("move-data")
def move_data(
    source: Path = SOURCE_ARGUMENT,
) -> None:
    """Move a memory from an older data directory (a checkout's ./data) to DATA_DIR."""
    from archive.local_mode import probe_lock
    from wave_agent.infra import localneo4j

    target = settings().data_dir
    origin = source.expanduser().absolute()
    if not holds_memory(origin):
        raise WaveError(f"{origin} holds no Wave memory (none of {', '.join(MARKERS)})",
                        next_step="give the directory that holds neo4j/ and qdrant/")
    if origin.resolve() == target.resolve():
        raise WaveError(f"{origin} already is DATA_DIR", next_step="nothing to move")
    if target.exists() and any(p.name not in HARMLESS for p in target.iterdir()):
        raise WaveError(
            f"{target} already holds a memory; moving would mix two",
            next_step=f"move {target} aside first (e.g. `mv {target} {target}.old`), then run "
                      "this again")
    probe_lock(origin / "qdrant")  # ArchiveLocked names the process still using it
    from wave_agent.settings import Settings

    old = Settings(_env_file=None, data_dir=origin)  # type: ignore[call-arg]
    if localneo4j.down(old):
        err_console.print(f"stopped the embedded Neo4j that served {origin}")
    target.mkdir(parents=True, exist_ok=True)
    for item in sorted(origin.iterdir()):
        destination = target / item.name
        if destination.exists():  # a log or .env of the new directory: keep both
            destination = target / f"{item.name}.from-{origin.name}"
        shutil.move(str(item), str(destination))
    origin.rmdir()
    typer.echo(f"moved the memory from {origin} to {target}; `wave services up` starts it there")
