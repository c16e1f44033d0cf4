"""``wave bench entities``: entity and typed-relation precision / recall against hand labels,
and entity questions' R@1 / R@5, for each part of the entity set (``wave_agent.bench.entities``)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import typer
from rich.table import Table

from wave_agent.cli import bench_app
from wave_agent.cli.common import JSON_OPTION, console, settings
from wave_agent.cli.recall_cmd import _layer_errors, bench_services
from wave_agent.errors import WaveError

DATA_OPTION = typer.Option(Path("bench/data/entities"), "--data", file_okay=False,
                           help="The entity set directory: tuning*.json are tuning parts, "
                                "kept_aside*.json kept-aside parts.")
SHOW_OPTION = typer.Option(False, "--show", help="List the tuning parts' misses (never a "
                                                 "kept-aside part's); with --json, keep them "
                                                 "in each tuning part's output.")
KEEP_OPTION = typer.Option(False, "--keep", help="Keep the benchmark users' records.")


@bench_app.command("entities")
def bench_entities(
    data: Path = DATA_OPTION,
    show: bool = SHOW_OPTION,
    keep: bool = KEEP_OPTION,
    as_json: bool = JSON_OPTION,
) -> None:
    """Entities, typed relations and entity questions against the hand-labelled set."""
    from wave_agent.bench.entities import parts, run_part

    if not data.is_dir():
        raise WaveError(f"{data} is not a directory",
                        next_step="give the set directory, e.g. --data bench/data/entities")
    found = parts(data)
    base = settings()

    async def go() -> list[dict[str, Any]]:
        async with bench_services(base, "wave-entities-") as (services, progress):
            return [await run_part(p, services=services, progress=progress, keep=keep)
                    for p in found]

    summaries = _layer_errors(go)
    if as_json:
        typer.echo(json.dumps(printable(summaries, show=show), ensure_ascii=False))
        return
    for summary in summaries:
        _print(summary, show=show and summary["tuning"])


def printable(summaries: list[dict[str, Any]], *, show: bool) -> list[dict[str, Any]]:
    """The parts' figures as ``--json`` prints them: a tuning part's misses only with
    ``--show``, a kept-aside part's never."""
    return [{k: v for k, v in s.items() if k != "misses" or (show and s["tuning"])}
            for s in summaries]


def _print(summary: dict[str, Any], *, show: bool) -> None:
    kind = "tuning" if summary["tuning"] else "kept aside"
    title = (f"entity set, part {summary['part']}, {kind} ({summary['people']} people, "
             f"{summary['statements']} statements, {summary['questions_total']} questions)")
    for what in ("entities", "relations"):
        table = Table(title=f"{title}: {what}")
        for column in ("language/type", "P", "R", "tp", "fp", "fn"):
            table.add_column(column)
        for key, row in summary[what].items():
            table.add_row(key, *(str(row[c]) for c in ("P", "R", "tp", "fp", "fn")))
        console.print(table)
    table = Table(title=f"{title}: entity questions")
    for column in ("language", "R@1", "R@5", "recall@5", "n"):
        table.add_column(column)
    for lang, row in summary["questions"].items():
        table.add_row(lang, *(str(row[c]) for c in ("R@1", "R@5", "recall@5", "n")))
    console.print(table)
    if summary.get("losses"):
        console.print("where the missed labels were lost (counts): " + ", ".join(
            f"{k} {v}" for k, v in summary["losses"].items()))
    if summary["not_stored"]:
        console.print(f"statements the import did not keep: {summary['not_stored']}")
    if show:
        for miss in summary["misses"]:
            console.print(json.dumps(miss, ensure_ascii=False))
