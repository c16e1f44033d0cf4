"""One local SQLite file (the outbox, the session log): WAL, one lock, ``with tx():`` blocks."""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path


class SqliteFile:
    """A SQLite connection shared by threads under one lock; errors become ``unavailable``."""

    def __init__(
        self,
        path: Path,
        schema: str,
        unavailable: Callable[[Path, str], Exception],
        *,
        synchronous_full: bool = False,
    ) -> None:
        self.path = Path(path)
        self.lock = threading.Lock()
        self._unavailable = unavailable
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self.db = sqlite3.connect(self.path, timeout=10, check_same_thread=False,
                                      isolation_level=None)
            self.db.execute("PRAGMA journal_mode=WAL")
            if synchronous_full:
                self.db.execute("PRAGMA synchronous=FULL")
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
