"""``wave export`` and ``wave import``: a person's whole memory out as documents, and back in.

Export writes the same two documents as the bot's ``/export`` (JSON with every field, and
readable markdown). Import reads such a JSON export (or a plain list of texts) and sends every
active record through the one writer as ``imported`` (veracity 0.6): quarantine, limits and
exact-repeat dedupe apply, and nothing bypasses the graph. Every record is judged again: a
``quarantine_reason`` on an active record in the file (a release the person made) is not
trusted, since anyone can write one into a file; a record already released in this memory
stays released (the same text confirms it), one from elsewhere waits for the person again.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

import typer

from graph.models import FactType, Status
from wave_agent.app.export import export_memory
from wave_agent.cli import app
from wave_agent.cli.common import (
    AT_OPTION,
    JSON_OPTION,
    USER_OPTION,
    console,
    emit_json,
    run,
    settings,
    use_at,
    user_or_default,
)
from wave_agent.errors import Refused
from wave_agent.ops.erasure import record_export
from wave_agent.policy.edge_input import export_stem
from wave_agent.services import Services

if TYPE_CHECKING:  # the writer (and numpy under it) loads when an import runs
    from wave_agent.write.writer import MemoryItem

OUT_OPTION = typer.Option(Path("."), "--out", "-o", help="Directory for the two files.")
PATH_ARGUMENT = typer.Argument(..., help="A JSON file from `wave export` / `/export`, or a JSON list of texts.")


class ImportRejected(Refused):
    """The import file cannot be read as memory; nothing was written."""


@app.command("export")
def export(
    user: str | None = USER_OPTION,
    out: Path = OUT_OPTION,
    as_json: bool = JSON_OPTION,
) -> None:
    """Write the person's whole memory to USER-memory.json and USER-memory.md."""
    user_id = user_or_default(user)

    async def go() -> dict[str, Any]:
        async with Services(settings(), autostart_neo4j=True) as services:
            document = await export_memory(
                user_id,
                graph=await services.graph(),
                blocks=await services.blocks(),
                episodes=await services.episodes(),
                snapshots=await services.snapshots(),
                session_log=(await services.sessions()).log,
                outbox=services.outbox(),
            )
        out.mkdir(parents=True, exist_ok=True)
        stem = export_stem(user_id)  # one file pair per person: `a/b` and `a_b` differ
        json_path, md_path = out / f"{stem}-memory.json", out / f"{stem}-memory.md"
        json_path.write_bytes(document.json_bytes)
        md_path.write_bytes(document.markdown_bytes)
        record_export(settings().data_dir, user_id, [json_path, md_path])  # forget-me removes them
        return {"json": str(json_path), "markdown": str(md_path), "counts": document.counts}

    report = run(go())
    if as_json:
        emit_json(report)
        return
    counts = ", ".join(f"{n} {what}" for what, n in report["counts"].items())
    console.print(f"Exported {counts} to {report['json']} and {report['markdown']}")


def _aware(when: datetime) -> datetime:
    """A date without a zone in a hand-written import file is read as UTC (the stores refuse
    naive datetimes)."""
    return when if when.tzinfo is not None else when.replace(tzinfo=UTC)


def _items(path: Path) -> tuple[list[MemoryItem], int]:
    """Records to import, and how many non-active records were left out."""
    from wave_agent.write.writer import MemoryItem

    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError as exc:
        raise ImportRejected(f"{path} does not exist", next_step="give the path of a `wave export` JSON file") from exc
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ImportRejected(
            f"{path} is not valid JSON ({exc})",
            next_step="import a file made by `wave export` or `/export`, or a JSON list of texts",
        ) from exc
    records = data.get("facts") if isinstance(data, dict) else data
    if not isinstance(records, list):
        raise ImportRejected(
            f"{path} holds no list of records",
            next_step="import a file made by `wave export` (it has a \"facts\" list) or a JSON list of texts",
        )
    items: list[MemoryItem] = []
    left_out = 0
    for n, record in enumerate(records, start=1):
        if isinstance(record, str):
            items.append(MemoryItem(text=record))
            continue
        if not isinstance(record, dict) or not isinstance(record.get("text"), str):
            raise ImportRejected(
                f"record {n} of {path} has no text",
                next_step="each record must be a string or an object with a \"text\" field",
            )
        if record.get("status", Status.ACTIVE.value) != Status.ACTIVE.value:
            left_out += 1  # history and quarantine stay in the export file; see the module doc
            continue
        kind = record.get("type")
        created = record.get("created_at")
        items.append(MemoryItem(
            text=record["text"],
            type=FactType(kind) if kind in {t.value for t in FactType} else None,
            created_at=_aware(datetime.fromisoformat(created)) if isinstance(created, str) else None,
            speaker=record.get("speaker") if isinstance(record.get("speaker"), str) else None,
            source_message_ids=tuple(str(s) for s in record.get("source_message_ids") or ()),
        ))
    return items, left_out


@app.command("import")
def import_(
    path: Path = PATH_ARGUMENT,
    user: str | None = USER_OPTION,
    as_json: bool = JSON_OPTION,
    at: str | None = AT_OPTION,
) -> None:
    """Import records through the writer (as imported, veracity 0.6); active records only."""
    use_at(at)
    user_id = user_or_default(user)
    items, left_out = _items(path)

    async def go() -> dict[str, int]:
        async with Services(settings(), autostart_neo4j=True) as services:
            results = await (await services.writer()).remember_many(user_id, items)
        counts: dict[str, int] = {}
        for result in results:
            counts[result.status.value] = counts.get(result.status.value, 0) + 1
        counts["left out (not active)"] = left_out
        return counts

    counts = run(go())
    if as_json:
        emit_json(counts)
        return
    console.print(f"Imported into {user_id}: " + ", ".join(f"{n} {what}" for what, n in counts.items()))
