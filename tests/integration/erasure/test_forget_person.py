"""`wave forget-me` erases a person from every layer and every file, while another
person's memory in the same install is untouched, byte for byte."""

from __future__ import annotations

import json
import uuid
from pathlib import Path

import pytest

from tests.integration.erasure.conftest import converse, files_holding, tree_bytes
from wave_agent.app.export import export_memory
from wave_agent.ops.erasure import record_export
from wave_agent.services import Services
from wave_agent.settings import Settings

pytestmark = pytest.mark.neo4j


async def _export(services: Services, user_id: str) -> dict[str, object]:
    document = await export_memory(
        user_id, graph=await services.graph(), blocks=await services.blocks(),
        episodes=await services.episodes(), snapshots=await services.snapshots(),
        session_log=(await services.sessions()).log, outbox=services.outbox())
    loaded = json.loads(document.json_bytes)
    loaded.pop("exported_at")
    return {"document": loaded, "counts": document.counts}


def _their_files(data: Path, user_id: str) -> dict[str, bytes]:
    return {name: content for layer in ("blocks", "episodes", "snapshots")
            for name, content in tree_bytes(data / layer / user_id).items()}


async def test_forget_me_leaves_no_file_no_node_and_spares_the_other_person(
    services: Services, settings: Settings, tmp_path: Path
) -> None:
    gone = f"tg-{uuid.uuid4().int % 10**9}"
    stays = f"tg-{uuid.uuid4().int % 10**9}"
    await converse(services, gone, "Меня зовут Анна Вжжиковская, я живу в Казани.",
                   "Мой любимый сорт чая Щукомлин, пью его каждое утро.")
    await converse(services, stays, "Меня зовут Пётр Ухватов, я живу в Твери.")
    # an export Wave wrote for the person, outside DATA_DIR
    out = tmp_path / "exports-elsewhere"
    out.mkdir()
    exported = out / f"{gone}-memory.json"
    exported.write_bytes(json.dumps(await _export(services, gone), ensure_ascii=False).encode())
    record_export(settings.data_dir, gone, [exported])

    data = settings.data_dir
    assert files_holding(data, "Вжжиковская") and files_holding(data, gone)
    kept_files = _their_files(data, stays)
    kept_export = await _export(services, stays)
    assert kept_files and kept_export["counts"]["facts"] >= 1  # type: ignore[index]

    eraser = await services.eraser()
    preview = await eraser.what_would_go(gone)
    assert preview["records"] >= 2 and preview["exports"] == 1
    report = await eraser.forget_person(gone)

    for needle in (gone, "Вжжиковская", "Щукомлин", "Казани"):
        assert files_holding(data, needle) == [], needle
    assert not exported.exists()
    graph = await services.graph()
    assert await graph.user_node_count(gone) == 0
    archive = await services.archive()
    assert await archive.fact_ids(gone) == set()
    after = await _export(services, gone)
    assert all(n == 0 for n in after["counts"].values()), after["counts"]  # type: ignore[union-attr]
    # one audit line: when, and that it happened; no id, no text
    audit = (data / "erasures.log").read_text(encoding="utf-8").splitlines()
    assert len(audit) == 1 and "forget-me" in audit[0] and gone not in audit[0]
    removed = report.as_json()["removed"]
    for layer in ("graph", "archive", "episodes", "snapshots", "session log", "outbox",
                  "blocks", "exports"):
        assert removed[layer], (layer, report.message)

    # the other person: untouched, byte for byte, and still answered
    assert _their_files(data, stays) == kept_files
    assert await _export(services, stays) == kept_export
    hits = await (await services.recall()).search(stays, "где живёт Пётр", k=3)
    assert any("Твер" in h.fact.text for h in hits)


async def test_maintenance_compacts_after_an_erasure_and_then_rests(
    services: Services, settings: Settings, user_id: str
) -> None:
    from wave_agent.ops.maintenance.runner import run_maintenance

    writer = await services.writer()
    written = await writer.remember(user_id, "Пароль от почты Щукоблеск", exchange_id="cli-m")
    assert written.fact is not None
    await (await services.eraser()).delete(user_id, written.fact.id)

    [first] = await run_maintenance(services.ops_stores(), jobs=["erasure"])
    assert first.actions and all(a.applied for a in first.actions), first
    assert not first.errors
    assert (settings.data_dir / "erasures.compacted").exists()
    [again] = await run_maintenance(services.ops_stores(), jobs=["erasure"])
    assert again.actions == []  # no erasure since: nothing to do
    assert files_holding(settings.data_dir, "Щукоблеск") == []
