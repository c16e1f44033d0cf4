"""``wave bench dates``: due times read from the date set (see ``wave_agent/bench/dates.py``;
figures in docs/benchmarks.md, "Dates")."""

from __future__ import annotations

from pathlib import Path

import typer

from wave_agent.cli import bench_app
from wave_agent.cli.common import to_json
from wave_agent.errors import WaveError

DATA_OPTION = typer.Option(None, "--data", help="The folder of parts (default: bench/data/dates).")
MISSES_OPTION = typer.Option(False, "--misses", help="Also list every item read wrong.")
OUT_OPTION = typer.Option(None, "--out", help="Also write the figures and misses as JSON here.")


@bench_app.command("dates")
def bench_dates_command(
    data: Path | None = DATA_OPTION,
    misses: bool = MISSES_OPTION,
    out: Path | None = OUT_OPTION,
) -> None:
    """Due right %, ambiguous asked %, invented dates: per part and language (RU, PL, EN)."""
    from wave_agent.bench.dates import DEFAULT_DATA, as_json, bench, render

    folder = data or DEFAULT_DATA
    results = bench(folder)
    if not results:
        raise WaveError(f"no date set in {folder}",
                        next_step="point --data at a folder holding tuning.json and/or kept_aside.json")
    typer.echo(render(results, misses=misses))
    if out is not None:
        out.write_text(to_json(as_json(results)), encoding="utf-8")
