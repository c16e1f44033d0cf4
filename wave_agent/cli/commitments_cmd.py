"""``wave commitments``: open promises by due time; ``done``, ``cancel``, ``move`` one."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, TypeVar

import typer
from rich.markup import escape
from rich.table import Table

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

if TYPE_CHECKING:
    from graph.commitments import Commitment
    from wave_agent.commitments.ledger import Commitments
    from wave_agent.write.writer import Writer

T = TypeVar("T")
ALL_OPTION = typer.Option(False, "--all", help="Also the done, cancelled and missed ones.")


async def _ledger_call(fn: Callable[[Commitments], Awaitable[T]]) -> T:
    from wave_agent.services import Services

    async with Services(settings(), autostart_neo4j=True) as services:
        return await fn(await services.commitments())


@app.command("commitments")
def commitments_command(
    action: str = typer.Argument("list", help="list, add, done, cancel, reopen, tomorrow, week "
                                              "or move."),
    commitment_id: str | None = typer.Argument(None, help="The commitment (m-…); for add, "
                                                          "the promise in words."),
    when: str | None = typer.Argument(None, help="move: the new date in words, e.g. "
                                                 "'в пятницу в 10'."),
    all_states: bool = ALL_OPTION,
    user: str | None = USER_OPTION,
    as_json: bool = JSON_OPTION,
) -> None:
    """Open commitments by due time (`wave commitments`), or close/move one
    (`wave commitments done m-…`, `wave commitments move m-… "в субботу"`)."""
    from graph.commitments import CommitmentState
    from wave_agent.app.commitments import ACTIONS, act, add, commitment_json
    from wave_agent.commitments import words
    from wave_agent.errors import ConfigError

    user_id = user_or_default(user)
    if action == "list":
        states = None if all_states else (CommitmentState.OPEN,)
        found = run(_ledger_call(lambda ledger: ledger.graph.list_commitments(user_id, states)))
        if as_json:
            emit_json([commitment_json(c) for c in found])
            return
        table = Table(title=f"{len(found)} commitment(s) of {user_id}", expand=True)
        for column in ("id", "due", "state"):
            table.add_column(column, no_wrap=True)
        table.add_column("text", overflow="fold", ratio=1)
        for c in found:
            lang = words.lang_of(c.text)
            table.add_row(c.id, words.when(c.due_at, c.timezone, lang), c.state.value,
                          escape(c.text + ("  [date asked]" if c.needs_date else "")))
        console.print(table)
        return
    if action == "add":
        if not commitment_id:
            raise ConfigError("TEXT", "nothing to add",
                              "wave commitments add 'до 15-го оплатить садик'")
        text = commitment_id
        changed = run(_with_writer(lambda writer, ledger: add(writer, ledger, user_id, text)))
        _show(changed, as_json)
        return
    if action not in ACTIONS:
        raise ConfigError("ACTION", f"unknown action {action!r}",
                          "use list, " + ", ".join(ACTIONS))
    if not commitment_id:
        raise ConfigError("ID", "no commitment id given", "list them with `wave commitments`")
    changed = run(_ledger_call(lambda ledger: act(ledger, user_id, commitment_id, action, when)))
    _show(changed, as_json)


def _show(changed: Commitment, as_json: bool) -> None:
    from wave_agent.app.commitments import commitment_json
    from wave_agent.commitments import words

    if as_json:
        emit_json(commitment_json(changed))
        return
    lang = words.lang_of(changed.text)
    asked = "  (the date is unclear: move it to a day)" if changed.needs_date else ""
    typer.echo(f"{changed.id} {changed.state.value}, "
               f"{words.when(changed.due_at, changed.timezone, lang)}: {changed.text}{asked}")


async def _with_writer(fn: Callable[[Writer, Commitments], Awaitable[T]]) -> T:
    from wave_agent.services import Services

    async with Services(settings(), autostart_neo4j=True) as services:
        return await fn(await services.writer(), await services.commitments())
