"""The daily episode log: one markdown file per user per day, append-only, human-editable.

Layout under the root (``DATA_DIR/episodes``)::

    <safe user dir>/user.json          the raw user id and, when known, their time zone
    <safe user dir>/YYYY-MM-DD.md      one day, in the person's time zone
    <safe user dir>/weekly/YYYY-Www.md weekly summaries written by maintenance
    <safe user dir>/.lock              serialises writers across processes

Wave only ever appends whole lines to a day file; it never rewrites or removes a line, so a
person's edits survive. Weekly summaries link back to the day files, which are kept.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import re
from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from typing import ParamSpec, TypeVar
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from common.files import atomic_write, in_thread, locked, remove_tree
from episodes.compress import Summarise, compress_days, render_days
from episodes.errors import (
    EpisodeStoreUnavailable,
    InvalidEntry,
    InvalidTimezone,
    InvalidWeek,
)
from episodes.format import checksum, format_line, parse_text, safe_key, valid_fact_ids
from episodes.models import AppendResult, EpisodeDay, EpisodeEntry, WeeklySummary
from episodes.paths import user_path

log = logging.getLogger("wave.episodes")

P = ParamSpec("P")
T = TypeVar("T")

_DAY_FILE = re.compile(r"^(\d{4}-\d{2}-\d{2})\.md$")
_WEEK = re.compile(r"^(\d{4})-W(\d{2})$")
_WEEKLY_MARKER = re.compile(r"\n?<!-- wave-weekly s=([0-9a-f]{8}) -->\s*$")


def parse_iso_week(iso_week: str) -> tuple[date, ...]:
    """The seven days (Monday first) of ``YYYY-Www``."""
    match = _WEEK.match(iso_week.strip())
    if not match:
        raise InvalidWeek(iso_week)
    try:
        monday = date.fromisocalendar(int(match[1]), int(match[2]), 1)
    except ValueError as exc:
        raise InvalidWeek(iso_week) from exc
    return tuple(monday + timedelta(days=i) for i in range(7))


def iso_week_of(day: date) -> str:
    year, week, _ = day.isocalendar()
    return f"{year}-W{week:02d}"


def _zone(name: str) -> ZoneInfo:
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError) as exc:
        raise InvalidTimezone(name) from exc


class EpisodeStore:
    """Daily episode files under ``root``; ``timezone`` is the default for every user."""

    def __init__(self, root: Path, *, timezone: str = "UTC") -> None:
        self.root = Path(root)
        self.default_zone = _zone(timezone)
        self._locks: dict[str, asyncio.Lock] = {}

    # Users and time zones ------------------------------------------------------------------

    async def set_timezone(self, user_id: str, timezone: str) -> None:
        """Remember a person's own zone (overrides the default for their day files)."""
        _zone(timezone)
        async with self._lock(user_id):
            await self._run(self._write_user_meta, user_id, timezone)

    async def timezone_for(self, user_id: str) -> ZoneInfo:
        return await self._run(self._zone_for, user_id)

    async def users(self) -> list[str]:
        return await self._run(self._users_sync)

    # Writing ----------------------------------------------------------------------------------

    async def append(
        self, user_id: str, entries: Sequence[EpisodeEntry], *, key: str | None = None
    ) -> list[AppendResult]:
        """Append entries to their days' files; a repeated ``key`` (exchange id) writes nothing."""
        entries = [e for e in entries if e.text.strip()]
        if not entries:
            return []
        if any(e.at is not None and e.at.tzinfo is None for e in entries):
            raise InvalidEntry("`at` has no time zone, so its day is ambiguous")
        async with self._lock(user_id):
            return await self._run(self._append_sync, user_id, entries, key)

    # Reading ----------------------------------------------------------------------------------

    async def days(self, user_id: str) -> list[date]:
        return await self._run(self._days_sync, user_id)

    async def read_day(self, user_id: str, day: date) -> EpisodeDay:
        return await self._run(self._read_day_sync, user_id, day)

    async def recent_days(
        self, user_id: str, *, count: int = 3, today: date | None = None
    ) -> list[EpisodeDay]:
        """The last ``count`` days that have a file, up to ``today`` (the person's today)."""
        if today is None:
            today = datetime.now(await self.timezone_for(user_id)).date()
        chosen = [d for d in await self.days(user_id) if d <= today][-count:]
        return [await self.read_day(user_id, d) for d in chosen]

    async def session_context(
        self,
        user_id: str,
        *,
        budget: int = 2000,
        count: int = 3,
        today: date | None = None,
        summarise: Summarise | None = None,
    ) -> str:
        """The last ``count`` days compressed to at most ``budget`` characters."""
        days = await self.recent_days(user_id, count=count, today=today)
        return await compress_days(days, budget, summarise=summarise)

    # Weekly compression ----------------------------------------------------------------------

    async def compress_week(
        self,
        user_id: str,
        iso_week: str,
        *,
        budget: int = 1500,
        summarise: Summarise | None = None,
    ) -> WeeklySummary | None:
        """Write ``weekly/YYYY-Www.md`` summarising that week's days, linking to each day file.

        The day files are kept. A weekly file a person has edited is kept as it is. Returns
        None when the week has no days.
        """
        week_days = parse_iso_week(iso_week)
        path = self._weekly_path(user_id, iso_week)
        existing = await self._run(self._read_weekly, path)
        if existing is not None and not existing[1]:
            log.warning("kept %s: it was edited by hand", path)
            return WeeklySummary(user_id, iso_week, path, (), existing[0], kept_hand_edit=True)
        present = set(await self.days(user_id))
        days = [await self.read_day(user_id, d) for d in week_days if d in present]
        if not days:
            return None
        summary = await compress_days(days, budget, summarise=summarise)
        links = tuple(f"[{d.day.isoformat()}](../{d.day.isoformat()}.md)" for d in days)
        body = (
            f"# Week {iso_week}\n\nDays: {', '.join(links)}\n\n{summary.rstrip()}\n"
        )
        text = f"{body}<!-- wave-weekly s={checksum(body)} -->\n"
        async with self._lock(user_id):
            await self._run(atomic_write, path, text)
        log.info("compressed %d day(s) of %s for %s into %s", len(days), iso_week, user_id, path)
        return WeeklySummary(
            user_id, iso_week, path, tuple(d.day for d in days), summary, links=links
        )

    async def compress_old_weeks(
        self,
        user_id: str,
        *,
        today: date | None = None,
        budget: int = 1500,
        summarise: Summarise | None = None,
    ) -> list[WeeklySummary]:
        """Maintenance: summarise every finished week whose summary is missing or stale."""
        if today is None:
            today = datetime.now(await self.timezone_for(user_id)).date()
        current = iso_week_of(today)
        stale = await self._run(self._stale_weeks, user_id, current)
        done = []
        for week in stale:
            result = await self.compress_week(user_id, week, budget=budget, summarise=summarise)
            if result is not None and not result.kept_hand_edit:
                done.append(result)
        return done

    async def weekly(self, user_id: str, iso_week: str) -> str | None:
        parse_iso_week(iso_week)
        found = await self._run(self._read_weekly, self._weekly_path(user_id, iso_week))
        return None if found is None else found[0]

    # Erasure ----------------------------------------------------------------------------------

    async def remove_lines(
        self, user_id: str, fact_ids: Sequence[str], redact: Callable[[str], str] | None = None
    ) -> list[tuple[date, int]]:
        """Remove every line that names one of ``fact_ids`` (the lines those records wrote, hand
        edits included); weekly summaries of the weeks touched are rewritten the same way
        (``redact`` cleans what a summary says in other words). Returns (day, lines removed)."""
        wanted = {f for f in fact_ids if f}
        if not wanted:
            return []
        async with self._lock(user_id):
            return await self._run(self._remove_lines_sync, user_id, wanted, redact)

    async def erase_user(self, user_id: str) -> int:
        """Remove the person's whole folder (days, weekly summaries, user.json); files removed."""
        async with self._lock(user_id):
            return await self._run(remove_tree, self._user_dir(user_id))

    async def close(self) -> None:
        self._locks.clear()

    # Internals ----------------------------------------------------------------------------------

    def _lock(self, user_id: str) -> asyncio.Lock:
        return self._locks.setdefault(user_id, asyncio.Lock())

    async def _run(self, func: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
        return await in_thread(self._unavailable, func, *args, **kwargs)

    def _unavailable(self, exc: OSError) -> EpisodeStoreUnavailable:
        return EpisodeStoreUnavailable(str(exc.filename or self.root), exc.strerror or str(exc))

    def _user_dir(self, user_id: str) -> Path:
        return user_path(self.root, user_id)

    def _day_path(self, user_id: str, day: date) -> Path:
        return self._user_dir(user_id) / f"{day.isoformat()}.md"

    def _weekly_path(self, user_id: str, iso_week: str) -> Path:
        return self._user_dir(user_id) / "weekly" / f"{iso_week}.md"

    def _file_lock(self, user_id: str) -> AbstractContextManager[None]:
        return locked(self._user_dir(user_id) / ".lock")

    def _read_user_meta(self, user_id: str) -> dict[str, str]:
        path = self._user_dir(user_id) / "user.json"
        if not path.exists():
            return {}
        try:
            raw = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            log.warning("ignoring unreadable %s: %s", path, exc)
            return {}
        return {k: v for k, v in raw.items() if isinstance(v, str)} if isinstance(raw, dict) else {}

    def _write_user_meta(self, user_id: str, timezone: str | None = None) -> None:
        meta = self._read_user_meta(user_id)
        wanted = {**meta, "user_id": user_id}
        if timezone is not None:
            wanted["timezone"] = timezone
        if wanted != meta:
            atomic_write(
                self._user_dir(user_id) / "user.json",
                json.dumps(wanted, ensure_ascii=False, indent=2) + "\n",
            )

    def _zone_for(self, user_id: str) -> ZoneInfo:
        name = self._read_user_meta(user_id).get("timezone")
        if name:
            try:
                return _zone(name)
            except InvalidTimezone:
                log.warning("user %s has a bad time zone %r; using the default", user_id, name)
        return self.default_zone

    def _users_sync(self) -> list[str]:
        if not self.root.exists():
            return []
        found = []
        for folder in sorted(self.root.iterdir()):
            if folder.is_dir():
                user_id = self._read_user_meta_at(folder)
                if user_id:
                    found.append(user_id)
        return found

    def _read_user_meta_at(self, folder: Path) -> str | None:
        try:
            raw = json.loads((folder / "user.json").read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None
        user_id = raw.get("user_id") if isinstance(raw, dict) else None
        if isinstance(user_id, str) and user_path(self.root, user_id) == folder.resolve():
            return user_id
        return None

    def _append_sync(
        self, user_id: str, entries: Sequence[EpisodeEntry], key: str | None
    ) -> list[AppendResult]:
        zone = self._zone_for(user_id)
        now = datetime.now(UTC)
        by_day: dict[date, list[str]] = {}
        for entry in entries:
            at = (entry.at or now).astimezone(zone)
            ids = valid_fact_ids(entry.fact_ids)
            if len(ids) != len(entry.fact_ids):
                log.warning("dropped malformed fact ids from an episode line: %r", entry.fact_ids)
            by_day.setdefault(at.date(), []).append(format_line(at.time(), entry.text, ids, key))
        results = []
        with self._file_lock(user_id):
            self._write_user_meta(user_id)
            for day, lines in sorted(by_day.items()):
                path = self._day_path(user_id, day)
                results.append(self._append_lines(path, day, lines, key))
        return results

    def _append_lines(
        self, path: Path, day: date, lines: list[str], key: str | None
    ) -> AppendResult:
        if not path.exists():
            atomic_write(path, f"# {day.isoformat()}\n\n" + "\n".join(lines) + "\n")
            return AppendResult(day, path, len(lines))
        if key is not None:
            marker = safe_key(key)
            current = self._decode(path, path.read_bytes())
            if any(line.key == marker for line in parse_text(current)):
                log.info("exchange %s is already in %s; nothing appended", key, path)
                return AppendResult(day, path, 0, skipped_duplicate_key=True)
        with open(path, "rb+") as handle:
            handle.seek(0, os.SEEK_END)
            needs_newline = False
            if handle.tell() > 0:
                handle.seek(-1, os.SEEK_END)
                needs_newline = handle.read(1) != b"\n"
            payload = ("\n" if needs_newline else "") + "\n".join(lines) + "\n"
            handle.seek(0, os.SEEK_END)
            handle.write(payload.encode("utf-8"))
            handle.flush()
            os.fsync(handle.fileno())
        return AppendResult(day, path, len(lines))

    @staticmethod
    def _decode(path: Path, data: bytes) -> str:
        try:
            return data.decode("utf-8")
        except UnicodeDecodeError:
            log.warning("%s is not valid UTF-8; unreadable bytes are replaced when read", path)
            return data.decode("utf-8", errors="replace")

    def _days_sync(self, user_id: str) -> list[date]:
        folder = self._user_dir(user_id)
        if not folder.is_dir():
            return []
        found = []
        for path in folder.iterdir():
            match = _DAY_FILE.match(path.name)
            if match and path.is_file():
                try:
                    found.append(date.fromisoformat(match[1]))
                except ValueError:
                    log.warning("ignoring %s: not a calendar date", path)
        return sorted(found)

    def _read_day_sync(self, user_id: str, day: date) -> EpisodeDay:
        path = self._day_path(user_id, day)
        if not path.exists():
            return EpisodeDay(user_id, day, path)
        try:
            data = path.read_bytes()
        except OSError as exc:
            log.warning("skipping unreadable episode file %s: %s", path, exc)
            return EpisodeDay(user_id, day, path, unreadable=True)
        text = self._decode(path, data).replace("\x00", "")
        return EpisodeDay(user_id, day, path, parse_text(text))

    def _read_weekly(self, path: Path) -> tuple[str, bool] | None:
        """(text, written by Wave and untouched) or None when there is no file."""
        if not path.exists():
            return None
        text = self._decode(path, path.read_bytes())
        marker = _WEEKLY_MARKER.search(text)
        if marker is None:
            return text, False
        body = text[: marker.start()] + ("\n" if text[marker.start()] == "\n" else "")
        return text, checksum(body) == marker[1]

    def _remove_lines_sync(
        self, user_id: str, wanted: set[str], redact: Callable[[str], str] | None
    ) -> list[tuple[date, int]]:
        if not self._user_dir(user_id).is_dir():
            return []
        removed: list[tuple[date, int]] = []
        with self._file_lock(user_id):
            for day in self._days_sync(user_id):
                path = self._day_path(user_id, day)
                text = self._decode(path, path.read_bytes())
                lines = parse_text(text)
                kept = [line.raw for line in lines if not wanted.intersection(line.fact_ids)]
                if len(kept) != len(lines):
                    atomic_write(path, "\n".join(kept) + "\n")
                    removed.append((day, len(lines) - len(kept)))
            weeks = {iso_week_of(day) for day, _ in removed}
            for week in sorted(weeks):
                self._scrub_weekly(self._weekly_path(user_id, week), wanted, redact)
        return removed

    def _scrub_weekly(
        self, path: Path, wanted: set[str], redact: Callable[[str], str] | None
    ) -> None:
        found = self._read_weekly(path)
        if found is None:
            return
        text, untouched = found
        marker = _WEEKLY_MARKER.search(text)
        body = text[: marker.start()] if marker else text
        lines = [ln for ln in body.split("\n")
                 if not any(fid in ln for fid in wanted)]
        cleaned = "\n".join(redact(ln) if redact else ln for ln in lines).rstrip("\n") + "\n"
        if untouched:
            cleaned = f"{cleaned}<!-- wave-weekly s={checksum(cleaned)} -->\n"
        if cleaned != text:
            atomic_write(path, cleaned)

    def _stale_weeks(self, user_id: str, current_week: str) -> list[str]:
        weeks: dict[str, float] = {}
        for day in self._days_sync(user_id):
            week = iso_week_of(day)
            if week >= current_week:
                continue
            mtime = self._day_path(user_id, day).stat().st_mtime
            weeks[week] = max(weeks.get(week, 0.0), mtime)
        stale = []
        for week, newest in sorted(weeks.items()):
            path = self._weekly_path(user_id, week)
            if not path.exists() or path.stat().st_mtime < newest:
                stale.append(week)
        return stale


__all__ = ["EpisodeStore", "iso_week_of", "parse_iso_week", "render_days"]
