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
    graph: bool = typer.Option(True, "--graph/--no-graph", help="Also Neo4j full-text and "
                               "two-hop reads at each size (NEO4J_URI or the embedded one)."),
    graph_max: int = typer.Option(100_000, help="Skip the graph above this many facts."),
    turn: int = typer.Option(100_000, help="The pre-LLM turn (`wave bench turn`'s measure) with "
                             "this many facts of one person on a Qdrant server (0: skip)."),
    qdrant_bin: Path | None = BIN_OPTION,
    out: Path | None = OUT_OPTION,
) -> None:
    """Write rate, filtered search p50/p95, reopen time and memory at each size."""
    from archive.embedder import Embedder
    from wave_agent.bench.scale import ScaleRow, VectorPool, measure, run_sync
    from wave_agent.infra import localqdrant

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
    graph_rows: list[Any] = []
    turn_rows: list[Any] = []
    turn_info: dict[str, Any] = {}
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
                _save(out, rows, load, vectors.dim, pool, graph_rows)
        if graph:
            graph_sizes = [n for n in _sizes(sizes) if n <= graph_max]
            skipped = [n for n in _sizes(sizes) if n > graph_max]
            if skipped:
                err_console.print(f"graph: skipped {', '.join(f'{n:,}' for n in skipped)} "
                                  f"(above --graph-max {graph_max:,})")
            graph_rows += run_sync(_graph_rows(cfg, graph_sizes, queries, progress))
            if out:
                _save(out, rows, load, vectors.dim, pool, graph_rows)
        if turn and binary is not None:
            turn_rows, turn_info = _turn_rows(cfg, turn, pool, binary, Path(scratch), progress)
            if out:
                _save(out, rows, load, vectors.dim, pool, graph_rows, turn_rows, turn_info)
        elif turn:
            err_console.print("[yellow]turn at scale skipped: it needs the Qdrant server binary[/]")
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
    if graph_rows:
        graph_table = Table(title="Neo4j, one person: bulk load, full-text (limit 20) and "
                                  "two-hop (limit 50) reads")
        for column in ("facts", "entities", "relations", "load facts/s", "full-text p50 ms",
                       "full-text p95 ms", "two-hop p50 ms", "two-hop p95 ms"):
            graph_table.add_column(column, justify="right")
        for g in graph_rows:
            graph_table.add_row(f"{g.facts:,}", f"{g.entities:,}", f"{g.relations:,}",
                                f"{g.load_per_s:,.0f}", f"{g.fulltext_p50_ms:.1f}",
                                f"{g.fulltext_p95_ms:.1f}", f"{g.two_hop_p50_ms:.1f}",
                                f"{g.two_hop_p95_ms:.1f}")
        console.print(graph_table)
    if turn_rows:
        from wave_agent.bench.turn import render

        console.print(f"Pre-LLM turn, one person, {turn:,} facts on a Qdrant server "
                      f"(graph load {turn_info.get('graph_load_s')} s, archive load "
                      f"{turn_info.get('archive_load_s')} s, index wait "
                      f"{turn_info.get('index_wait_s')} s):")
        console.print(render(turn_rows))
        voices = turn_info.get("recall_voices_ms") or {}
        if voices:
            console.print("recall voices, p50 / p95 ms: " + ", ".join(
                f"{name} {p50:.0f} / {p95:.0f}" for name, (p50, p95) in voices.items()))
    if out:
        _save(out, rows, load, vectors.dim, pool, graph_rows, turn_rows, turn_info)


def _turn_rows(cfg: Any, count: int, pool: int, binary: Path, scratch: Path,
               progress: Any) -> tuple[list[Any], dict[str, Any]]:
    from wave_agent.bench.scale import run_sync
    from wave_agent.bench.turn_scale import bench_turn_at_scale
    from wave_agent.infra import localqdrant

    server = localqdrant.start(scratch / "turn-server", binary=binary)
    try:
        # Its own data directory (sessions, outbox) and server; the graph is the configured one.
        turn_cfg = cfg.model_copy(update={
            "data_dir": scratch / "turn-data", "qdrant_url": server.url,
            "qdrant_grpc_port": server.grpc_port, "neo4j_uri": cfg.effective_neo4j_uri})
        figures, info = run_sync(bench_turn_at_scale(turn_cfg, count, pool_size=pool,
                                                     progress=progress))
        info["server_memory_mb"] = round(localqdrant_rss(server.pid), 1)
        return figures, info
    finally:
        server.stop()


def localqdrant_rss(pid: int) -> float:
    from wave_agent.bench.scale import rss_mb

    return rss_mb(pid)


async def _graph_rows(cfg: Any, sizes: list[int], queries: int, progress: Any) -> list[Any]:
    from graph.store import GraphStore
    from wave_agent.bench.graph_scale import measure_graph

    try:
        store = await GraphStore.connect(cfg.effective_neo4j_uri, cfg.neo4j_user,
                                         cfg.neo4j_password)
        await store.ensure_schema()
    except Exception as exc:  # the archive rows stand on their own: say why, go on
        err_console.print(f"[yellow]graph rows skipped: Neo4j at {cfg.effective_neo4j_uri} "
                          f"({type(exc).__name__}: {exc}); start it with `wave services up` "
                          "or set NEO4J_URI[/]")
        return []
    try:
        return [await measure_graph(store, n, queries=queries, progress=progress) for n in sizes]
    finally:
        await store.close()


def _save(out: Path, rows: list[Any], load: tuple[float, float, float], dim: int, pool: int,
          graph_rows: list[Any], turn_rows: list[Any] | None = None,
          turn_info: dict[str, Any] | None = None) -> None:
    from dataclasses import asdict

    from wave_agent.bench.scale import as_json

    out.write_text(json.dumps({"dim": dim, "pool": pool, "load_at_start": load,
                               "load_now": os.getloadavg(), "rows": as_json(rows),
                               "graph": [asdict(g) for g in graph_rows],
                               "turn": [asdict(t) for t in turn_rows or []],
                               "turn_load": turn_info or {}}, indent=2))
