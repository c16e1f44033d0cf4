"""Files every layer writes the same way: atomic replacement, a lock across processes, and
blocking file work moved off the event loop.

- ``atomic_write``: a reader (another process, or the same one after a crash) sees the old
  file or the new one, never a half-written one. The new content goes to a temp file of its
  own in the same directory (``mkstemp``: unique per call, so two processes or threads writing
  the same target never share a temp file), is flushed and fsynced, renamed over the target
  with ``os.replace``, and the directory is fsynced so the rename itself survives a crash.
- ``locked``: an exclusive ``flock`` on a lock file, held for a ``with`` block; it serialises
  processes (the bot, ``wave chat``, maintenance) writing the same files. The kernel drops it
  when the process dies.
- ``in_thread``: run blocking file work in a worker thread; an ``OSError`` becomes the
  caller's own "store unavailable" error, which names the path and the next step.
- ``remove_tree``: delete a folder and count the files that went (erasure reports it).
"""

from __future__ import annotations

import asyncio
import fcntl
import os
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import ParamSpec, TypeVar

P = ParamSpec("P")
T = TypeVar("T")


def atomic_write(path: Path | str, data: bytes | str, *, mode: int | None = None) -> None:
    """Replace ``path`` with ``data`` (``str`` is written as UTF-8, newlines as given).

    ``mode``: the new file's permission bits (e.g. ``0o600`` for a secret); set on the temp
    file before the rename, so the content is never readable with wider bits. Without it the
    file is private to its owner (``0o600``, as ``mkstemp`` creates it). Parent directories
    are created. On any error the temp file is removed and the target is left as it was.
    """
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    payload = data.encode("utf-8") if isinstance(data, str) else data
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    try:
        with os.fdopen(fd, "wb") as handle:
            if mode is not None:
                os.fchmod(handle.fileno(), mode)
            handle.write(payload)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    _fsync_dir(target.parent)


def _fsync_dir(folder: Path) -> None:
    """Make a rename in ``folder`` durable (a no-op where directories cannot be opened)."""
    try:
        fd = os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    except OSError:
        return
    try:
        with suppress(OSError):  # some file systems refuse fsync on a directory
            os.fsync(fd)
    finally:
        os.close(fd)


@contextmanager
def locked(lock_path: Path | str) -> Iterator[None]:
    """Hold an exclusive ``flock`` on ``lock_path`` (created, with its folder) for the block.

    Blocking: call it from a worker thread (``in_thread``), never on the event loop.
    """
    path = Path(lock_path)
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "a+b") as handle:
        fcntl.flock(handle.fileno(), fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle.fileno(), fcntl.LOCK_UN)


async def in_thread(
    unavailable: Callable[[OSError], BaseException],
    func: Callable[P, T],
    *args: P.args,
    **kwargs: P.kwargs,
) -> T:
    """``func(*args, **kwargs)`` in a worker thread; an ``OSError`` is raised as
    ``unavailable(error)`` (chained), the store's own error with its next step."""
    try:
        return await asyncio.to_thread(func, *args, **kwargs)
    except OSError as exc:
        raise unavailable(exc) from exc


def remove_tree(folder: Path) -> int:
    """Delete ``folder`` and everything in it; how many files went (0 when it is absent)."""
    if not folder.exists():
        return 0
    count = 0
    for path in sorted(folder.rglob("*"), key=lambda p: len(p.parts), reverse=True):
        if path.is_dir() and not path.is_symlink():
            path.rmdir()
        else:
            path.unlink()
            count += 1
    folder.rmdir()
    return count


__all__ = ["atomic_write", "in_thread", "locked", "remove_tree"]
