"""``wave bench longmemeval``: recall on LongMemEval-S (turns and sessions) against plain BM25
and plain dense search with Wave's embedding model, in one run."""

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

FILE_OPTION = typer.Option(..., "--data", dir_okay=False,
                           help="LongMemEval's JSON (longmemeval_s.json's format).")
TYPES_OPTION = typer.Option([], "--types", help="Only questions of these types.")
DETAILS_OPTION = typer.Option(None, "--details", dir_okay=False,
                              help="Also write per-question ranks in every voice here.")
FEATURES_OPTION = typer.Option(None, "--features", dir_okay=False,
                               help="Append each question's candidates and learned-ranker "
                                    "features here (scripts/train_ranker.py reads them).")
# metric -> column heading (t: turn level, s: session level; --json has every metric)
SHOWN = {"turn_any@5": "t any@5", "turn_any@10": "t any@10", "turn_all@5": "t all@5",
         "turn_all@10": "t all@10", "session_any@5": "s any@5", "session_any@10": "s any@10",
         "session_all@10": "s all@10", "NDCG@10": "NDCG@10", "R@1": "R@1", "MRR": "MRR"}


@bench_app.command("longmemeval")
def bench_longmemeval(
    data: Path = FILE_OPTION,
    limit: int | None = typer.Option(None, "--limit", min=1,
                                     help="Only the first N questions of each type."),
    types: list[str] = TYPES_OPTION,
    split: str | None = typer.Option(None, "--split", help="Only the tune or held questions."),
    keep: bool = typer.Option(False, "--keep", help="Keep the benchmark users' records."),
    details: Path | None = DETAILS_OPTION,
    features: Path | None = FEATURES_OPTION,
    also_adapter: list[str] = ALSO_ADAPTER_OPTION,
    also_config: list[str] = ALSO_CONFIG_OPTION,
    as_json: bool = JSON_OPTION,
) -> None:
    """Turn and session recall_any/all@5/10, NDCG@10, R@1, MRR of Wave vs BM25 and dense."""
    from wave_agent.bench.longmemeval import parse_variant, run_benchmark
    from wave_agent.errors import WaveError

    if split not in (None, "tune", "held"):
        raise WaveError(f"--split {split} is not a split", next_step="--split tune or --split held")
    variants = dict(parse_variant(v) for v in also_config)
    base = settings()

    async def go() -> dict[str, Any]:
        async with bench_services(base, "wave-lme-") as (services, progress):
            return await run_benchmark(data, services=services, limit=limit, types=types,
                                       split=split, progress=progress, keep=keep,
                                       features=features, also_adapter=also_adapter,
                                       also_config=variants)

    summary = _layer_errors(go)
    per_question = summary.pop("_details", [])
    if details:
        details.write_text(json.dumps({**summary, "questions_detail": per_question}, indent=2,
                                      ensure_ascii=False), encoding="utf-8")
    if as_json:
        typer.echo(json.dumps(summary, ensure_ascii=False))
        return
    table = Table(title=f"LongMemEval recall ({summary['questions']} questions, "
                        f"model {summary['model']})")
    for column in ("part", "system", *SHOWN.values(), "n"):
        table.add_column(column, no_wrap=True)
    parts = [("all", summary["all"])]
    parts += [(f"split {k}", v) for k, v in summary["by_split"].items()]
    parts += [(k, v) for k, v in summary["by_type"].items()]
    for name, systems in parts:
        for system, row in systems.items():
            if row:
                table.add_row(name if system == "wave" else "", system,
                              *(str(row[m]) for m in SHOWN), str(row["n"]))
    console.print(table)
    lat = summary["latency_ms"]
    console.print(f"latency ms: wave {lat['wave']}; dense {lat['dense']}; writing: "
                  f"{summary['writing']}; seconds to write one history: "
                  f"{summary['write_s_per_question']}")
