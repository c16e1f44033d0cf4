"""``GraphStore``: Wave's system of record on Neo4j (async driver, one per process).

The operations live in ``graph.queries`` (facts, entities, review); this module binds them to
a driver (``GraphStore``: each call its own managed transaction) or to one explicit
transaction (``GraphTransaction``, from ``async with store.transaction() as tx``: the same
methods, committed together on success, rolled back on error). Driver exceptions are
translated into ``graph.errors`` here, at the boundary.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from neo4j import (
    AsyncDriver,
    AsyncGraphDatabase,
    NotificationDisabledClassification,
    Record,
    RoutingControl,
)
from neo4j import exceptions as neo

from graph import schema
from graph.errors import translated
from graph.queries.commitments import CommitmentQueries
from graph.queries.context import ContextQueries
from graph.queries.entities import EntityQueries
from graph.queries.erasure import ErasureQueries
from graph.queries.facts import FactQueries
from graph.queries.review import ReviewQueries

log = logging.getLogger("wave.graph")

# Server notifications the driver would log on every call but that say nothing actionable
# here: "property key does not exist" on a fresh database, planner hints, schema "already
# exists" for IF NOT EXISTS. Deprecations and security notices stay on.
_QUIET = [
    NotificationDisabledClassification.UNRECOGNIZED,
    NotificationDisabledClassification.HINT,
    NotificationDisabledClassification.PERFORMANCE,
    NotificationDisabledClassification.SCHEMA,
    NotificationDisabledClassification.TOPOLOGY,
    NotificationDisabledClassification.GENERIC,
]


class _Operations(FactQueries, EntityQueries, ReviewQueries, ContextQueries, ErasureQueries,
                  CommitmentQueries):
    """Every graph operation, over some executor."""


class GraphTransaction(_Operations):
    """The graph operations inside one explicit transaction (see ``GraphStore.transaction``)."""

    def __init__(self, tx: Any, uri: str) -> None:
        self._tx = tx
        self._uri = uri

    async def _run(self, query: str, params: dict[str, Any]) -> list[Record]:
        with translated(self._uri):
            result = await self._tx.run(query, params)
            return [record async for record in result]

    async def _read(self, cypher: str, /, **params: Any) -> list[Record]:
        return await self._run(cypher, params)

    async def _write(self, cypher: str, /, **params: Any) -> list[Record]:
        return await self._run(cypher, params)

    @asynccontextmanager
    async def _atomic(self) -> AsyncIterator[GraphTransaction]:
        yield self


class GraphStore(_Operations):
    """The graph store: open with ``await GraphStore.connect(...)``, close with ``close()``."""

    def __init__(self, driver: AsyncDriver, uri: str, database: str) -> None:
        self._driver = driver
        self.uri = uri
        self.database = database

    @classmethod
    async def connect(
        cls,
        uri: str,
        user: str | None = None,
        password: str | None = None,
        database: str = "neo4j",
        *,
        connection_timeout: float = 5.0,
        max_retry_time: float = 10.0,
    ) -> GraphStore:
        """Open a driver and check that Neo4j answers (raises ``GraphUnavailable`` if not).

        ``max_retry_time`` bounds how long one call keeps retrying transient failures
        (deadlocks, a restarting server) before it raises.
        """
        auth = (user, password) if user is not None and password is not None else None
        with translated(uri):
            driver = AsyncGraphDatabase.driver(
                uri, auth=auth, connection_timeout=connection_timeout,
                connection_acquisition_timeout=connection_timeout * 2,
                notifications_disabled_classifications=_QUIET,
                max_transaction_retry_time=max_retry_time,
            )
        store = cls(driver, uri, database)
        try:
            with translated(uri):
                await driver.verify_connectivity()
        except BaseException:
            await driver.close()
            raise
        log.info("graph store connected to %s (database %s)", uri, database)
        return store

    async def close(self) -> None:
        with translated(self.uri):
            await self._driver.close()

    async def ping(self) -> bool:
        """True when Neo4j answers a query; raises ``GraphUnavailable`` when it does not."""
        records = await self._read("RETURN 1 AS ok")
        return bool(records and records[0]["ok"] == 1)

    async def answers(self) -> bool:
        """One ``RETURN 1`` in an auto-commit transaction: no retries, so a server that refuses
        connections raises ``GraphUnavailable`` at once (``ping`` goes through the managed
        transactions, which retry for up to ``max_retry_time``). The turn's health check."""
        with translated(self.uri):
            async with self._driver.session(database=self.database) as session:
                result = await session.run("RETURN 1 AS ok")
                record = await result.single()
        return bool(record is not None and record["ok"] == 1)

    async def ensure_schema(self, *, timeout_s: int = 120) -> None:
        """Create constraints and indexes if missing (idempotent; safe from two processes)."""
        for statement in schema.STATEMENTS:
            try:
                with translated(self.uri):
                    await self._driver.execute_query(statement, database_=self.database)
            except Exception as exc:  # another process created it between check and create
                cause = exc.__cause__
                if isinstance(cause, neo.Neo4jError) and cause.code in schema.ALREADY_EXISTS_CODES:
                    continue
                raise
        await self._read(schema.AWAIT_INDEXES, timeout=timeout_s)
        while True:
            done = await self._write(schema.BACKFILL_ENTITY_KEYS, batch=5_000)
            if not done or not done[0]["done"]:
                break
            log.info("graph: added lookup keys to %d older entities", done[0]["done"])
        log.debug("graph schema ensured (%d statements)", len(schema.STATEMENTS))

    # -- executor ------------------------------------------------------------------------------

    async def _execute(self, query: str, params: dict[str, Any], routing: RoutingControl
                       ) -> list[Record]:
        with translated(self.uri):
            result = await self._driver.execute_query(
                query, params, routing_=routing, database_=self.database
            )
        return list(result.records)

    async def _read(self, cypher: str, /, **params: Any) -> list[Record]:
        return await self._execute(cypher, params, RoutingControl.READ)

    async def _write(self, cypher: str, /, **params: Any) -> list[Record]:
        return await self._execute(cypher, params, RoutingControl.WRITE)

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[GraphTransaction]:
        """``async with store.transaction() as tx``: the same operations, one transaction.

        Committed when the block ends normally, rolled back when it raises.
        """
        with translated(self.uri):
            session = self._driver.session(database=self.database)
        try:
            with translated(self.uri):
                tx = await session.begin_transaction()
            try:
                yield GraphTransaction(tx, self.uri)
            except BaseException:
                try:
                    await tx.rollback()
                except (neo.Neo4jError, neo.DriverError, OSError) as exc:
                    log.warning("graph rollback failed after an error: %s", exc)
                raise
            with translated(self.uri):
                await tx.commit()
        finally:
            await session.close()

    def _atomic(self) -> Any:
        return self.transaction()

