"""Wave's own SQLite files (the outbox, the session log, the Letta update queue): one way to
open them, change them and compact them.

``SqliteFile``: one connection shared by threads under one lock, WAL, ``with tx():`` blocks
(``BEGIN IMMEDIATE``, committed or rolled back), SQLite errors raised as the owner's
"unavailable" error. Only the owner of a file (``Outbox``, ``SessionLog``, the Letta queue)
writes SQL against it; erasure and export call the owner's named methods.

``secure_delete`` (for files that hold what people said): SQLite overwrites freed bytes with
zeros. ``compact`` then truncates the ``-wal`` file and ``VACUUM``s, so no free page or WAL
frame keeps an erased text; another process holding a read at that instant makes it report
False (``wave maintain --job erasure`` retries, through ``compact_file``).
"""

from __future__ import annotations

import logging
import sqlite3
import threading
from collections.abc import Callable, Iterator
from contextlib import closing, contextmanager
from dataclasses import dataclass
from pathlib import Path

log = logging.getLogger("wave.sqlite")


@dataclass(frozen=True, slots=True)
class Scrubbed:
    """What an erasure changed in one SQLite file: rows, whether the file could be
    compacted at once, and (session log) the sessions the redacted exchanges belong to."""

    rows: int = 0
    compacted: bool = True
    sessions: tuple[str, ...] = ()


class SqliteFile:
    """A SQLite connection shared by threads under one lock; errors become ``unavailable``."""

    def __init__(
        self,
        path: Path,
        schema: str,
        unavailable: Callable[[Path, str], Exception],
        *,
        synchronous_full: bool = False,
        secure_delete: bool = False,
    ) -> None:
        self.path = Path(path)
        self.lock = threading.Lock()
        self._unavailable = unavailable
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self.db = _connect(self.path)
            self.db.execute("PRAGMA journal_mode=WAL")
            if synchronous_full:
                self.db.execute("PRAGMA synchronous=FULL")
            if secure_delete:
                self.db.execute("PRAGMA secure_delete=ON")
            self.db.executescript(schema)
        except (OSError, sqlite3.Error) as exc:
            raise unavailable(self.path, str(exc)) from exc

    def close(self) -> None:
        with self.lock:
            self.db.close()

    @contextmanager
    def tx(self) -> Iterator[sqlite3.Connection]:
        """An immediate transaction: committed on success, rolled back on any error."""
        with self.lock:
            try:
                self.db.execute("BEGIN IMMEDIATE")
                try:
                    yield self.db
                except BaseException:
                    self.db.execute("ROLLBACK")
                    raise
                self.db.execute("COMMIT")
            except sqlite3.Error as exc:
                raise self._unavailable(self.path, str(exc)) from exc

    @contextmanager
    def read(self) -> Iterator[sqlite3.Connection]:
        """The connection under the lock, for reads (each statement sees committed data)."""
        with self.lock:
            try:
                yield self.db
            except sqlite3.Error as exc:
                raise self._unavailable(self.path, str(exc)) from exc

    def compact(self) -> bool:
        """Checkpoint (truncating the WAL) and VACUUM; False when another process held it busy."""
        with self.lock:
            return _compact(self.db, self.path)


def compact_file(path: Path) -> bool:
    """``SqliteFile.compact`` for a file this process does not hold open (maintenance);
    True when there is no such file."""
    if not path.exists():
        return True
    try:
        with closing(_connect(path)) as db:
            return _compact(db, path)
    except sqlite3.Error as exc:
        log.warning("%s not compacted yet (%s); `wave maintain --job erasure` retries", path, exc)
        return False


def _connect(path: Path) -> sqlite3.Connection:
    return sqlite3.connect(path, timeout=10, check_same_thread=False, isolation_level=None)


def _compact(db: sqlite3.Connection, path: Path) -> bool:
    try:
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
        db.execute("VACUUM")
        busy = db.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
    except sqlite3.OperationalError as exc:
        log.warning("%s not compacted yet (%s); `wave maintain --job erasure` retries", path, exc)
        return False
    return not (busy and busy[0])


__all__ = ["Scrubbed", "SqliteFile", "compact_file"]
