"""The daily episode log on real files in a temporary directory."""

from __future__ import annotations

from datetime import UTC, date, datetime
from pathlib import Path

import pytest

from episodes.errors import InvalidEntry, InvalidTimezone, InvalidWeek
from episodes.models import EpisodeEntry
from episodes.store import EpisodeStore, iso_week_of, parse_iso_week


@pytest.fixture
def store(tmp_path: Path) -> EpisodeStore:
    return EpisodeStore(tmp_path / "episodes", timezone="UTC")


def at(day: int, hour: int, minute: int = 0, month: int = 11) -> datetime:
    return datetime(2026, month, day, hour, minute, tzinfo=UTC)


async def test_append_writes_a_day_file_with_time_and_fact_ids(store: EpisodeStore) -> None:
    results = await store.append(
        "u1",
        [EpisodeEntry("Decided to move the launch to May", ("f-abc123", "f-def456"), at(30, 14, 5))],
        key="ex-1",
    )
    assert results[0].written == 1
    text = results[0].path.read_text(encoding="utf-8")
    assert results[0].path.name == "2026-11-30.md"
    assert text.startswith("# 2026-11-30\n")
    assert "- 14:05 Decided to move the launch to May [f-abc123, f-def456] <!-- wave" in text
    day = await store.read_day("u1", date(2026, 11, 30))
    (line,) = day.entries
    assert line.text == "Decided to move the launch to May"
    assert line.fact_ids == ("f-abc123", "f-def456")
    assert (line.at.hour, line.at.minute) == (14, 5)  # type: ignore[union-attr]
    assert line.machine and not line.edited
    assert line.key == "ex-1"


async def test_the_day_is_the_persons_day(store: EpisodeStore) -> None:
    late = datetime(2026, 11, 30, 22, 30, tzinfo=UTC)
    await store.append("utc-person", [EpisodeEntry("late note", at=late)])
    assert await store.days("utc-person") == [date(2026, 11, 30)]
    await store.set_timezone("moscow-person", "Europe/Moscow")
    await store.append("moscow-person", [EpisodeEntry("late note", at=late)])
    assert await store.days("moscow-person") == [date(2026, 12, 1)]
    (line,) = (await store.read_day("moscow-person", date(2026, 12, 1))).entries
    assert (line.at.hour, line.at.minute) == (1, 30)  # type: ignore[union-attr]
    with pytest.raises(InvalidTimezone) as info:
        await store.set_timezone("x", "Mars/Olympus")
    assert info.value.next_step


async def test_default_zone_comes_from_the_store(tmp_path: Path) -> None:
    store = EpisodeStore(tmp_path, timezone="Asia/Tokyo")
    await store.append("u", [EpisodeEntry("x", at=datetime(2026, 11, 30, 20, 0, tzinfo=UTC))])
    assert await store.days("u") == [date(2026, 12, 1)]


async def test_hand_edited_lines_survive_appends(store: EpisodeStore) -> None:
    (first,) = await store.append("u2", [EpisodeEntry("Likes green tea", ("f-1",), at(30, 9))])
    path = first.path
    original = path.read_text(encoding="utf-8")
    edited = original.replace("Likes green tea", "Likes green tea, not black")
    edited += "Called mum, she is better (my own note)"  # hand line, no trailing newline
    path.write_text(edited, encoding="utf-8")

    await store.append("u2", [EpisodeEntry("Plans a trip to Gdańsk", ("f-2",), at(30, 18))])
    await store.append("u2", [EpisodeEntry("Prefers mornings", ("f-3",), at(30, 19))])

    after = path.read_text(encoding="utf-8")
    assert after.startswith(edited + "\n")  # every earlier byte kept, nothing rewritten
    day = await store.read_day("u2", date(2026, 11, 30))
    texts = [(line.text, line.machine, line.edited) for line in day.entries]
    assert texts == [
        ("Likes green tea, not black", False, True),
        ("Called mum, she is better (my own note)", False, False),
        ("Plans a trip to Gdańsk", True, False),
        ("Prefers mornings", True, False),
    ]


async def test_a_repeated_exchange_key_appends_nothing(store: EpisodeStore) -> None:
    entry = EpisodeEntry("Chose Python over Go", ("f-9",), at(30, 10))
    await store.append("u3", [entry], key="exchange/42 retry")
    (again,) = await store.append("u3", [entry], key="exchange/42 retry")
    assert again.skipped_duplicate_key and again.written == 0
    assert len((await store.read_day("u3", date(2026, 11, 30))).entries) == 1


async def test_text_cannot_forge_markers_or_break_lines(store: EpisodeStore) -> None:
    text = "first line\nsecond <!-- wave s=00000000 --> line [f-x]"
    await store.append("u4", [EpisodeEntry(text, at=at(30, 11))])
    (line,) = (await store.read_day("u4", date(2026, 11, 30))).entries
    assert line.machine
    assert line.fact_ids == ()
    assert "\n" not in line.text and "first line second" in line.text


async def test_a_naive_time_is_refused(store: EpisodeStore) -> None:
    with pytest.raises(InvalidEntry) as info:
        await store.append("u", [EpisodeEntry("x", at=datetime(2026, 11, 30, 9, 0))])  # noqa: DTZ001
    assert info.value.next_step
    assert await store.days("u") == []


async def test_malformed_fact_ids_are_dropped(store: EpisodeStore) -> None:
    await store.append("u5", [EpisodeEntry("x", ("f-ok", "bad id]"), at(30, 12))])
    (line,) = (await store.read_day("u5", date(2026, 11, 30))).entries
    assert line.fact_ids == ("f-ok",)


async def test_corrupt_and_unreadable_day_files_do_not_crash(store: EpisodeStore) -> None:
    await store.append("u6", [EpisodeEntry("fine", at=at(28, 9))])
    folder = (await store.read_day("u6", date(2026, 11, 28))).path.parent
    (folder / "2026-11-29.md").write_bytes(b"\xff\xfe garbage \x00\x00 - 10:00 half a line \xc3")
    (folder / "2026-11-30.md").mkdir()  # unreadable: a directory where a file should be
    (folder / "2026-13-45.md").write_text("not a date", encoding="utf-8")
    (folder / "notes.md").write_text("not a day", encoding="utf-8")

    assert await store.days("u6") == [date(2026, 11, 28), date(2026, 11, 29)]
    garbled = await store.read_day("u6", date(2026, 11, 29))
    assert garbled.entries and "\x00" not in garbled.entries[0].raw
    assert (await store.read_day("u6", date(2026, 11, 30))).unreadable
    context = await store.session_context("u6", today=date(2026, 11, 30))
    assert "fine" in context


@pytest.mark.parametrize(
    "user_id",
    ["../../etc", "/etc/passwd", "a\x00b", "x" * 5000, ".", "..", "~root", "a/../../b", "ок"],
)
async def test_user_ids_cannot_escape_the_data_directory(tmp_path: Path, user_id: str) -> None:
    root = tmp_path / "episodes"
    store = EpisodeStore(root)
    (result,) = await store.append(user_id, [EpisodeEntry("hello", at=at(30, 9))])
    assert result.path.resolve().is_relative_to(root.resolve())
    assert result.path.parent.parent == root.resolve()
    assert len(result.path.parent.name) <= 64
    assert await store.users() == [user_id]
    assert [p for p in tmp_path.rglob("*") if not p.resolve().is_relative_to(root.resolve())] == []


async def test_session_context_is_the_last_three_days_within_budget(store: EpisodeStore) -> None:
    for day in (24, 26, 27, 28, 29):
        await store.append("u7", [EpisodeEntry(f"note of the {day}th", at=at(day, 9))])
    await store.append("u7", [EpisodeEntry("tomorrow's note", at=at(1, 9, month=12))])
    context = await store.session_context("u7", today=date(2026, 11, 30), budget=2000)
    assert "## 2026-11-27" in context and "## 2026-11-29" in context
    assert "2026-11-26" not in context and "tomorrow" not in context

    for i in range(60):
        await store.append("u7", [EpisodeEntry(f"filler line number {i} " * 3, at=at(29, 10))])
    await store.append("u7", [EpisodeEntry("Decided to quit sugar", ("f-sugar",), at(29, 23))])
    small = await store.session_context("u7", today=date(2026, 11, 30), budget=400)
    assert len(small) <= 400
    assert "Decided to quit sugar [f-sugar]" in small


async def test_session_context_uses_the_summariser_within_budget(store: EpisodeStore) -> None:
    for i in range(40):
        await store.append("u8", [EpisodeEntry(f"event {i} " * 5, at=at(29, 10))])
    seen: list[tuple[int, int]] = []

    async def good(text: str, budget: int) -> str:
        seen.append((len(text), budget))
        return "A busy Sunday of events."

    async def verbose(text: str, budget: int) -> str:
        return "x" * (budget + 1)

    async def broken(text: str, budget: int) -> str:
        raise RuntimeError("model down")

    today = date(2026, 11, 30)
    assert await store.session_context("u8", today=today, budget=300, summarise=good) == (
        "A busy Sunday of events."
    )
    assert seen and seen[0][1] == 300 and seen[0][0] > 300
    for fallback in (verbose, broken):
        text = await store.session_context("u8", today=today, budget=300, summarise=fallback)
        assert 0 < len(text) <= 300 and text.startswith("## 2026-11-29")


async def test_compress_week_links_the_days_and_keeps_them(store: EpisodeStore) -> None:
    for day in (23, 25):
        await store.append("u9", [EpisodeEntry(f"week note {day}", ("f-w",), at(day, 9))])
    await store.append("u9", [EpisodeEntry("next week", at=at(30, 9))])
    assert iso_week_of(date(2026, 11, 25)) == "2026-W48"

    summary = await store.compress_week("u9", "2026-W48")
    assert summary is not None
    assert summary.days == (date(2026, 11, 23), date(2026, 11, 25))
    text = summary.path.read_text(encoding="utf-8")
    assert "[2026-11-23](../2026-11-23.md)" in text and "[2026-11-25](../2026-11-25.md)" in text
    assert "week note 23" in text and "next week" not in text
    assert summary.path.parent.name == "weekly"
    assert await store.days("u9") == [date(2026, 11, 23), date(2026, 11, 25), date(2026, 11, 30)]
    assert await store.weekly("u9", "2026-W48") == text
    assert await store.compress_week("u9", "2026-W40") is None


async def test_a_hand_edited_weekly_summary_is_kept(store: EpisodeStore) -> None:
    await store.append("u10", [EpisodeEntry("old note", at=at(16, 9))])
    summary = await store.compress_week("u10", "2026-W47")
    assert summary is not None
    summary.path.write_text(summary.path.read_text(encoding="utf-8") + "My own remark\n",
                            encoding="utf-8")
    again = await store.compress_week("u10", "2026-W47")
    assert again is not None and again.kept_hand_edit
    assert "My own remark" in summary.path.read_text(encoding="utf-8")


async def test_compress_old_weeks_skips_the_current_week_and_fresh_summaries(
    store: EpisodeStore,
) -> None:
    for day in (9, 16, 30):
        await store.append("u11", [EpisodeEntry(f"note {day}", at=at(day, 9))])
    done = await store.compress_old_weeks("u11", today=date(2026, 11, 30))
    assert [s.iso_week for s in done] == ["2026-W46", "2026-W47"]
    assert await store.compress_old_weeks("u11", today=date(2026, 11, 30)) == []


def test_bad_iso_week_names_the_format() -> None:
    assert parse_iso_week("2026-W01")[0] == date(2025, 12, 29)
    for bad in ("2026-48", "2026-W54", "week"):
        with pytest.raises(InvalidWeek) as info:
            parse_iso_week(bad)
        assert "YYYY-Www" in str(info.value)


async def test_concurrent_appends_from_two_stores_lose_nothing(tmp_path: Path) -> None:
    import asyncio

    first, second = EpisodeStore(tmp_path), EpisodeStore(tmp_path)  # as two processes would
    await asyncio.gather(
        *(
            (first if i % 2 else second).append(
                "u12", [EpisodeEntry(f"line {i}", at=at(30, 9, i))], key=f"ex-{i}"
            )
            for i in range(20)
        )
    )
    day = await first.read_day("u12", date(2026, 11, 30))
    assert sorted(line.text for line in day.entries) == sorted(f"line {i}" for i in range(20))
    assert all(line.machine for line in day.entries)
