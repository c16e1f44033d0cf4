"""``wave maintain`` (the maintenance jobs once), ``wave health`` (the health report,
contradictions first) and ``wave reflect`` (memory_reflect). Thin: the same functions the
scheduler and the bot call."""

from __future__ import annotations

from typing import Any

import typer
from rich.markup import escape

from wave_agent.cli import app
from wave_agent.cli.common import (
    JSON_OPTION,
    USER_OPTION,
    console,
    emit_json,
    run,
    settings,
    user_or_default,
)
from wave_agent.errors import WaveError
from wave_agent.policy.edge_input import refuse_not_utf8
from wave_agent.services import Services

# The job names, written out so that `wave --help` does not import the jobs (numpy, scipy,
# the stemmers: most of its start-up); a unit test keeps them equal to the runner's JOB_NAMES.
JOB_NAMES_FOR_HELP = ("expire", "archive-stale", "promote", "duplicates", "generalise", "review",
                      "drift", "world", "compress", "blocks", "erasure")


def _job_help() -> str:
    return f"Run only this job (repeatable): {', '.join(JOB_NAMES_FOR_HELP)}."


@app.command("maintain")
def maintain_command(
    job: list[str] = typer.Option(None, "--job", "-j", help=_job_help()),  # noqa: B008
    dry_run: bool = typer.Option(False, "--dry-run", help="Report what would change; change nothing."),
    user: str | None = typer.Option(None, "--user", "-u", help="Only this user (default: everyone)."),
    as_json: bool = JSON_OPTION,
) -> None:
    """Run memory maintenance once: archive, expire, promote, propose, review, repair, compress,
    apply core-block updates queued while Letta was down."""
    from wave_agent.ops.maintenance.runner import run_maintenance, select

    select(job)  # refuse an unknown job name before opening any store

    async def go() -> list[Any]:
        async with Services(settings(), autostart_neo4j=True) as services:
            return await run_maintenance(services.ops_stores(), jobs=job, dry_run=dry_run,
                                         user_ids=[user] if user else None)

    reports = run(go())
    if as_json:
        emit_json({"dry_run": dry_run, "jobs": [r.as_json() for r in reports]})
    else:
        if dry_run:
            console.print("[bold]dry run[/]: nothing was changed")
        for report in reports:
            style = "red" if report.errors else "green" if report.actions else "dim"
            console.print(f"[{style}]{escape(report.summary())}[/]")
            for action in report.actions:
                ids = ", ".join(action.ids)
                console.print(f"  {escape(action.kind)} {escape(action.user_id)} \\[{escape(ids)}] "
                              f"{escape(action.detail)}", highlight=False)
            for error in report.errors:
                console.print(f"  [red]error[/]: {escape(error)}", highlight=False)
    if any(r.errors for r in reports):
        raise typer.Exit(1)


@app.command("health")
def health_command(
    user: str | None = typer.Option(None, "--user", "-u", help="Only this user (default: everyone)."),
    as_json: bool = JSON_OPTION,
) -> None:
    """The state of memory: contradictions first, then counts, drift, queues and backlog."""
    from wave_agent.ops.health import health_report, render_rich

    async def go() -> Any:
        async with Services(settings(), autostart_neo4j=True) as services:
            return await health_report(services.ops_stores(), user)

    report = run(go())
    if as_json:
        emit_json(report.as_json())
    else:
        render_rich(report, console)


@app.command("reflect")
def reflect_command(
    question: str = typer.Argument(..., help="e.g. \"how has my attitude to work changed?\""),
    user: str | None = USER_OPTION,
    as_json: bool = JSON_OPTION,
) -> None:
    """A 2-5 paragraph narrative from memory, citing dates and record ids (offline: a timeline)."""
    refuse_not_utf8(question, "The question")
    if not question.strip():
        raise WaveError("reflect needs a question",
                        next_step='ask one, e.g. `wave reflect "how has my work changed?"`')
    uid = user_or_default(user)

    async def go() -> Any:
        async with Services(settings(), autostart_neo4j=True) as services:
            return await (await services.reflect()).reflect(uid, question)

    result = run(go())
    if as_json:
        emit_json(result.as_json())
    else:
        console.print(result.text, markup=False, highlight=False)
