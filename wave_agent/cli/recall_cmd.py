"""``wave recall``, ``wave reindex`` and ``wave bench locomo``.

``wave recall`` shows why each record came up (its rank in every voice); ``wave reindex``
rebuilds the semantic archive from the graph (the system of record) and checks drift;
``wave bench locomo`` measures recall against plain baselines on LoCoMo.
"""

from __future__ import annotations

import asyncio
import json
import tempfile
from collections.abc import AsyncIterator, Callable, Coroutine
from contextlib import asynccontextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import typer
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from wave_agent.app.views import found_by
from wave_agent.cli import app, bench_app
from wave_agent.cli.common import (
    ALSO_ADAPTER_OPTION,
    ALSO_CONFIG_OPTION,
    AT_OPTION,
    JSON_OPTION,
    USER_OPTION,
    console,
    emit_json,
    err_console,
    run,
    settings,
    use_at,
    user_or_default,
)
from wave_agent.errors import WaveError
from wave_agent.policy.edge_input import refuse_not_utf8
from wave_agent.services import Services

if TYPE_CHECKING:
    from archive.store import ArchiveStore
    from wave_agent.settings import Settings

T = TypeVar("T")



def _layer_errors(fn: Callable[[], Coroutine[Any, Any, T]]) -> T:
    """Run ``fn``; a layer error (graph, archive) is a ``WaveError`` and ends as one line with
    its next step (``wave_agent.cli.main``)."""
    return run(fn())


def _locked_archive(exc: Exception) -> WaveError:
    return WaveError(
        "The semantic archive is held by another Wave process (usually `wave run`): Qdrant's "
        f"local mode lets one process open {settings().qdrant_local_path} at a time",
        next_step="stop `wave run` and run this again, or set QDRANT_URL to a Qdrant server "
                  "both can share; records written meanwhile are flagged and `wave reindex` "
                  "picks them up",
    )


# -- wave recall ------------------------------------------------------------------------------


@app.command()
def recall(
    query: str = typer.Argument(..., help="What to look for, in your own words."),
    k: int = typer.Option(5, "--k", "-k", min=1, max=100, help="How many records."),
    history: bool = typer.Option(False, "--history", help="Include superseded and archived records."),
    preset: str | None = typer.Option(None, "--preset",
                                      help="default, temporal, history or entity (default: by intent)."),
    user: str | None = USER_OPTION,
    as_json: bool = JSON_OPTION,
    at: str | None = AT_OPTION,
) -> None:
    """Search memory the way the agent does, and show each voice's rank."""
    use_at(at)
    from wave_agent.recall import hit_json

    refuse_not_utf8(query, "The search text")
    if not query.strip():
        raise WaveError("Nothing to search for", next_step='give words: `wave recall "where does Anna work"`')
    user_id = user_or_default(user)

    async def go() -> tuple[list[Any], Any, Any]:
        async with Services(settings(), autostart_neo4j=True) as services:
            # the model loads (in a thread) while recall opens its stores; a cold model load
            # is not the semantic voice's time
            loading = asyncio.create_task(services.embedder().load())
            try:
                engine = await services.recall()
            finally:
                await loading
            hits = await engine.search(user_id, query, k=k, history=history, preset=preset)
            return hits, hits.degraded, hits.preset

    hits, degraded, chosen = _layer_errors(go)
    for voice, reason in degraded.reasons.items():
        err_console.print(f"[yellow]recall answered without the {voice} voice: {reason}[/]")
    if as_json:
        emit_json([hit_json(h) for h in hits])
        return
    if not hits:
        console.print("No records found. Try other words, or --history for replaced records.")
        return
    table = Table(title=f"recall: {query!r} (preset {chosen.name if chosen else '?'})")
    for column in ("#", "score", "tier / status", "text", "found by (rank)"):
        table.add_column(column, overflow="fold")
    for n, hit in enumerate(hits, 1):
        fact = hit.fact
        table.add_row(
            str(n), f"{hit.score:.4f}", f"{fact.tier.value} / {fact.status.value}",
            f"{fact.text[:160]}\n[dim]{fact.id}[/]", found_by(hit.ranks),
        )
    console.print(table)


# -- wave reindex -------------------------------------------------------------------------------


async def _drift(services: Services, user_id: str) -> dict[str, list[str]]:
    """The same drift check maintenance repairs and health reports (one definition)."""
    from wave_agent.ops.maintenance.drift import index_drift

    drift = await index_drift(await services.graph(), await services.archive(), user_id)
    return {
        "facts_without_vectors": list(drift.missing),
        "vectors_without_facts": list(drift.orphans),
        "pending_index": list(drift.flagged),
    }


async def rebuild(services: Services, user_id: str, archive: ArchiveStore,
                  advance: Callable[[int, int], None]) -> dict[str, Any]:
    """Re-send every record of the user (all statuses) to the archive, drop vectors without a
    record, and clear the writer's ``needs_index`` flags."""
    graph = await services.graph()
    writer = await services.writer()
    embedder = services.embedder()
    facts = await graph.list_facts(user_id)
    batch = 64
    advance(0, len(facts))
    for start in range(0, len(facts), batch):
        chunk = facts[start:start + batch]
        vectors = await embedder.embed([f.text for f in chunk])
        await writer.archive.upsert(user_id, chunk, vectors)
        advance(min(start + batch, len(facts)), len(facts))
    drift = await _drift(services, user_id)
    stale = drift["vectors_without_facts"]
    if stale:
        await archive.delete(user_id, stale)
    cleared = await writer.repair_index(user_id)
    return {"user": user_id, "indexed": len(facts), "removed_vectors": len(stale),
            "cleared_pending": cleared}


@app.command()
def reindex(
    user: str | None = USER_OPTION,
    check: bool = typer.Option(False, "--check", help="Only list drift; change nothing."),
    to_server: str | None = typer.Option(
        None, "--to-server", metavar="URL",
        help="Move the archive to this Qdrant server (every person unless --user); then set "
             "QDRANT_URL to it."),
    as_json: bool = JSON_OPTION,
) -> None:
    """Rebuild the semantic archive from the graph (every status, so history stays findable)."""
    from archive.errors import ArchiveLocked

    if to_server is not None:
        from wave_agent.cli.move_cmd import reindex_to_server

        reindex_to_server(to_server, user=user, as_json=as_json)
        return
    user_id = user_or_default(user)

    async def go() -> dict[str, Any]:
        async with Services(settings(), autostart_neo4j=True) as services:
            try:
                archive = await services.archive()
                await archive.open()  # local mode: fails now, not halfway, when the lock is held
            except ArchiveLocked as exc:
                raise _locked_archive(exc) from exc
            if check:
                return await _drift(services, user_id)
            with Progress(TextColumn("[bold]reindex[/] {task.description}"), BarColumn(),
                          MofNCompleteColumn(), TimeElapsedColumn(), console=err_console,
                          transient=as_json) as bar:
                task = bar.add_task(user_id, total=None)

                def advance(done: int, total: int) -> None:
                    bar.update(task, completed=done, total=total)

                return await rebuild(services, user_id, archive, advance)

    result = _layer_errors(go)
    if as_json:
        emit_json(result)
        return
    if check:
        clean = not any(result.values())
        for name, ids in result.items():
            label = name.replace("_", " ")
            console.print(f"{label}: {len(ids)}" + (f"  {', '.join(ids[:20])}" if ids else ""))
        console.print("archive and graph agree" if clean
                      else "drift found: `wave reindex` repairs it")
        if not clean:
            raise typer.Exit(1)
        return
    console.print(f"reindexed {result['indexed']} records for {result['user']}; removed "
                  f"{result['removed_vectors']} vectors without records; "
                  f"{result['cleared_pending']} pending records now indexed")


# -- wave bench locomo --------------------------------------------------------------------------


DATA_OPTION = typer.Option(..., "--data", exists=True, file_okay=False,
                           help="Directory with LoCoMo conv-*.json files.")
ONLY_OPTION = typer.Option([], "--only", help="Only these conversations (e.g. conv-26).")
DETAILS_OPTION = typer.Option(None, "--details", dir_okay=False,
                              help="Also write per-conversation and per-category figures, and each "
                                   "question's first rank per system, here.")
FEATURES_OPTION = typer.Option(None, "--features", dir_okay=False,
                               help="Append each question's candidates and learned-ranker "
                                    "features here (scripts/train_ranker.py reads them).")


@asynccontextmanager
async def bench_services(
    base: Settings, prefix: str
) -> AsyncIterator[tuple[Services, Callable[[str, int, int], None]]]:
    """Services for a benchmark, on a scratch archive (a benchmark never touches, or waits for,
    the person's one), and a progress bar on stderr fed by ``progress(label, done, total)``."""
    with tempfile.TemporaryDirectory(prefix=prefix) as scratch:
        bench_settings = base.model_copy(update={"qdrant_path": Path(scratch) / "qdrant",
                                                 "qdrant_url": None})
        async with Services(bench_settings, autostart_neo4j=True) as services:
            with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                          TimeElapsedColumn(), console=err_console, transient=True) as bar:
                task = bar.add_task("loading", total=1)

                def progress(label: str, done: int, total: int) -> None:
                    bar.update(task, description=label, completed=done, total=max(total, 1))

                yield services, progress


@bench_app.command("locomo")
def bench_locomo(
    data: Path = DATA_OPTION,
    conversations: int | None = typer.Option(None, "--conversations", min=1,
                                             help="Only the first N conversations."),
    only: list[str] = ONLY_OPTION,
    keep: bool = typer.Option(False, "--keep", help="Keep the benchmark users' records."),
    details: Path | None = DETAILS_OPTION,
    features: Path | None = FEATURES_OPTION,
    graph_voice: bool = typer.Option(True, "--graph-voice/--no-graph-voice",
                                     help="--no-graph-voice: the ablation, recall without the "
                                          "graph walk."),
    also_adapter: list[str] = ALSO_ADAPTER_OPTION,
    also_config: list[str] = ALSO_CONFIG_OPTION,
    voice_timeout: float | None = typer.Option(
        None, "--voice-timeout", min=0.1, help="Each recall voice's timeout in seconds "
                                                "(default: the product's 1 s)."),
    as_json: bool = JSON_OPTION,
) -> None:
    """Recall@1/5/10 and latency of Wave vs BM25, dense and context RRF on LoCoMo."""
    from wave_agent.bench.locomo import run_benchmark
    from wave_agent.bench.longmemeval import parse_variant

    variants = dict(parse_variant(v) for v in also_config)
    base = settings()

    async def go() -> dict[str, Any]:
        async with bench_services(base, "wave-locomo-") as (services, progress):
            return await run_benchmark(data, services=services, conversations=conversations,
                                       names=only or None, progress=progress, keep=keep,
                                       features=features, graph_voice=graph_voice,
                                       also_adapter=also_adapter,
                                       voice_timeout_s=voice_timeout, also_config=variants)

    summary = _layer_errors(go)
    extra = summary.pop("_extra", {})
    if details:
        details.write_text(json.dumps({**summary, **extra}, indent=2), encoding="utf-8")
    if as_json:
        typer.echo(json.dumps(summary))
        return
    table = Table(title=f"LoCoMo recall ({summary['questions']} questions, categories 1-4)")
    for column in ("system", "R@1", "R@5", "R@10", "MRR"):
        table.add_column(column)
    for system in ("wave", "bm25", "dense", "context_rrf"):
        row = summary[system]
        table.add_row(system, *(f"{row[k]:.1f}" for k in ("R@1", "R@5", "R@10")),
                      f"{row['MRR']:.3f}")
    console.print(table)
    lat = summary["latency_ms"]
    console.print(f"latency ms: wave p50 {lat['wave']['p50']} p95 {lat['wave']['p95']}; "
                  f"dense p50 {lat['dense']['p50']} p95 {lat['dense']['p95']}")
    if extra:
        console.print(f"wave R@10 by category: {extra.get('wave_R@10_by_category')}; "
                      f"conversations: {', '.join(extra.get('conversations', []))}; "
                      f"questions answered with a voice missing: {extra.get('degraded_questions')}")
