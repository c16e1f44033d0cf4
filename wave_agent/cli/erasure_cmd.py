"""``wave delete ID`` (a record or a proposal, from every layer) and ``wave forget-me`` (the
whole person, from every layer and file, after a confirmation that names what will be lost).

Both print what went, layer by layer (``--json``: one object, ``removed`` per layer).
"""

from __future__ import annotations

import typer

from wave_agent.cli import app
from wave_agent.cli.common import (
    JSON_OPTION,
    USER_OPTION,
    console,
    emit_json,
    err_console,
    run,
    settings,
    user_or_default,
)
from wave_agent.errors import WaveError
from wave_agent.ops.erasure import ErasureReport
from wave_agent.services import Services

YES_OPTION = typer.Option(False, "--yes", "-y", help="Do not ask (for scripts).")


def _print(report: ErasureReport, as_json: bool) -> None:
    if as_json:
        emit_json(report.as_json())
    else:
        for line in report.lines():
            console.print(line, markup=False, highlight=False)
    for pending in report.pending:
        err_console.print(f"pending: {pending}", markup=False, highlight=False)


@app.command("delete")
def delete(
    record_id: str = typer.Argument(..., metavar="ID",
                                    help="A record (f-…, any status) or a proposal (p-…)."),
    user: str | None = USER_OPTION,
    as_json: bool = JSON_OPTION,
) -> None:
    """Erase a record or a proposal from every layer (cannot be undone)."""
    record_id = record_id.strip()
    if not record_id or " " in record_id:
        raise WaveError("give one id", next_step="`wave facts` and `wave proposals` list them")
    user_id = user_or_default(user)

    async def go() -> ErasureReport:
        async with Services(settings(), autostart_neo4j=True) as services:
            return await (await services.eraser()).delete(user_id, record_id)

    _print(run(go()), as_json)


def _describe(counts: dict[str, int]) -> str:
    shown = [f"{n if n >= 0 else 'unknown number of'} {what}" for what, n in counts.items() if n]
    return ", ".join(shown) if shown else "nothing stored yet"


@app.command("forget-me")
def forget_me(
    user: str | None = USER_OPTION,
    yes: bool = YES_OPTION,
    as_json: bool = JSON_OPTION,
) -> None:
    """Erase everything Wave holds about the person, from every layer and file."""
    user_id = user_or_default(user)

    async def counts() -> dict[str, int]:
        async with Services(settings(), autostart_neo4j=True) as services:
            return await (await services.eraser()).what_would_go(user_id)

    if not yes:
        lost = _describe(run(counts()))
        err_console.print(
            f"This erases everything Wave holds about {user_id}: {lost}; core blocks with "
            "their history, conversations, exports Wave wrote. It cannot be undone "
            "(`wave export` first keeps a copy).", markup=False, highlight=False)
        try:
            agreed = typer.confirm("Erase it all?", default=False, err=True)
        except typer.Abort:  # no answer (end of input): the safe reading is "no"
            agreed = False
        if not agreed:
            err_console.print("Nothing was erased. Next: answer y, or pass --yes in a script.",
                              markup=False)
            raise typer.Exit(1)

    async def go() -> ErasureReport:
        async with Services(settings(), autostart_neo4j=True) as services:
            return await (await services.eraser()).forget_person(user_id)

    report = run(go())
    _print(report, as_json)
