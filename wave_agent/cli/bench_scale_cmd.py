"""``wave bench scale``: the archive at 10k / 100k / 1M records, local mode against a server
(``wave_agent.bench.scale`` says what is generated and what is reused)."""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Any

import typer
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from wave_agent.cli import bench_app
from wave_agent.cli.common import console, err_console, settings
from wave_agent.errors import WaveError


def _sizes(text: str) -> list[int]:
    try:
        return [int(part.replace("_", "").replace("k", "000").replace("M", "000000"))
                for part in text.split(",") if part.strip()]
    except ValueError as exc:
        raise WaveError(f"--sizes {text!r} is not a list of numbers",
                        next_step="e.g. --sizes 10k,100k,1M") from exc


BIN_OPTION = typer.Option(None, envvar="WAVE_QDRANT_BIN",
                          help="The Qdrant server binary (else ../shared/bin/qdrant or PATH).")
OUT_OPTION = typer.Option(None, "--out", dir_okay=False, help="Also write JSON here.")


@bench_app.command("scale")
def bench_scale(
    sizes: str = typer.Option("10k,100k,1M", help="Records of one person, comma-separated."),
    backends: str = typer.Option("local,server", help="local, server or both."),
    local_max: int = typer.Option(100_000, help="Skip local mode above this many records "
                                  "(it holds every vector in this process's memory)."),
    people: int = typer.Option(100, help="The many-people row: this many people..."),
    per_person: int = typer.Option(10_000, help="...with this many records each (0: skip)."),
    queries: int = typer.Option(100, min=10, help="Searches timed per row."),
    pool: int = typer.Option(2_000, min=100, help="Real embeddings the records' vectors reuse."),
    grpc: bool = typer.Option(True, "--grpc/--rest", help="The server client's transport "
                              "(QDRANT_GRPC_PORT set, or REST on QDRANT_URL)."),
    index_wait: float = typer.Option(900.0, min=0, help="Server: seconds to wait for the "
                                     "optimizer's index (status green) before timing searches."),
    qdrant_bin: Path | None = BIN_OPTION,
    out: Path | None = OUT_OPTION,
) -> None:
    """Write rate, filtered search p50/p95, reopen time and memory at each size."""
    from archive.embedder import Embedder
    from wave_agent import localqdrant
    from wave_agent.bench.scale import ScaleRow, VectorPool, measure, run_sync

    kinds = [k.strip() for k in backends.split(",") if k.strip()]
    if not set(kinds) <= {"local", "server"}:
        raise WaveError(f"--backends {backends!r}", next_step="use local, server or local,server")
    binary = localqdrant.find_binary(qdrant_bin) if "server" in kinds else None
    if "server" in kinds and binary is None:
        err_console.print(f"[yellow]{localqdrant.missing_binary_reason()}[/]")
        kinds.remove("server")
    cfg = settings()
    embedder = Embedder(cfg.embedding_model, device=cfg.embedding_device)
    err_console.print(f"embedding a pool of {pool} texts and {12} queries with {embedder.model_name}...")
    vectors = VectorPool(embedder, pool)
    plan: list[tuple[str, int, int]] = []
    for kind in kinds:
        plan += [(kind, 1, n) for n in _sizes(sizes) if kind == "server" or n <= local_max]
        if per_person and (kind == "server" or people * per_person <= local_max):
            plan.append((kind, people, per_person))
    rows: list[ScaleRow] = []
    load = os.getloadavg()
    with tempfile.TemporaryDirectory(prefix="wave-scale-") as scratch, Progress(
            TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
            TimeElapsedColumn(), console=err_console, transient=True) as bar:
        task = bar.add_task("scale", total=1)

        def progress(label: str, done: int, total: int) -> None:
            bar.update(task, description=label, completed=done, total=total)

        for kind, many, each in plan:
            rows.append(run_sync(measure(kind, vectors, people=many, per_person=each,
                                         queries=queries, qdrant_bin=binary, progress=progress,
                                         scratch=Path(scratch), grpc=grpc,
                                         index_wait_s=index_wait)))
            if out:
                _save(out, rows, load, vectors.dim, pool)
    table = Table(title=f"wave bench scale ({vectors.dim}-d vectors; load at start "
                        f"{load[0]:.1f} / {load[1]:.1f} / {load[2]:.1f})")
    for column in ("backend", "scenario", "records", "write rec/s", "search p50 ms",
                   "search p95 ms", "reopen s", "memory MB", "index s"):
        table.add_column(column, justify="right" if column[0].islower() and " " in column else "left")
    for r in rows:
        table.add_row(r.backend, r.scenario, f"{r.records:,}", f"{r.write_per_s:,.0f}",
                      f"{r.search_p50_ms:.1f}", f"{r.search_p95_ms:.1f}", f"{r.reopen_s:.1f}",
                      f"{r.memory_mb:,.0f}", f"{r.index_s:.0f}")
    console.print(table)
    for r in rows:
        if r.note:
            console.print(f"{r.backend} {r.scenario} {r.records:,}: {r.note}")
    console.print(f"Vectors: {pool} real embeddings reused with noise; texts, ids, statuses and "
                  f"times are each record's own; queries are real embeddings. Load now "
                  f"{os.getloadavg()[0]:.1f}.")
    if out:
        _save(out, rows, load, vectors.dim, pool)


def _save(out: Path, rows: list[Any], load: tuple[float, float, float], dim: int, pool: int) -> None:
    from wave_agent.bench.scale import as_json

    out.write_text(json.dumps({"dim": dim, "pool": pool, "load_at_start": load,
                               "load_now": os.getloadavg(), "rows": as_json(rows)}, indent=2))
