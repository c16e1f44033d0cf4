"""What the markdown block store adds to the contract: files a person can edit, safe paths."""

from __future__ import annotations

from pathlib import Path

import pytest

from wave_agent.blocks.markdown_store import HAND_EDIT_REASON, MarkdownBlockStore
from wave_agent.blocks.store import HUMAN, PERSONA, InvalidBlockUser


@pytest.fixture
def store(tmp_path: Path) -> MarkdownBlockStore:
    return MarkdownBlockStore(tmp_path / "blocks", limit=500)


async def test_files_hold_the_text_and_a_history_line_per_version(
    store: MarkdownBlockStore,
) -> None:
    await store.set("u1", HUMAN, "Anna.\nDesigner.", reason="first")
    await store.set("u1", HUMAN, "Anna.\nDesigner in Kraków.", reason="second")
    folder = store.root / "u1"
    assert (folder / "human.md").read_text(encoding="utf-8") == "Anna.\nDesigner in Kraków."
    lines = (folder / "human.history.jsonl").read_text(encoding="utf-8").splitlines()
    assert len(lines) == 2 and '"reason": "second"' in lines[1]
    assert not [p for p in folder.iterdir() if p.name.endswith(".tmp")]


async def test_a_hand_edit_of_the_file_becomes_a_version(store: MarkdownBlockStore) -> None:
    await store.set("u2", HUMAN, "Anna.", reason="first")
    (store.root / "u2" / "human.md").write_text("Anna Kowalska.", encoding="utf-8")
    block = await store.get("u2", HUMAN)
    assert (block.value, block.version) == ("Anna Kowalska.", 2)
    history = await store.history("u2", HUMAN)
    assert history[-1].reason == HAND_EDIT_REASON
    reverted = await store.revert("u2", HUMAN, 1)
    assert reverted.value == "Anna." and reverted.version == 3


async def test_a_hand_written_file_without_history_counts(store: MarkdownBlockStore) -> None:
    folder = store.root / "u3"
    folder.mkdir(parents=True)
    (folder / "persona.md").write_text("Be terse.", encoding="utf-8")
    block = await store.get("u3", PERSONA)
    assert (block.value, block.version) == ("Be terse.", 1)


async def test_corrupt_history_lines_are_skipped(
    store: MarkdownBlockStore, caplog: pytest.LogCaptureFixture
) -> None:
    await store.set("u4", HUMAN, "one", reason="first")
    history_file = store.root / "u4" / "human.history.jsonl"
    with open(history_file, "a", encoding="utf-8") as handle:
        handle.write('{"version": 2, "value": "half a li')  # a crash mid-write
    with caplog.at_level("WARNING", logger="wave.blocks.markdown"):
        block = await store.get("u4", HUMAN)
    assert (block.value, block.version) == ("one", 1)
    assert any("skipping unreadable line" in r.message for r in caplog.records)
    assert (await store.set("u4", HUMAN, "two", reason="second")).version == 2
    assert [h.value for h in await store.history("u4", HUMAN)] == ["one", "two"]


async def test_a_deleted_file_is_restored_from_history(store: MarkdownBlockStore) -> None:
    await store.set("u5", HUMAN, "kept", reason="first")
    (store.root / "u5" / "human.md").unlink()
    assert (await store.get("u5", HUMAN)).value == "kept"
    assert (store.root / "u5" / "human.md").read_text(encoding="utf-8") == "kept"


@pytest.mark.parametrize("user_id", ["../../etc", "/etc/passwd", "x" * 5000, "..", "a/b", "ок"])
async def test_user_ids_cannot_escape_the_blocks_directory(tmp_path: Path, user_id: str) -> None:
    root = tmp_path / "blocks"
    store = MarkdownBlockStore(root)
    await store.set(user_id, HUMAN, "portrait", reason="test")
    assert (await store.get(user_id, HUMAN)).value == "portrait"
    written = [p for p in tmp_path.rglob("*") if p.is_file()]
    assert written and all(p.resolve().parent.parent == root.resolve() for p in written)


async def test_control_characters_in_user_ids_are_refused(store: MarkdownBlockStore) -> None:
    with pytest.raises(InvalidBlockUser) as info:
        await store.set("a\x00b", HUMAN, "x", reason="test")
    assert info.value.next_step
    assert not store.root.exists()
