"""``wave bench offline``: what offline mode keeps of chat lines and whether a follow-up gets the
right record first (see ``wave_agent/bench/offline.py``; figures in docs/benchmarks.md)."""

from __future__ import annotations

from pathlib import Path

import typer

from wave_agent.cli import bench_app
from wave_agent.cli.common import run, settings, to_json

DATA_OPTION = typer.Option(None, "--data", help="The labelled lines (default: bench/data/offline_lines.txt).")
E2E_OPTION = typer.Option(True, "--e2e/--no-e2e", help="Also write through the real stores and ask the follow-ups.")
PEOPLE_OPTION = typer.Option(
    None, "--people", help="End to end: only the first N people of each split and language.")
OUT_OPTION = typer.Option(None, "--out", help="Also write the figures as JSON to this file.")


@bench_app.command("offline")
def bench_offline_command(
    data: Path | None = DATA_OPTION,
    e2e: bool = E2E_OPTION,
    out: Path | None = OUT_OPTION,
    people: int | None = PEOPLE_OPTION,
) -> None:
    """Offline extraction and answers on labelled RU/EN/PL chat lines (tune and held-out)."""
    from wave_agent.bench.offline import (
        DEFAULT_DATA,
        bench_end_to_end,
        bench_extraction,
        load,
        render,
    )

    lines = load(data or DEFAULT_DATA)
    extraction = bench_extraction(lines)
    end_to_end = run(bench_end_to_end(settings(), lines, people=people)) if e2e else None
    typer.echo(render(extraction, end_to_end))
    if out is not None:
        out.write_text(to_json({"extraction": extraction, "end_to_end": end_to_end}), encoding="utf-8")
