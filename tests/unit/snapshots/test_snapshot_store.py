"""Session snapshots on real files: returned exactly once, corrupt files skipped."""

from __future__ import annotations

import asyncio
import json
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from snapshots.errors import InvalidSnapshot
from snapshots.models import SCHEMA_VERSION, Reply, Snapshot
from snapshots.store import SnapshotStore

T0 = datetime(2026, 11, 30, 9, 0, tzinfo=UTC)


def snap(user: str = "u1", session: str = "s1", minutes: int = 0, **kw: object) -> Snapshot:
    fields: dict[str, object] = {
        "session_id": session,
        "user_id": user,
        "started_at": T0 + timedelta(minutes=minutes),
        "ended_at": T0 + timedelta(minutes=minutes + 20),
        "turns": 6,
        "summary": "Talked about the launch date; settled on May.",
        "last_replies": (
            Reply("user", "Ок, значит май.", T0),
            Reply("assistant", "Записал: запуск в мае.", T0),
        ),
        "observations": ("tired but decisive",),
        "end_reason": "reset",
    }
    fields.update(kw)
    return Snapshot(**fields)  # type: ignore[arg-type]


@pytest.fixture
def store(tmp_path: Path) -> SnapshotStore:
    return SnapshotStore(tmp_path / "snapshots")


async def test_the_last_snapshot_is_returned_exactly_once(store: SnapshotStore) -> None:
    path = await store.save(snap())
    raw = json.loads(path.read_text(encoding="utf-8"))
    assert raw["schema_version"] == SCHEMA_VERSION
    assert {"session_id", "user_id", "started_at", "ended_at", "turns", "summary",
            "last_replies", "observations"} <= set(raw)

    first = await store.take_for_new_session("u1")
    assert first is not None
    assert first.summary.startswith("Talked about the launch")
    assert first.last_replies[1].text == "Записал: запуск в мае."
    assert first.observations == ("tired but decisive",)
    assert first.spent
    assert await store.take_for_new_session("u1") is None
    # spent durably: a new store over the same files agrees
    assert await SnapshotStore(store.root).take_for_new_session("u1") is None
    assert (await store.latest("u1")).spent  # type: ignore[union-attr]


async def test_concurrent_session_starts_get_it_once(store: SnapshotStore) -> None:
    await store.save(snap())
    other = SnapshotStore(store.root)  # a second process's view of the same files
    results = await asyncio.gather(
        *(s.take_for_new_session("u1") for s in (store, other, store, other))
    )
    assert sum(r is not None for r in results) == 1


async def test_only_the_newest_counts(store: SnapshotStore) -> None:
    await store.save(snap(session="old", minutes=0, summary="old one"))
    await store.save(snap(session="new", minutes=60, summary="new one"))
    taken = await store.take_for_new_session("u1")
    assert taken is not None and taken.summary == "new one"
    assert await store.take_for_new_session("u1") is None  # the older one is not offered later
    assert [s.summary for s in await store.recent("u1")] == ["new one", "old one"]


async def test_a_corrupt_snapshot_is_skipped_with_a_warning(
    store: SnapshotStore, caplog: pytest.LogCaptureFixture
) -> None:
    await store.save(snap(session="good", minutes=0, summary="good one"))
    folder = store.root / "u1"
    (folder / "20261130T235900000000Z-broken.json").write_text("{not json", encoding="utf-8")
    (folder / "20261130T235800000000Z-future.json").write_text(
        json.dumps({**snap().to_json(), "schema_version": 99}), encoding="utf-8"
    )
    (folder / "20261130T235700000000Z-binary.json").write_bytes(b"\xff\xfe\x00")
    with caplog.at_level("WARNING", logger="wave.snapshots"):
        taken = await store.take_for_new_session("u1")
    assert taken is not None and taken.summary == "good one"
    assert sum("skipping unreadable session snapshot" in r.message for r in caplog.records) == 3
    assert await store.take_for_new_session("u1") is None


async def test_only_corrupt_snapshots_give_none(store: SnapshotStore) -> None:
    folder = store.root / "u2"
    folder.mkdir(parents=True)
    (folder / "20261130T235900000000Z-broken.json").write_text("[]", encoding="utf-8")
    assert await store.take_for_new_session("u2") is None
    assert await store.take_for_new_session("nobody") is None


async def test_saving_a_session_again_replaces_it_and_keeps_it_spent(
    store: SnapshotStore,
) -> None:
    await store.save(snap(session="s9"))
    assert await store.take_for_new_session("u1") is not None
    await store.save(snap(session="s9", turns=8, ended_at=T0 + timedelta(hours=1)))
    files = list((store.root / "u1").glob("*.json"))
    assert len(files) == 1
    assert await store.take_for_new_session("u1") is None


async def test_bad_snapshots_are_refused_with_the_field(store: SnapshotStore) -> None:
    with pytest.raises(InvalidSnapshot, match="ended_at is before started_at"):
        await store.save(snap(ended_at=T0 - timedelta(minutes=1)))
    with pytest.raises(InvalidSnapshot, match="time zone"):
        await store.save(snap(started_at=datetime(2026, 11, 30, 9, 0)))  # noqa: DTZ001
    with pytest.raises(InvalidSnapshot, match="session_id"):
        await store.save(snap(session=" "))


@pytest.mark.parametrize("user_id", ["../../etc", "/abs/path", "a\x00b", "y" * 3000, ".."])
async def test_user_ids_cannot_escape_the_directory(tmp_path: Path, user_id: str) -> None:
    root = tmp_path / "snapshots"
    store = SnapshotStore(root)
    path = await store.save(snap(user=user_id, session="../../../evil"))
    assert path.resolve().parent.parent == root.resolve()
    assert ".." not in path.name
    taken = await store.take_for_new_session(user_id)
    assert taken is not None and taken.user_id == user_id
