"""One local archive behind every door: Qdrant local mode shared by the processes of one machine.

Qdrant's local mode lets one process open its directory. The bot, the page, an MCP server and
the CLI are separate processes, so whichever opened it second used to answer without the
semantic voice. ``SharedArchive`` is an ``ArchiveStore`` on the local directory that, when it
opens the directory, also serves it on a Unix socket (the "door"); when another process holds
the directory, it sends each call through that process's door instead. When the holder exits
(or is killed: the kernel drops its lock), the next call finds the door closed and takes the
directory itself, then serves it in turn.

- **Who may knock.** The socket lives in a directory only this user can enter (mode 700) and
  is itself mode 600: the same person's processes, and nobody else. It carries calls, not
  code: a method name from ``CALLS`` and JSON arguments.
- **Protocol.** One JSON object a line each way: ``{"call", "args", "kwargs"}`` and back
  ``{"ok": value}`` or ``{"error": {"kind", "message", "next_step"}}``. numpy arrays, datetimes,
  sets, ``ArchiveRecord`` and ``ArchiveHit`` travel as tagged objects. A refusal
  (``ArchiveInputError``) comes back as itself; anything else the holder hit becomes
  ``ArchiveUnavailable`` naming the holder.
- **Cost.** One round trip on a local socket per call (well under a millisecond for a search's
  vector; docs/benchmarks.md, "Start-up and every door at once").
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import logging
import os
import stat
import tempfile
from collections.abc import Iterable
from dataclasses import fields
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from archive.errors import ArchiveInputError, ArchiveLocked, ArchiveUnavailable
from archive.models import ArchiveHit, ArchiveRecord
from archive.store import ArchiveStore

if TYPE_CHECKING:
    from archive.embedder import Embedder

log = logging.getLogger("wave.archive.door")

# The ArchiveStore methods a door forwards (every public read and write).
CALLS = frozenset({
    "other_models", "upsert", "set_payload", "delete", "drop_user", "compact", "search", "has",
    "vectors", "fact_ids", "count",
})
# A bulk upsert carries its vectors: lines up to this size.
LINE_LIMIT = 256 * 1024 * 1024
CALL_TIMEOUT_S = 300.0
_RECORD_FIELDS = tuple(f.name for f in fields(ArchiveRecord))


class DoorClosed(Exception):
    """No process answers on the door (it exited, or never served one)."""


def door_path(archive_path: Path) -> Path:
    """The socket for ``archive_path``: short (a socket path has ~100 bytes), per user, and the
    same for every process that means the same directory."""
    key = hashlib.sha256(str(archive_path.expanduser().resolve()).encode()).hexdigest()[:20]
    return Path(tempfile.gettempdir()) / f"wave-{os.getuid()}" / f"archive-{key}.sock"


def _private_folder(folder: Path) -> None:
    """Make ``folder`` (mode 700) or refuse one someone else owns or can enter."""
    folder.mkdir(mode=0o700, exist_ok=True)
    info = folder.lstat()
    if not stat.S_ISDIR(info.st_mode) or info.st_uid != os.getuid():
        raise ArchiveUnavailable(str(folder), "the door's folder belongs to another user")
    if stat.S_IMODE(info.st_mode) & 0o077:
        folder.chmod(0o700)


# The codec ---------------------------------------------------------------------------------

def encode(value: Any) -> Any:
    """``value`` as JSON-ready data, arrays, times and the archive's dataclasses tagged."""
    if isinstance(value, np.ndarray):
        return {"$nd": np.asarray(value, dtype=np.float32).tolist()}
    if isinstance(value, np.generic):
        return value.item()
    if isinstance(value, datetime):
        return {"$dt": value.isoformat()}
    if isinstance(value, ArchiveRecord):
        return {"$rec": {name: encode(getattr(value, name)) for name in _RECORD_FIELDS}}
    if isinstance(value, ArchiveHit):
        return {"$hit": [value.fact_id, value.score, encode(value.payload)]}
    if isinstance(value, (set, frozenset)):
        return {"$set": [encode(v) for v in value]}
    if isinstance(value, dict):
        return {str(k): encode(v) for k, v in value.items()}
    if isinstance(value, (str, bytes)) or value is None or isinstance(value, (bool, int, float)):
        return value
    if isinstance(value, Iterable):  # lists, tuples, generators of ids
        return [encode(v) for v in value]
    raise TypeError(f"the archive door cannot carry {type(value).__name__}")


def decode(value: Any) -> Any:
    if isinstance(value, list):
        return [decode(v) for v in value]
    if not isinstance(value, dict):
        return value
    if len(value) == 1:
        (tag, inner), = value.items()
        if tag == "$nd":
            return np.asarray(inner, dtype=np.float32)
        if tag == "$dt":
            return datetime.fromisoformat(inner)
        if tag == "$set":
            return {decode(v) for v in inner}
        if tag == "$rec":
            return ArchiveRecord(**{k: decode(v) for k, v in inner.items()})
        if tag == "$hit":
            return ArchiveHit(inner[0], float(inner[1]), decode(inner[2]))
    return {k: decode(v) for k, v in value.items()}


# The shared store ------------------------------------------------------------------------------

class SharedArchive(ArchiveStore):
    """The local archive, held by this process or reached through the holder's door."""

    def __init__(self, path: Path | str, *, model_name: str, dim: int,
                 embedder: Embedder | None = None, socket: Path | None = None) -> None:
        super().__init__(model_name=model_name, dim=dim, path=Path(path), embedder=embedder,
                         per_user=True)
        assert self.path is not None
        self.socket = socket or door_path(self.path)
        self._server: asyncio.Server | None = None
        self._callers: set[asyncio.Task[Any]] = set()
        self._peer: tuple[asyncio.StreamReader, asyncio.StreamWriter] | None = None
        self._peer_lock = asyncio.Lock()
        self._take_lock = asyncio.Lock()

    @property
    def holding(self) -> bool:
        """Whether this process holds the directory (and serves the door)."""
        return self._client is not None

    @property
    def through_door(self) -> bool:
        """Whether calls go through another process's door."""
        return self._peer is not None and not self.holding

    async def open(self) -> None:
        """Hold the directory, or reach its holder; ``ArchiveLocked`` when neither works."""
        if self.holding or self._peer is not None:
            return
        try:
            await self._take()
        except ArchiveLocked:
            async with self._peer_lock:
                try:
                    await self._connect()
                except DoorClosed:
                    pass
                else:
                    return
            raise

    async def close(self) -> None:
        await self._drop_peer()
        server, self._server = self._server, None
        if server is not None:
            server.close()
            callers, self._callers = list(self._callers), set()
            for task in callers:  # each caller finds the door closed and takes the directory
                task.cancel()
            await asyncio.gather(*callers, return_exceptions=True)
            with contextlib.suppress(Exception):
                await server.wait_closed()
            self.socket.unlink(missing_ok=True)
        await super().close()

    # Routing ---------------------------------------------------------------------------------

    async def _route(self, name: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
        local = getattr(ArchiveStore, name)
        last: ArchiveLocked | None = None
        for attempt in range(3):
            if self.holding:
                return await local(self, *args, **kwargs)
            if self._peer is None:
                try:
                    await self._take()
                    continue
                except ArchiveLocked as locked:
                    last = locked
            try:
                return await self._forward(name, args, kwargs)
            except DoorClosed:
                # the holder left (or serves no door): take the directory, or wait for the
                # next holder to open its door
                await asyncio.sleep(0.05 * attempt)
        assert last is not None
        raise last

    async def _take(self) -> None:
        """Open the directory here and serve the door; ``ArchiveLocked`` if another holds it."""
        async with self._take_lock:
            if self.holding:
                return
            await asyncio.to_thread(self._client_sync)
            await self._serve()
            log.info("holding the local archive at %s; other Wave processes reach it at %s",
                     self.path, self.socket)

    # The door, served -----------------------------------------------------------------------

    async def _serve(self) -> None:
        _private_folder(self.socket.parent)
        self.socket.unlink(missing_ok=True)  # a door left by a holder that died: we hold now
        self._server = await asyncio.start_unix_server(self._answer, path=str(self.socket),
                                                       limit=LINE_LIMIT)
        self.socket.chmod(0o600)

    async def _answer(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        task = asyncio.current_task()
        if task is not None:
            self._callers.add(task)
        try:
            while line := await reader.readline():
                writer.write(json.dumps(await self._carry_out(line)).encode() + b"\n")
                await writer.drain()
        except (ConnectionError, asyncio.IncompleteReadError, ValueError):
            pass  # the caller went away (or sent a line over the limit): its calls end here
        except asyncio.CancelledError:
            pass  # this process is letting the directory go (``close``)
        finally:
            self._callers.discard(task)
            writer.close()

    async def _carry_out(self, line: bytes) -> dict[str, Any]:
        try:
            request = json.loads(line)
            name = request["call"]
            if name not in CALLS:
                raise ArchiveInputError(f"the archive door has no call {name!r}",
                                        next_step=f"use one of {sorted(CALLS)}")
            method = getattr(ArchiveStore, name)
            result = await method(self, *decode(request["args"]), **decode(request["kwargs"]))
            return {"ok": encode(result)}
        except Exception as exc:  # every failure goes back to the caller, which raises it
            kind = "refused" if isinstance(exc, ArchiveInputError) else "unavailable"
            if kind == "unavailable":
                log.warning("a call through the archive door failed: %s", exc)
            return {"error": {"kind": kind, "message": getattr(exc, "message", str(exc)),
                              "next_step": getattr(exc, "next_step", None)}}

    # The door, knocked on ------------------------------------------------------------------------

    async def _forward(self, name: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
        line = json.dumps({"call": name, "args": encode(args), "kwargs": encode(kwargs)})
        async with self._peer_lock:
            reader, writer = await self._connect()
            try:
                async with asyncio.timeout(CALL_TIMEOUT_S):
                    writer.write(line.encode() + b"\n")
                    await writer.drain()
                    answer = await reader.readline()
            except (ConnectionError, OSError) as exc:
                await self._drop_peer_locked()
                raise DoorClosed(str(exc)) from exc
            except TimeoutError as exc:
                await self._drop_peer_locked()
                raise ArchiveUnavailable(str(self.path), f"the holding process did not answer "
                                         f"{name} within {CALL_TIMEOUT_S:.0f}s") from exc
            if not answer:
                await self._drop_peer_locked()
                raise DoorClosed("the holder closed the door")
        reply = json.loads(answer)
        if "ok" in reply:
            return decode(reply["ok"])
        error = reply["error"]
        if error["kind"] == "refused":
            raise ArchiveInputError(error["message"], next_step=error["next_step"])
        raise ArchiveUnavailable(f"{self.path} (through the process holding it)", error["message"])

    async def _connect(self) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
        if self._peer is None:
            try:
                self._peer = await asyncio.open_unix_connection(str(self.socket), limit=LINE_LIMIT)
            except OSError as exc:  # no socket, or nobody listening on it
                raise DoorClosed(str(exc)) from exc
            log.info("the local archive at %s is held by another Wave process; using its door",
                     self.path)
        return self._peer

    async def _drop_peer(self) -> None:
        async with self._peer_lock:
            await self._drop_peer_locked()

    async def _drop_peer_locked(self) -> None:
        peer, self._peer = self._peer, None
        if peer is not None:
            peer[1].close()
            with contextlib.suppress(Exception):
                await peer[1].wait_closed()

    # The archive's calls, routed ---------------------------------------------------------------

    async def other_models(self, *args: Any, **kwargs: Any) -> list[str]:
        return await self._route("other_models", args, kwargs)  # type: ignore[no-any-return]

    async def upsert(self, *args: Any, **kwargs: Any) -> int:
        return await self._route("upsert", args, kwargs)  # type: ignore[no-any-return]

    async def set_payload(self, *args: Any, **kwargs: Any) -> bool:
        return await self._route("set_payload", args, kwargs)  # type: ignore[no-any-return]

    async def delete(self, *args: Any, **kwargs: Any) -> None:
        await self._route("delete", args, kwargs)

    async def drop_user(self, *args: Any, **kwargs: Any) -> None:
        await self._route("drop_user", args, kwargs)

    async def compact(self, *args: Any, **kwargs: Any) -> bool:
        return await self._route("compact", args, kwargs)  # type: ignore[no-any-return]

    async def search(self, *args: Any, **kwargs: Any) -> list[ArchiveHit]:
        return await self._route("search", args, kwargs)  # type: ignore[no-any-return]

    async def has(self, *args: Any, **kwargs: Any) -> bool:
        return await self._route("has", args, kwargs)  # type: ignore[no-any-return]

    async def vectors(self, *args: Any, **kwargs: Any) -> dict[str, np.ndarray]:
        return await self._route("vectors", args, kwargs)  # type: ignore[no-any-return]

    async def fact_ids(self, *args: Any, **kwargs: Any) -> set[str]:
        return await self._route("fact_ids", args, kwargs)  # type: ignore[no-any-return]

    async def count(self, *args: Any, **kwargs: Any) -> int:
        return await self._route("count", args, kwargs)  # type: ignore[no-any-return]
