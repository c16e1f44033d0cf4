"""A person's memory commands: remember, facts, supersede, forget, restore, delete, pin,
proposals, approve, reject, quarantine. The bot's commands call the same ``Writer`` methods.

Every write goes through ``Services.writer()``. When ``wave run`` holds the local Qdrant
directory, writes still land in the graph; the archive update is left pending (said on
stderr) for ``wave reindex`` / maintenance.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any, TypeVar

import typer
from rich.markup import escape
from rich.table import Table

from graph.models import Fact, FactType, Proposal, Status, Tier, new_id
from wave_agent.app.decisions import decide
from wave_agent.app.views import fact_json, proposal_json
from wave_agent.cli import app
from wave_agent.cli.common import (
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
from wave_agent.services import Services
from wave_agent.write.result import ArchiveState, WriteRejected, WriteResult

if TYPE_CHECKING:  # the writer (and numpy under it) loads when a command writes
    from wave_agent.write.writer import Writer

T = TypeVar("T")

TYPES = ", ".join(t.value for t in FactType)
TIERS = ", ".join(t.value for t in Tier)
STATUSES = ", ".join(s.value for s in Status)


def _with_writer(fn: Callable[[Writer], Awaitable[T]]) -> T:
    async def with_writer(services: Services) -> T:
        return await fn(await services.writer())

    return _with_services(with_writer)


def _with_services(fn: Callable[[Services], Awaitable[T]]) -> T:
    async def go() -> T:
        async with Services(settings(), autostart_neo4j=True) as services:
            return await fn(services)

    return run(go())  # graph/archive errors are WaveErrors: one line with their next step


def _choice(kind: Any, value: str | None, option: str, allowed: str) -> Any:
    if value is None:
        return None
    try:
        return kind(value.strip().lower())
    except ValueError as exc:
        raise WriteRejected(f"{option} {value!r} is not known", next_step=f"use one of: {allowed}") from exc


def _report(result: WriteResult, as_json: bool) -> None:
    if result.archive is ArchiveState.PENDING:
        err_console.print(
            "[yellow]archive update pending[/]: the record is saved in the graph; the semantic "
            "archive was unavailable"
            + (f" ({result.archive_problem})" if result.archive_problem else "")
            + ". `wave reindex` (or the next maintenance run) brings it up to date.",
            markup=True, highlight=False, soft_wrap=True,
        )
    if as_json:
        emit_json(result.as_json())
    else:
        console.print(result.message, markup=False, highlight=False)


def _facts_table(facts: list[Fact], title: str) -> Table:
    table = Table(title=title, show_lines=False, expand=True)
    for col in ("id", "tier/status", "type", "×", "created"):
        table.add_column(col, no_wrap=True)
    table.add_column("text", overflow="fold", ratio=1)
    for f in facts:
        note = f.text
        if f.superseded_by:
            note += f"  → replaced by {f.superseded_by}"
        if f.supersedes:
            note += f"  (replaces {f.supersedes})"
        if f.quarantine_reason and f.status is Status.QUARANTINED:
            note += f"  [{f.quarantine_reason}]"
        table.add_row(f.id, f"{f.tier.value}/{f.status.value}", f.type.value,
                      str(f.mention_count), f.created_at.date().isoformat(), escape(note))
    return table


# -- writes ----------------------------------------------------------------------------------


@app.command()
def remember(
    text: str = typer.Argument(..., help="What to remember (a longer text than 2,000 characters is kept in pieces)."),
    type: str | None = typer.Option(None, "--type", "-t", help=f"One of: {TYPES}."),
    pin: bool = typer.Option(False, "--pin", help="Vouch for it: a fact at once (identity: core)."),
    user: str | None = USER_OPTION,
    as_json: bool = JSON_OPTION,
    at: str | None = AT_OPTION,
) -> None:
    """Remember a fact: created, confirmed (a near-duplicate), proposed, or quarantined."""
    use_at(at)
    kind = _choice(FactType, type, "--type", TYPES)
    from wave_agent.write.writer import check_text

    check_text(text)  # refused before any store is opened
    user_id = user_or_default(user)
    result = _with_writer(lambda w: w.remember(
        user_id, text, type=kind, pin=pin, exchange_id=new_id("cli")))
    _report(result, as_json)


@app.command()
def supersede(
    old_id: str = typer.Argument(..., help="The record this replaces (ids from `wave facts`)."),
    text: str = typer.Argument(..., help="The new text."),
    user: str | None = USER_OPTION,
    as_json: bool = JSON_OPTION,
) -> None:
    """Replace a record with a new one; the old one stays findable in its history."""
    from wave_agent.write.writer import check_record_text, check_supersede_target

    check_supersede_target(old_id, text)
    check_record_text(text)
    user_id = user_or_default(user)
    result = _with_writer(lambda w: w.supersede(user_id, old_id, text,
                                                exchange_id=new_id("cli")))
    _report(result, as_json)


def _single(name: str, doc: str) -> None:
    def command(
        record_id: str = typer.Argument(..., metavar="ID", help="Record or proposal id."),
        user: str | None = USER_OPTION,
        as_json: bool = JSON_OPTION,
    ) -> None:
        user_id = user_or_default(user)
        result = _with_writer(lambda w: getattr(w, name)(user_id, record_id.strip()))
        _report(result, as_json)

    command.__doc__ = doc
    app.command(name)(command)


_single("forget", "Archive a record (reversible with `wave restore`).")
_single("restore", "Bring an archived record back.")
# `delete` erases from every layer: wave_agent/cli/erasure_cmd.py
_single("pin", "Vouch for a record: it becomes a fact (identity: core).")


def _decision(name: str, doc: str, *, approve: bool) -> None:
    def command(
        record_id: str = typer.Argument(..., metavar="ID", help="Proposal or quarantined record id."),
        user: str | None = USER_OPTION,
        as_json: bool = JSON_OPTION,
    ) -> None:
        user_id = user_or_default(user)

        async def decided(services: Services) -> WriteResult:
            return await decide(await services.writer(), services.eraser, user_id, record_id,
                                approve=approve)

        _report(_with_services(decided), as_json)

    command.__doc__ = doc
    app.command(name)(command)


# approving a deletion proposal erases the record from every layer, as `wave delete` does
_decision("approve", "Carry out a proposal (p-…) or release a quarantined record (f-…).",
          approve=True)
_decision("reject", "Decline a proposal, or archive a quarantined record.", approve=False)


# -- reads -----------------------------------------------------------------------------------


@app.command()
def facts(
    tier: str | None = typer.Option(None, "--tier", help=f"Only this tier: {TIERS}."),
    status: str | None = typer.Option(None, "--status", help=f"Only this status: {STATUSES}."),
    user: str | None = USER_OPTION,
    as_json: bool = JSON_OPTION,
) -> None:
    """Every record of the person, whatever its status (filter with --tier/--status)."""
    tier_v = _choice(Tier, tier, "--tier", TIERS)
    status_v = _choice(Status, status, "--status", STATUSES)
    user_id = user_or_default(user)

    async def listed(services: Services) -> list[Fact]:  # a read: the graph alone, no archive
        return await (await services.graph()).list_facts(
            user_id, tiers=[tier_v] if tier_v else None, statuses=[status_v] if status_v else None)

    found = _with_services(listed)
    if as_json:
        emit_json([fact_json(f) for f in found])
    elif not found:
        console.print(f"No records for user {user_id}. Add one with `wave remember \"...\"`.",
                      markup=False)
    else:
        console.print(_facts_table(found, f"{len(found)} records of {user_id}"))


@app.command()
def proposals(
    user: str | None = USER_OPTION,
    as_json: bool = JSON_OPTION,
) -> None:
    """Pending proposals (supersession, merges...): `wave approve ID` or `wave reject ID`."""
    user_id = user_or_default(user)

    async def go(w: Writer) -> tuple[list[Proposal], dict[str, Fact]]:
        pending = await w.graph.list_proposals(user_id)
        ids = [t for p in pending for t in p.target_ids]
        return pending, {f.id: f for f in await w.graph.get_facts(user_id, ids)}

    pending, targets = _with_writer(go)
    if as_json:
        emit_json([proposal_json(p, targets) for p in pending])
        return
    if not pending:
        console.print("No pending proposals.", markup=False)
        return
    table = Table(title=f"{len(pending)} pending proposals")
    for col in ("id", "kind", "replaces", "new text", "reason"):
        table.add_column(col, overflow="fold")
    for p in pending:
        olds = "; ".join(f"{t}: {targets[t].text}" if t in targets else t for t in p.target_ids)
        table.add_row(p.id, p.kind.value, escape(olds), escape(p.text or ""), escape(p.reason))
    console.print(table)
    console.print("Approve with `wave approve ID`, decline with `wave reject ID`.", markup=False)


@app.command()
def quarantine(
    user: str | None = USER_OPTION,
    as_json: bool = JSON_OPTION,
) -> None:
    """Records held back as instruction-like, with what looked suspicious."""
    user_id = user_or_default(user)
    held: list[Fact] = _with_writer(
        lambda w: w.graph.list_facts(user_id, statuses=[Status.QUARANTINED]))
    if as_json:
        emit_json([fact_json(f) for f in held])
    elif not held:
        console.print("Nothing in quarantine.", markup=False)
    else:
        console.print(_facts_table(held, f"{len(held)} quarantined records"))
        console.print("Release with `wave approve ID`; archive with `wave reject ID`; erase "
                      "with `wave delete ID`.", markup=False)
