"""``wave bench memory``: recall on a personal-memory set (any language) against plain BM25
with the language's stemmer and plain dense search with Wave's embedding model."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import typer
from rich.table import Table

from wave_agent.cli import bench_app
from wave_agent.cli.common import (
    ALSO_ADAPTER_OPTION,
    ALSO_CONFIG_OPTION,
    JSON_OPTION,
    console,
    settings,
)
from wave_agent.cli.recall_cmd import _layer_errors, bench_services
from wave_agent.errors import WaveError

SET_OPTION = typer.Option(
    None, "--data", file_okay=False,
    help="A set directory (set.json, facts.jsonl, questions.jsonl); default: every set "
         "shipped in bench/data.")
KEEP_OPTION = typer.Option(False, "--keep", help="Keep the benchmark user's records.")
FEATURES_OPTION = typer.Option(None, "--features", dir_okay=False,
                               help="Append each question's candidates and learned-ranker "
                                    "features here (scripts/train_ranker.py reads them).")
GRAPH_OPTION = typer.Option(True, "--graph-voice/--no-graph-voice",
                            help="--no-graph-voice: the ablation, recall without the graph walk.")
MISSES_OPTION = typer.Option(None, "--details", dir_okay=False,
                             help="Also write the figures and Wave's misses here.")


@bench_app.command("memory")
def bench_memory(
    data: Path | None = SET_OPTION,
    keep: bool = KEEP_OPTION,
    details: Path | None = MISSES_OPTION,
    features: Path | None = FEATURES_OPTION,
    graph_voice: bool = GRAPH_OPTION,
    also_adapter: list[str] = ALSO_ADAPTER_OPTION,
    also_config: list[str] = ALSO_CONFIG_OPTION,
    voice_timeout: float = typer.Option(
        5.0, "--voice-timeout", min=0.1,
        help="Each recall voice's timeout in seconds (the bench's 5 s; a loaded machine drops "
             "voices and the run's ranks are not the product's: give more there)."),
    as_json: bool = JSON_OPTION,
) -> None:
    """R@1/5/10 and MRR of Wave vs BM25 and dense on a memory set, per split and question kind."""
    from wave_agent.bench.longmemeval import parse_variant
    from wave_agent.bench.memory import default_sets, run_memory_benchmark

    if data is not None and not data.is_dir():
        raise WaveError(f"{data} is not a directory",
                        next_step="give a set directory, e.g. --data bench/data/memory-ru")
    sets = [data] if data is not None else default_sets()
    if not sets:
        raise WaveError("No memory set found", next_step="give one with --data DIR")
    variants = dict(parse_variant(v) for v in also_config)
    base = settings()

    async def go() -> list[dict[str, Any]]:
        async with bench_services(base, "wave-memory-") as (services, progress):
            return [await run_memory_benchmark(s, services=services, progress=progress,
                                               keep=keep, features=features,
                                               graph_voice=graph_voice,
                                               also_adapter=also_adapter,
                                               also_config=variants,
                                               voice_timeout_s=voice_timeout) for s in sets]

    summaries = _layer_errors(go)
    if details:
        details.write_text(json.dumps(summaries, indent=2, ensure_ascii=False), encoding="utf-8")
    if as_json:
        typer.echo(json.dumps([{k: v for k, v in s.items() if k not in ("wave_misses", "ranks")}
                               for s in summaries], ensure_ascii=False))
        return
    for summary in summaries:
        _print(summary)


def _print(summary: dict[str, Any]) -> None:
    table = Table(title=f"memory set {summary['set']} ({summary['language']}, "
                        f"{summary['facts']} facts, {summary['questions']} questions, "
                        f"model {summary['model']})")
    for column in ("part", "system", "R@1", "R@5", "R@10", "MRR", "n"):
        table.add_column(column)
    parts = [("all", summary["all"])]
    parts += [(f"split {k}", v) for k, v in summary["by_split"].items()]
    parts += [(f"kind {k}", v) for k, v in summary["by_kind"].items()]
    for name, systems in parts:
        for system, row in systems.items():
            table.add_row(name if system == "wave" else "", system,
                          *(f"{row[k]:.1f}" for k in ("R@1", "R@5", "R@10")),
                          f"{row['MRR']:.3f}", str(row["n"]))
    console.print(table)
    lat = summary["latency_ms"]
    console.print(f"latency ms: wave p50 {lat['wave']['p50']} p95 {lat['wave']['p95']}; "
                  f"dense p50 {lat['dense']['p50']} p95 {lat['dense']['p95']}; questions "
                  f"answered with a voice missing: {summary['degraded']}")
