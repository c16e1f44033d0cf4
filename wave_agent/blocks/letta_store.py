"""Core blocks in a Letta server (``LETTA_BASE_URL``), through ``letta-client``.

Mapping (one Letta block per user and label, found by listing with filters):

- the current block: Letta label ``human`` / ``persona`` (so a Letta agent sees the usual
  labels), tags ``wave`` and ``wave-user:<user id>``, metadata ``wave_user``, ``wave_label``,
  ``wave_version``, ``wave_updated_at``, ``wave_reason`` and ``wave_sha256`` (of the value).
- its history: Letta keeps none, so Wave does, in the same server: one block per version,
  label ``wave-history-<label>``, tags ``wave-history`` and ``wave-user:<user id>``, the same
  metadata. Every version that was ever current is recorded: the current block is written
  first, its history block second, and a missing history entry is filled in from the
  current block's metadata at the next write or history read (so a crash between the two
  writes loses nothing).
- a value changed outside Wave (a Letta agent's memory tools, the Letta ADE) no longer
  matches ``wave_sha256``; the next read records it as a new version, like a hand edit of a
  markdown block.

Wave enforces the character limit itself (``check_value``) before any call: the server
accepts a 3,001-character value on a block whose limit is 3,000.

When the server does not answer, reads raise ``LettaUnavailable`` (the turn goes on without
blocks) and ``set`` saves the update in a small SQLite queue (``pending_path``) and raises
``BlockUpdateQueued``; the queue is applied in order before the next operation on that block
that reaches the server, or by ``flush_pending()``. Every letta-client error is translated
here into a ``BlockStoreUnavailable`` naming the next step.

Why one file of this size: every method reads and writes the same conventions (the tags and
metadata above, the history blocks, the check against ``wave_sha256``, the offline queue),
so the mapping of the ``BlockStore`` protocol onto Letta is read in one place.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, TypeVar

import letta_client
from letta_client import AsyncLetta

from wave_agent.blocks.store import (
    DEFAULT_LIMIT,
    LABELS,
    Block,
    BlockError,
    BlockStoreUnavailable,
    BlockVersion,
    BlockVersionNotFound,
    check_label,
    check_user,
    check_value,
    default_value,
)
from wave_agent.errors import ConfigError
from wave_agent.infra.sqlite import SqliteFile
from wave_agent.settings import Settings

log = logging.getLogger("wave.blocks.letta")

T = TypeVar("T")

WAVE_TAG = "wave"
HISTORY_TAG = "wave-history"
AGENT_TAG = "wave-agent"
# Updates written while Letta did not answer, under DATA_DIR.
EXTERNAL_EDIT_REASON = "edited in Letta outside Wave"
DEFAULT_AGENT_MODEL = "letta/letta-free"
START_HINT = "start it (`scripts/letta_stack.sh up`) or unset LETTA_BASE_URL to use markdown blocks"
# Gateway answers that mean "not answering right now" rather than "refused".
TRANSIENT_STATUS = frozenset({502, 503, 504})


class LettaUnavailable(BlockStoreUnavailable):
    """The Letta server did not answer (connection refused, timeout, gateway error)."""

    def __init__(self, base_url: str, detail: str) -> None:
        self.base_url = base_url
        self.cause = detail  # what the client said, without the wrapping
        super().__init__(f"Letta at {base_url}", f"not answering ({detail})", START_HINT)


class BlockUpdateQueued(LettaUnavailable):
    """``set`` could not reach Letta; the update is saved and lands when Letta answers.

    Callers need not retry it (a retry is harmless: the same value adds no version).
    """

    def __init__(self, base_url: str, detail: str, label: str, pending_path: Path) -> None:
        super().__init__(base_url, detail)
        self.label = label
        self.pending_path = pending_path
        self.message = (
            f"{self.message}; the {label!r} update is saved in {pending_path} and will be "
            "applied when Letta answers"
        )
        self.args = (str(self),)


def user_tag(user_id: str) -> str:
    return f"wave-user:{user_id}"


def history_label(label: str) -> str:
    return f"wave-history-{check_label(label)}"


def sha256(value: str) -> str:
    return hashlib.sha256(value.encode("utf-8")).hexdigest()


@dataclass(frozen=True, slots=True)
class _Current:
    """The current Letta block of one user and label, as Wave reads it."""

    block_id: str
    value: str
    version: int
    updated_at: datetime | None
    reason: str
    sha: str | None


@dataclass(frozen=True, slots=True)
class _Pending:
    id: int
    user_id: str
    label: str
    value: str
    reason: str
    queued_at: datetime


_PENDING_SCHEMA = """
CREATE TABLE IF NOT EXISTS pending (
    id INTEGER PRIMARY KEY AUTOINCREMENT, user_id TEXT NOT NULL, label TEXT NOT NULL,
    value TEXT NOT NULL, reason TEXT NOT NULL, queued_at TEXT NOT NULL
);
"""


def _queue_unavailable(path: Path, detail: str) -> BlockStoreUnavailable:
    return BlockStoreUnavailable(
        "letta", f"the queue of unsent updates at {path} cannot be used: {detail}",
        "check that DATA_DIR is writable and the disk is not full")


class _PendingQueue:
    """Updates written while Letta did not answer, oldest first; durable (SQLite, fsynced).

    The file (``SqliteFile``) is opened at the first update; reading an absent queue finds
    nothing without creating it."""

    def __init__(self, path: Path) -> None:
        self.path = Path(path)
        self._file: SqliteFile | None = None

    def _opened(self) -> SqliteFile:
        if self._file is None:
            self._file = SqliteFile(self.path, _PENDING_SCHEMA, _queue_unavailable,
                                    synchronous_full=True, secure_delete=True)
        return self._file

    def close(self) -> None:
        if self._file is not None:
            self._file.close()
            self._file = None

    def add(self, user_id: str, label: str, value: str, reason: str) -> int:
        with self._opened().tx() as db:
            last = db.execute(
                "SELECT id, value FROM pending WHERE user_id = ? AND label = ? "
                "ORDER BY id DESC LIMIT 1",
                (user_id, label),
            ).fetchone()
            if last is not None and last[1] == value:
                return int(last[0])  # a retry of the same update: already queued
            cur = db.execute(
                "INSERT INTO pending (user_id, label, value, reason, queued_at) VALUES (?,?,?,?,?)",
                (user_id, label, value, reason, datetime.now(UTC).isoformat()),
            )
            return int(cur.lastrowid or 0)

    def list(self, user_id: str | None = None, label: str | None = None) -> list[_Pending]:
        if self._file is None and not self.path.exists():
            return []
        query = "SELECT id, user_id, label, value, reason, queued_at FROM pending"
        params: tuple[str, ...] = ()
        if user_id is not None and label is not None:
            query += " WHERE user_id = ? AND label = ?"
            params = (user_id, label)
        with self._opened().read() as db:
            rows = db.execute(query + " ORDER BY id", params).fetchall()
        return [
            _Pending(int(r[0]), r[1], r[2], r[3], r[4], datetime.fromisoformat(r[5])) for r in rows
        ]

    def remove(self, entry_id: int) -> None:
        with self._opened().tx() as db:
            db.execute("DELETE FROM pending WHERE id = ?", (entry_id,))

    def rewrite(self, user_id: str, label: str, change: Callable[[str, str], str]) -> int:
        """Erasure: pass queued values through ``change``; zeroes what it frees."""
        if self._file is None and not self.path.exists():
            return 0
        changed = 0
        with self._opened().tx() as db:
            rows = db.execute(
                "SELECT id, value, reason FROM pending WHERE user_id = ? AND label = ?",
                (user_id, label),
            ).fetchall()
            for entry_id, value, reason in rows:
                after = change(value, reason)
                if after != value:
                    db.execute("UPDATE pending SET value = ? WHERE id = ?", (after, entry_id))
                    changed += 1
        if changed:
            self._opened().compact()
        return changed

    def erase_user(self, user_id: str) -> int:
        """Erasure: drop every queued update of the person; zeroes what it frees."""
        if self._file is None and not self.path.exists():
            return 0
        with self._opened().tx() as db:
            removed = int(db.execute("DELETE FROM pending WHERE user_id = ?", (user_id,)).rowcount)
        if removed:
            self._opened().compact()
        return removed


class LettaBlockStore:
    """``BlockStore`` on a Letta server; used when ``LETTA_BASE_URL`` is set."""

    def __init__(
        self,
        base_url: str,
        *,
        pending_path: Path,
        api_key: str | None = None,
        limit: int = DEFAULT_LIMIT,
        timeout_s: float = 10.0,
        max_retries: int = 1,
    ) -> None:
        self.base_url = base_url.rstrip("/")
        self.limit = limit
        self.pending_path = Path(pending_path)
        self._pending = _PendingQueue(self.pending_path)
        # api_key None sends no Authorization header (a local server needs none).
        self._client = AsyncLetta(
            base_url=self.base_url,
            api_key=api_key,
            timeout=timeout_s,
            max_retries=max_retries,
        )
        self._locks: dict[tuple[str, str], asyncio.Lock] = {}
        self._closed = False

    @classmethod
    def from_settings(cls, settings: Settings) -> LettaBlockStore:
        """The store ``Services.blocks()`` opens when ``LETTA_BASE_URL`` is set."""
        if not settings.letta_base_url:
            raise ConfigError(
                "LETTA_BASE_URL",
                "is not set",
                "set it to the Letta server's URL, e.g. "
                "http://127.0.0.1:18283 (`scripts/letta_stack.sh up` runs one)",
            )
        return cls(
            settings.letta_base_url,
            api_key=settings.letta_api_key,
            limit=settings.block_limit,
            pending_path=settings.letta_pending_path,
            timeout_s=max(5.0, settings.store_timeout_s),
        )

    # Protocol --------------------------------------------------------------------------------

    async def get(self, user_id: str, label: str) -> Block:
        check_user(user_id)
        check_label(label)
        async with self._lock(user_id, label):
            await self._flush(user_id, label)
            current = await self._current(user_id, label)
            return self._block(user_id, label, current)

    async def set(self, user_id: str, label: str, value: str, *, reason: str) -> Block:
        check_user(user_id)
        check_label(label)
        check_value(label, value, self.limit)
        async with self._lock(user_id, label):
            try:
                await self._flush(user_id, label)
                return await self._write(user_id, label, value, reason)
            except LettaUnavailable as exc:
                await asyncio.to_thread(self._pending.add, user_id, label, value, reason)
                log.warning(
                    "Letta at %s is not answering; queued the %s update of %s in %s",
                    self.base_url,
                    label,
                    user_id,
                    self.pending_path,
                )
                raise BlockUpdateQueued(
                    self.base_url, exc.cause, label, self.pending_path
                ) from exc

    async def history(self, user_id: str, label: str) -> list[BlockVersion]:
        check_user(user_id)
        check_label(label)
        async with self._lock(user_id, label):
            await self._flush(user_id, label)
            current = await self._current(user_id, label)
            return await self._history(user_id, label, current)

    async def revert(self, user_id: str, label: str, version: int) -> Block:
        check_user(user_id)
        check_label(label)
        async with self._lock(user_id, label):
            await self._flush(user_id, label)
            current = await self._current(user_id, label)
            history = await self._history(user_id, label, current)
            chosen = next((h for h in history if h.version == version), None)
            if chosen is None:
                raise BlockVersionNotFound(label, version, [h.version for h in history])
            check_value(label, chosen.value, self.limit)
            return await self._write(user_id, label, chosen.value, f"revert to version {version}")

    async def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        self._locks.clear()
        self._pending.close()
        await self._client.close()

    # Beyond the protocol ---------------------------------------------------------------------

    def edit_lock_path(self, user_id: str, label: str) -> Path:
        """The file whose ``flock`` serialises edits (read, change, write) across the processes
        of one machine (beside the queue of updates, under ``DATA_DIR``)."""
        from episodes.paths import safe_user_dir

        check_user(user_id)
        check_label(label)
        return self.pending_path.parent / "block-edits" / f"{safe_user_dir(user_id)}.{label}.lock"

    async def ping(self) -> str:
        """The server's version (``GET /v1/health/``); raises ``LettaUnavailable`` if down."""
        health = await self._call("check health", lambda: self._client.health())
        return str(getattr(health, "version", ""))

    async def pending_count(self) -> int:
        return len(await asyncio.to_thread(self._pending.list))

    async def pending_updates(self) -> list[_Pending]:
        """The queued updates, oldest first (what ``flush_pending`` would apply)."""
        return await asyncio.to_thread(self._pending.list)

    async def flush_pending(self) -> int:
        """Apply every queued update, oldest first per block; returns how many landed.

        A block Letta refuses (or a Letta gone again) does not hold up the other blocks: each
        is tried, and the first failure is raised once all have been tried (its entries stay
        queued for the next run)."""
        entries = await asyncio.to_thread(self._pending.list)
        applied = 0
        first_failure: Exception | None = None
        for key in dict.fromkeys((e.user_id, e.label) for e in entries):
            try:
                async with self._lock(*key):
                    applied += await self._flush(*key)
            except BlockError as exc:
                log.warning("queued %s update of %s not applied yet: %s", key[1], key[0], exc)
                first_failure = first_failure or exc
        if first_failure is not None:
            raise first_failure
        return applied

    async def rewrite_versions(
        self, user_id: str, label: str, change: Callable[[str, str], str]
    ) -> int:
        """Erasure: pass the current block, every history block and every queued update
        through ``change(value, reason)``; values are replaced in place (version numbers and
        reasons kept, ``wave_sha256`` updated so the change is not taken for an outside edit).
        Returns how many stored versions changed."""
        check_user(user_id)
        check_label(label)
        async with self._lock(user_id, label):
            changed = await asyncio.to_thread(self._pending.rewrite, user_id, label, change)
            current = await self._current(user_id, label)
            if current is not None:
                after = change(current.value, current.reason)
                if after != current.value:
                    await self._replace_value(current.block_id, user_id, label, current.version,
                                              current.updated_at, current.reason, after)
                    changed += 1
            for block in await self._list_blocks(
                history_label(label), [HISTORY_TAG, user_tag(user_id)]
            ):
                meta = _meta(block)
                if meta.get("wave_user") != user_id or meta.get("wave_label") != label:
                    continue
                value = str(block.value or "")
                reason = str(meta.get("wave_reason") or "")
                after = change(value, reason)
                if after != value:
                    await self._replace_value(
                        str(block.id), user_id, label, int(meta.get("wave_version") or 0),
                        _parse_time(meta.get("wave_updated_at")), reason, after)
                    changed += 1
            return changed

    async def erase_user(self, user_id: str) -> int:
        """Erasure: delete the person's blocks, their history blocks, the Letta agent Wave made
        for them, and their queued updates. Returns how many Letta objects went."""
        check_user(user_id)
        await asyncio.to_thread(self._pending.erase_user, user_id)
        removed = 0
        for label in LABELS:
            async with self._lock(user_id, label):
                for found_label, tags in ((label, [WAVE_TAG, user_tag(user_id)]),
                                          (history_label(label), [HISTORY_TAG, user_tag(user_id)])):
                    for block in await self._list_blocks(found_label, tags):
                        if _meta(block).get("wave_user") != user_id:
                            continue
                        await self._call("delete a block",
                                         lambda b=str(block.id): self._client.blocks.delete(b))  # type: ignore[misc]
                        removed += 1
        agents = await self._call(
            "list agents",
            lambda: self._collect(self._client.agents.list(
                tags=[AGENT_TAG, user_tag(user_id)], match_all_tags=True)),
        )
        for agent in agents:
            if (agent.metadata or {}).get("wave_user") == user_id:
                await self._call("delete an agent",
                                 lambda a=str(agent.id): self._client.agents.delete(a))  # type: ignore[misc]
                removed += 1
        return removed

    async def _replace_value(self, block_id: str, user_id: str, label: str, version: int,
                             at: datetime | None, reason: str, value: str) -> None:
        await self._call(
            "rewrite a block",
            lambda: self._client.blocks.update(
                block_id, value=value, limit=max(self.limit, len(value)),
                metadata=self._metadata(user_id, label, version, at, reason, value)),
        )

    async def attach_to_agent(
        self,
        user_id: str,
        *,
        model: str = DEFAULT_AGENT_MODEL,
        embedding: str = DEFAULT_AGENT_MODEL,
    ) -> str:
        """Attach this user's blocks to a Letta agent (created once, no model call); its id.

        The agent holds the very blocks Wave writes, so a Letta deployment sees the same core
        memory. Blocks never written are created with their default text at version 0.
        """
        check_user(user_id)
        async with self._lock(user_id, AGENT_TAG):  # one agent per user, even when racing
            return await self._attach_to_agent(user_id, model, embedding)

    async def _attach_to_agent(self, user_id: str, model: str, embedding: str) -> str:
        block_ids: list[str] = []
        for label in LABELS:
            async with self._lock(user_id, label):
                await self._flush(user_id, label)
                current = await self._current(user_id, label)
                if current is None:
                    current = await self._create_current(user_id, label, default_value(label))
                block_ids.append(current.block_id)
        tags = [AGENT_TAG, user_tag(user_id)]
        agents = await self._call(
            "list agents",
            lambda: self._collect(self._client.agents.list(tags=tags, match_all_tags=True)),
        )
        agents = [a for a in agents if (a.metadata or {}).get("wave_user") == user_id]
        if not agents:
            agent = await self._call(
                "create an agent",
                lambda: self._client.agents.create(
                    name=f"wave-{user_id}",
                    description=f"Wave's core memory for user {user_id}",
                    model=model,
                    embedding=embedding,
                    block_ids=block_ids,
                    tags=tags,
                    metadata={"wave_user": user_id},
                    include_base_tools=False,
                ),
            )
            log.info("created Letta agent %s for %s with its core blocks", agent.id, user_id)
            return str(agent.id)
        agent_id = str(agents[0].id)
        attached = await self._call(
            "list an agent's blocks",
            lambda: self._collect(self._client.agents.blocks.list(agent_id)),
        )
        have = {b.id for b in attached}
        for block_id in block_ids:
            if block_id not in have:
                await self._call(
                    "attach a block to an agent",
                    lambda b=block_id: self._client.agents.blocks.attach(b, agent_id=agent_id),  # type: ignore[misc]
                )
        return agent_id

    # Internals -------------------------------------------------------------------------------

    def _lock(self, user_id: str, label: str) -> asyncio.Lock:
        return self._locks.setdefault((user_id, label), asyncio.Lock())

    async def _call(self, what: str, make: Callable[[], Awaitable[T]]) -> T:
        """Run one letta-client call; translate its errors into Wave errors with a next step."""
        if self._closed:
            raise BlockStoreUnavailable(
                f"Letta at {self.base_url}", "this store is closed", "open a new one"
            )
        try:
            return await make()
        except letta_client.APIConnectionError as exc:  # refused, reset, DNS, timeout
            raise LettaUnavailable(self.base_url, f"{what}: {exc}") from exc
        except letta_client.APIStatusError as exc:
            code = exc.status_code
            detail = f"{what}: HTTP {code} {_short(exc)}"
            if code in TRANSIENT_STATUS:
                raise LettaUnavailable(self.base_url, detail) from exc
            if code in (401, 403):
                step = (
                    "set LETTA_API_KEY to a key this server accepts, or unset LETTA_BASE_URL "
                    "to use markdown blocks"
                )
            elif code >= 500:
                step = (
                    "look at the Letta server's log (scripts/letta_stack.sh keeps it in "
                    ".letta/run/letta.log); if it goes on, unset LETTA_BASE_URL to use markdown "
                    "blocks"
                )
            else:
                step = (
                    "check that LETTA_BASE_URL points at a Letta 0.16 server "
                    "(`scripts/letta_stack.sh up` runs one)"
                )
            raise BlockStoreUnavailable(f"Letta at {self.base_url}", detail, step) from exc
        except letta_client.LettaError as exc:
            raise BlockStoreUnavailable(
                f"Letta at {self.base_url}", f"{what}: {exc}", START_HINT
            ) from exc

    @staticmethod
    async def _collect(pages: Any) -> list[Any]:
        return [item async for item in pages]

    async def _list_blocks(self, label: str, tags: list[str]) -> list[Any]:
        return await self._call(
            "list blocks",
            lambda: self._collect(
                self._client.blocks.list(
                    label=label, tags=tags, match_all_tags=True, order="asc", limit=100
                )
            ),
        )

    async def _current(self, user_id: str, label: str) -> _Current | None:
        found = [
            b
            for b in await self._list_blocks(label, [WAVE_TAG, user_tag(user_id)])
            if _meta(b).get("wave_user") == user_id and _meta(b).get("wave_label") == label
        ]
        if not found:
            return None
        if len(found) > 1:
            log.warning(
                "%d Letta blocks hold %s of %s; using the one with the highest version",
                len(found),
                label,
                user_id,
            )
        best = max(found, key=lambda b: int(_meta(b).get("wave_version") or 0))
        meta = _meta(best)
        current = _Current(
            block_id=str(best.id),
            value=str(best.value or ""),
            version=int(meta.get("wave_version") or 0),
            updated_at=_parse_time(meta.get("wave_updated_at")),
            reason=str(meta.get("wave_reason") or ""),
            sha=meta.get("wave_sha256"),
        )
        if current.sha is not None and current.sha != sha256(current.value):
            current = await self._record_external_edit(user_id, label, current)
        return current

    async def _record_external_edit(self, user_id: str, label: str, current: _Current) -> _Current:
        """A value changed outside Wave becomes a new version (history stays complete)."""
        if len(current.value) > self.limit:
            log.warning(
                "the %s block of %s was edited in Letta to %d characters (limit %d); kept",
                label,
                user_id,
                len(current.value),
                self.limit,
            )
        log.info("recording an edit made in Letta to %s of %s", label, user_id)
        return await self._update_current(
            user_id, label, current, current.value, EXTERNAL_EDIT_REASON
        )

    def _block(self, user_id: str, label: str, current: _Current | None) -> Block:
        if current is None or current.version == 0:
            return Block(user_id, label, default_value(label), self.limit, 0, None)
        return Block(user_id, label, current.value, self.limit, current.version, current.updated_at)

    def _metadata(
        self, user_id: str, label: str, version: int, at: datetime | None, reason: str, value: str
    ) -> dict[str, object]:
        return {
            "wave_user": user_id,
            "wave_label": label,
            "wave_version": version,
            "wave_updated_at": at.isoformat() if at else None,
            "wave_reason": reason,
            "wave_sha256": sha256(value),
        }

    async def _create_current(
        self, user_id: str, label: str, value: str, version: int = 0, reason: str = ""
    ) -> _Current:
        at = datetime.now(UTC) if version else None
        block = await self._call(
            "create a block",
            lambda: self._client.blocks.create(
                label=label,
                value=value,
                limit=max(self.limit, len(value)),
                description=f"Wave core block {label!r} of user {user_id}",
                tags=[WAVE_TAG, user_tag(user_id)],
                metadata=self._metadata(user_id, label, version, at, reason, value),
            ),
        )
        created = _Current(str(block.id), value, version, at, reason, sha256(value))
        if version:
            await self._add_history(user_id, label, created)
        return created

    async def _update_current(
        self, user_id: str, label: str, current: _Current, value: str, reason: str
    ) -> _Current:
        version = current.version + 1
        at = datetime.now(UTC)
        await self._call(
            "update a block",
            lambda: self._client.blocks.update(
                current.block_id,
                value=value,
                limit=max(self.limit, len(value)),
                metadata=self._metadata(user_id, label, version, at, reason, value),
            ),
        )
        updated = _Current(current.block_id, value, version, at, reason, sha256(value))
        await self._add_history(user_id, label, updated)
        return updated

    async def _write(self, user_id: str, label: str, value: str, reason: str) -> Block:
        current = await self._current(user_id, label)
        if current is not None and current.version > 0 and current.value == value:
            return self._block(user_id, label, current)
        if current is None:
            updated = await self._create_current(user_id, label, value, 1, reason)
        else:
            await self._ensure_in_history(user_id, label, current)
            updated = await self._update_current(user_id, label, current, value, reason)
        log.info("block %s of %s is now version %d (%s)", label, user_id, updated.version, reason)
        return self._block(user_id, label, updated)

    async def _history_blocks(self, user_id: str, label: str) -> list[BlockVersion]:
        versions: dict[int, BlockVersion] = {}
        for b in await self._list_blocks(history_label(label), [HISTORY_TAG, user_tag(user_id)]):
            meta = _meta(b)
            if meta.get("wave_user") != user_id or meta.get("wave_label") != label:
                continue
            at = _parse_time(meta.get("wave_updated_at"))
            version = int(meta.get("wave_version") or 0)
            if at is None or version <= 0:
                continue
            versions.setdefault(
                version,
                BlockVersion(version, str(b.value or ""), at, str(meta.get("wave_reason") or "")),
            )
        return [versions[v] for v in sorted(versions)]

    async def _history(
        self, user_id: str, label: str, current: _Current | None
    ) -> list[BlockVersion]:
        history = await self._history_blocks(user_id, label)
        if (
            current is not None
            and current.version > 0
            and (not history or history[-1].version < current.version)
        ):
            await self._add_history(user_id, label, current)
            history.append(_version_of(current))
        return history

    async def _ensure_in_history(self, user_id: str, label: str, current: _Current) -> None:
        """Record ``current`` in history if an interrupted write left it out."""
        if current.version <= 0:
            return
        page = await self._call(
            "list blocks",
            lambda: self._client.blocks.list(
                label=history_label(label),
                tags=[HISTORY_TAG, user_tag(user_id)],
                match_all_tags=True,
                order="desc",
                limit=5,
            ),
        )
        newest = max(
            (
                int(_meta(b).get("wave_version") or 0)
                for b in page.items
                if _meta(b).get("wave_user") == user_id and _meta(b).get("wave_label") == label
            ),
            default=0,
        )
        if newest < current.version:
            await self._add_history(user_id, label, current)

    async def _add_history(self, user_id: str, label: str, current: _Current) -> None:
        at = current.updated_at or datetime.now(UTC)
        await self._call(
            "record a block version",
            lambda: self._client.blocks.create(
                label=history_label(label),
                value=current.value,
                limit=max(self.limit, len(current.value)),
                description=f"Wave: version {current.version} of {label!r} for user {user_id}",
                tags=[HISTORY_TAG, user_tag(user_id)],
                metadata=self._metadata(
                    user_id, label, current.version, at, current.reason, current.value
                ),
            ),
        )

    async def _flush(self, user_id: str, label: str) -> int:
        """Apply this block's queued updates in order (caller holds the block's lock)."""
        entries = await asyncio.to_thread(self._pending.list, user_id, label)
        for entry in entries:
            reason = (
                f"{entry.reason} (written while Letta was unreachable, "
                f"{entry.queued_at:%Y-%m-%d %H:%M:%S} UTC)"
            )
            await self._write(user_id, label, entry.value, reason)
            await asyncio.to_thread(self._pending.remove, entry.id)
            log.info(
                "applied the queued %s update of %s (queued %s)", label, user_id, entry.queued_at
            )
        return len(entries)


def _meta(block: Any) -> dict[str, Any]:
    meta = getattr(block, "metadata", None)
    return meta if isinstance(meta, dict) else {}


def _parse_time(raw: object) -> datetime | None:
    if not isinstance(raw, str) or not raw:
        return None
    try:
        parsed = datetime.fromisoformat(raw)
    except ValueError:
        return None
    return parsed if parsed.tzinfo else parsed.replace(tzinfo=UTC)


def _version_of(current: _Current) -> BlockVersion:
    return BlockVersion(
        current.version, current.value, current.updated_at or datetime.now(UTC), current.reason
    )


def _short(exc: letta_client.APIStatusError) -> str:
    body = exc.body
    if isinstance(body, dict) and body.get("detail"):
        text = str(body["detail"])
    else:
        text = str(exc.message)
    return text if len(text) <= 300 else text[:297] + "..."
