"""``wave blocks show|history|revert``: the core blocks (``human``, ``persona``) and their versions."""

from __future__ import annotations

import typer
from rich.table import Table

from wave_agent.blocks.store import LABELS, Block, BlockVersion, check_label
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
from wave_agent.services import Services

blocks_app = typer.Typer(
    help="Core blocks: the person's portrait (human) and Wave's own profile (persona).",
    no_args_is_help=True,
)
app.add_typer(blocks_app, name="blocks")

LABEL_HELP = f"Which block: {', '.join(LABELS)}."


def _block_json(block: Block) -> dict[str, object]:
    return {
        "user_id": block.user_id,
        "label": block.label,
        "version": block.version,
        "chars": block.chars,
        "limit": block.limit,
        "updated_at": block.updated_at,
        "value": block.value,
    }


def _print_block(block: Block) -> None:
    when = block.updated_at.isoformat(timespec="seconds") if block.updated_at else "never written"
    console.rule(
        f"[bold]{block.label}[/] · v{block.version} · {block.chars:,}/{block.limit:,} chars · {when}"
    )
    console.print(block.value or "(empty)", markup=False, highlight=False)


@blocks_app.command("show")
def show(
    label: str | None = typer.Argument(None, help=f"{LABEL_HELP} Default: both."),
    user: str | None = USER_OPTION,
    as_json: bool = JSON_OPTION,
) -> None:
    """Show the current text of the core blocks."""
    labels = [check_label(label)] if label else list(LABELS)
    user_id = user_or_default(user)

    async def go() -> list[Block]:
        async with Services(settings()) as services:
            store = await services.blocks()
            return [await store.get(user_id, name) for name in labels]

    blocks = run(go())
    if as_json:
        emit_json([_block_json(b) for b in blocks])
        return
    for block in blocks:
        _print_block(block)


@blocks_app.command("history")
def history(
    label: str = typer.Argument(..., help=LABEL_HELP),
    user: str | None = USER_OPTION,
    as_json: bool = JSON_OPTION,
    full: bool = typer.Option(False, "--full", help="Print every version's whole text."),
) -> None:
    """List every stored version of a block, oldest first, with why it was written."""
    check_label(label)
    user_id = user_or_default(user)

    async def go() -> list[BlockVersion]:
        async with Services(settings()) as services:
            return await (await services.blocks()).history(user_id, label)

    versions = run(go())
    if as_json:
        emit_json(versions)
        return
    if not versions:
        console.print(f"{label}: no versions yet (the default text is in use).")
        return
    if full:
        for v in versions:
            console.rule(f"v{v.version} · {v.updated_at.isoformat(timespec='seconds')} · {v.reason}")
            console.print(v.value or "(empty)", markup=False, highlight=False)
        return
    table = Table(title=f"{label} of {user_id}")
    for column in ("version", "when (UTC)", "chars", "reason", "starts with"):
        table.add_column(column)
    for v in versions:
        reason = v.reason.splitlines()[0] if v.reason else ""
        preview = " ".join(v.value.split())[:50]
        table.add_row(
            str(v.version), v.updated_at.isoformat(timespec="seconds"), f"{len(v.value):,}",
            reason, preview,
        )
    console.print(table)
    console.print(f"Revert with: wave blocks revert {label} <version>  (--full shows each text)")


@blocks_app.command("revert")
def revert(
    label: str = typer.Argument(..., help=LABEL_HELP),
    version: int = typer.Argument(..., help="The version to bring back (see `wave blocks history`)."),
    user: str | None = USER_OPTION,
    as_json: bool = JSON_OPTION,
) -> None:
    """Bring back an earlier version (stored as a new version; history is kept)."""
    check_label(label)
    user_id = user_or_default(user)

    async def go() -> Block:
        async with Services(settings()) as services:
            return await (await services.blocks()).revert(user_id, label, version)

    block = run(go())
    if as_json:
        emit_json(_block_json(block))
        return
    console.print(f"{label} is now v{block.version}, the text of v{version}:")
    _print_block(block)
