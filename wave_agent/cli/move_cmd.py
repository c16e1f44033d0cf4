"""``wave reindex --to-server URL``: move an install's semantic archive to a Qdrant server.

The graph is the source (``wave_agent.ops.archive_move``); the old archive only lends the vectors
it already has, so nothing is lost and nothing is taken from it that the graph does not hold.
"""

from __future__ import annotations

from typing import Any

from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from wave_agent.cli.common import console, emit_json, err_console, run, settings
from wave_agent.errors import ConfigError, WaveError
from wave_agent.services import Services


def _target_url(url: str) -> str:
    from wave_agent.settings import Settings

    try:
        return str(Settings(_env_file=None, qdrant_url=url).qdrant_url)  # type: ignore[call-arg]
    except ValueError as exc:
        raise ConfigError(
            "--to-server", f"{url!r} is not an http(s) URL",
            "give the server's URL, e.g. `wave reindex --to-server http://127.0.0.1:6333`",
        ) from exc


def reindex_to_server(url: str, *, user: str | None, as_json: bool) -> None:
    from archive.errors import ArchiveError, ArchiveLocked
    from archive.store import ArchiveStore
    from wave_agent.ops.archive_move import move_archive

    target_url = _target_url(url)
    base = settings()
    if base.qdrant_url == target_url:
        raise WaveError(f"QDRANT_URL already is {target_url}: this install uses that server",
                        next_step="`wave reindex` rebuilds it from the graph")

    async def go() -> dict[str, Any]:
        async with Services(base, autostart_neo4j=True) as services:
            graph = await services.graph()
            embedder = services.embedder()
            source: ArchiveStore | None = None
            if base.qdrant_url or base.qdrant_local_path.exists():
                try:
                    source = await services.archive()
                    await source.open()
                except ArchiveLocked as exc:
                    raise WaveError(
                        "The local archive is held by another Wave process (usually `wave run`); "
                        "what it writes during the move would stay behind",
                        next_step="stop `wave run`, run this again, then set QDRANT_URL and start it",
                    ) from exc
                except ArchiveError as exc:
                    err_console.print(f"[yellow]old archive unreadable ({exc}); every record is "
                                      "embedded again from the graph[/]")
                    source = None
            target = ArchiveStore.server(target_url, api_key=base.qdrant_api_key,
                                         grpc_port=base.qdrant_grpc_port,
                                         model_name=embedder.model_name, dim=embedder.dim,
                                         embedder=embedder, timeout_s=60.0)
            try:
                await target.open()
                with Progress(TextColumn("[bold]to server[/] {task.description}"), BarColumn(),
                              MofNCompleteColumn(), TimeElapsedColumn(), console=err_console,
                              transient=as_json) as bar:
                    task = bar.add_task(target_url, total=None)

                    def advance(done: int, total: int) -> None:
                        bar.update(task, completed=done, total=total)

                    report = await move_archive(graph, target, embedder, source=source,
                                                users=[user] if user else None, progress=advance)
            finally:
                await target.close()
            return report.as_json()

    result = run(go())
    if as_json:
        emit_json(result)
    else:
        console.print(
            f"moved {result['records']} records of {result['users']} people to {target_url} "
            f"({result['copied_vectors']} vectors copied, {result['embedded']} embedded; "
            f"{result['removed_vectors']} stale vectors removed, {result['cleared_pending']} "
            "pending records indexed)")
    if result["missing"]:
        lacking = sum(len(ids) for ids in result["missing"].values())
        raise WaveError(f"{lacking} records are still missing on {target_url}",
                        next_step=f"run `wave reindex --to-server {target_url}` again")
    if not as_json:
        where = base.qdrant_url or base.qdrant_local_path
        console.print(f"Next: set QDRANT_URL={target_url} (environment or .env) for every Wave "
                      f"process; {where} is left as it was")
