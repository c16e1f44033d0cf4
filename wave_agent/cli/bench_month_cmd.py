"""``wave bench month`` (a month of one person's chat replayed through the ``wave chat`` turn,
each message at its own time, with every proposal approved after each day (see
``wave_agent/bench/month.py``; figures in docs/benchmarks.md, "A month of chat") and
``wave bench smalltalk`` (``wave_agent/bench/smalltalk.py``)."""

from __future__ import annotations

from pathlib import Path

import typer

from wave_agent.cli import bench_app
from wave_agent.cli.common import ALSO_CONFIG_OPTION, emit_json, run, settings, to_json

DATA_OPTION = typer.Option(..., "--data", help="A month file, or a folder of them (*.json).")
PART_OPTION = typer.Option(None, "--part", help="Only the file with this name (its stem).")
JSON_OUT = typer.Option(False, "--json", help="Print the figures as JSON.")
OUT_OPTION = typer.Option(None, "--out", help="Also write the figures as JSON to this file.")
MISSES_OPTION = typer.Option(False, "--misses", help="Also print every miss (what went wrong).")
SMALLTALK_DATA = typer.Option(Path("bench/data/smalltalk"), "--data",
                              help="A labelled set (JSON list), or a folder of them.")
LEARNED_OPTION = typer.Option(True, "--learned/--no-learned",
                              help="Use the learned small-talk judge (--no-learned: the phrase "
                                   "lists alone, to compare).")
KEEP_OPTION = typer.Option(False, "--keep", help="Keep the bench person's records in the graph.")
RUNS_OPTION = typer.Option("day", "--runs", help="day: each day is one `wave chat` run (the "
                                                 "stores opened and closed, as a person "
                                                 "chatting once a day); one: a single run.")


@bench_app.command("month")
def bench_month_command(
    data: Path = DATA_OPTION,
    part: str | None = PART_OPTION,
    as_json: bool = JSON_OUT,
    out: Path | None = OUT_OPTION,
    misses: bool = MISSES_OPTION,
    keep: bool = KEEP_OPTION,
    runs: str = RUNS_OPTION,
    also_config: list[str] = ALSO_CONFIG_OPTION,
) -> None:
    """Replay a month of chat offline; changes applied, two truths, recall, contradictions...
    ``--also-config``: every checkpoint's questions asked again over the same records with
    other recall settings, tallied as ``<month>@<name>`` (a paired comparison in one replay)."""
    from wave_agent.bench.longmemeval import parse_variant
    from wave_agent.bench.month import month_files, render, replay
    from wave_agent.errors import WaveError

    if runs not in ("day", "one"):
        raise WaveError(f"--runs {runs!r} is not day or one", next_step="use --runs day or --runs one")
    files = month_files(data)
    if part is not None:
        files = [f for f in files if f.stem == part]
        if not files:
            raise WaveError(f"No month file named {part}.json under {data}",
                            next_step="drop --part, or name one of the files' stems")
    loaded = settings()
    variants = dict(parse_variant(v) for v in also_config)
    results = [run(replay(loaded, f, part=f.stem, keep=keep, runs=runs, also_config=variants))
               for f in files]
    if as_json:
        emit_json(results)
    else:
        typer.echo(render(results, misses=misses))
    if out is not None:
        out.write_text(to_json(results), encoding="utf-8")


@bench_app.command("smalltalk")
def bench_smalltalk_command(
    data: Path = SMALLTALK_DATA,
    learned: bool = LEARNED_OPTION,
    as_json: bool = JSON_OUT,
    out: Path | None = OUT_OPTION,
    misses: bool = MISSES_OPTION,
) -> None:
    """Small talk stored and statements kept by the offline chat door, per part and language."""
    from wave_agent.bench.smalltalk import bench, render

    result = bench(data, learned=learned)
    if as_json:
        emit_json(result)
    else:
        typer.echo(render(result, misses=misses))
    if out is not None:
        out.write_text(to_json(result), encoding="utf-8")
