"""``wave bench attributes``: statements read as attribute values against hand labels, per
language: attribute precision / recall and op accuracy (``wave_agent.bench.attributes``)."""

from __future__ import annotations

import json
from pathlib import Path

import typer
from rich.table import Table

from wave_agent.cli import bench_app
from wave_agent.cli.common import JSON_OPTION, console
from wave_agent.errors import WaveError

DATA_OPTION = typer.Option(Path("bench/data/attributes"), "--data", file_okay=False,
                           help="The attribute set directory (tuning.json, and any other part).")
SHOW_OPTION = typer.Option(False, "--show", help="List the tuning part's misses.")


@bench_app.command("attributes")
def bench_attributes(
    data: Path = DATA_OPTION,
    show: bool = SHOW_OPTION,
    as_json: bool = JSON_OPTION,
) -> None:
    """Attribute values read from statements against the hand-labelled set."""
    from wave_agent.bench.attributes import parts, run_file

    if not data.is_dir():
        raise WaveError(f"{data} is not a directory",
                        next_step="give the set directory, e.g. --data bench/data/attributes")
    found = parts(data)
    if not found:
        raise WaveError(f"{data} holds no .json set",
                        next_step="write bench/data/attributes/tuning.json (see "
                                  "wave_agent/bench/attributes.py for the format)")
    summaries = [run_file(p) for p in found]
    if as_json:
        typer.echo(json.dumps([{k: v for k, v in s.items() if k != "misses"} for s in summaries],
                              ensure_ascii=False))
        return
    for summary in summaries:
        table = Table(title=f"attributes, part {summary['part']} ({summary['set']})")
        for column in ("language", "P", "R", "op", "tp", "fp", "fn", "texts"):
            table.add_column(column)
        for lang, row in summary["languages"].items():
            table.add_row(lang, *(str(row[c]) for c in ("P", "R", "op", "tp", "fp", "fn", "n")))
        console.print(table)
        if show and summary["part"] == "tuning":
            for miss in summary["misses"]:
                console.print(json.dumps(miss, ensure_ascii=False))
