"""``wave bench month``: a month of one person's chat replayed through the ``wave chat`` turn,
each message at its own time, with every proposal approved after each day (see
``wave_agent/bench/month.py``; figures in docs/benchmarks.md, "A month of chat")."""

from __future__ import annotations

from pathlib import Path

import typer

from wave_agent.cli import bench_app
from wave_agent.cli.common import emit_json, run, settings, to_json

DATA_OPTION = typer.Option(..., "--data", help="A month file, or a folder of them (*.json).")
PART_OPTION = typer.Option(None, "--part", help="Only the file with this name (its stem).")
JSON_OUT = typer.Option(False, "--json", help="Print the figures as JSON.")
OUT_OPTION = typer.Option(None, "--out", help="Also write the figures as JSON to this file.")
MISSES_OPTION = typer.Option(False, "--misses", help="Also print every miss (what went wrong).")
KEEP_OPTION = typer.Option(False, "--keep", help="Keep the bench person's records in the graph.")


@bench_app.command("month")
def bench_month_command(
    data: Path = DATA_OPTION,
    part: str | None = PART_OPTION,
    as_json: bool = JSON_OUT,
    out: Path | None = OUT_OPTION,
    misses: bool = MISSES_OPTION,
    keep: bool = KEEP_OPTION,
) -> None:
    """Replay a month of chat offline; changes applied, two truths, recall, contradictions..."""
    from wave_agent.bench.month import month_files, render, replay
    from wave_agent.errors import WaveError

    files = month_files(data)
    if part is not None:
        files = [f for f in files if f.stem == part]
        if not files:
            raise WaveError(f"No month file named {part}.json under {data}",
                            next_step="drop --part, or name one of the files' stems")
    loaded = settings()
    results = [run(replay(loaded, f, part=f.stem, keep=keep)) for f in files]
    if as_json:
        emit_json(results)
    else:
        typer.echo(render(results, misses=misses))
    if out is not None:
        out.write_text(to_json(results), encoding="utf-8")
