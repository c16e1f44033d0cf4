"""The tiny executor interface every operations class runs its Cypher through.

``GraphStore`` runs each call as its own managed transaction; ``GraphTransaction`` runs every
call inside one explicit transaction. The operations mixins only see ``_read``/``_write``
(and ``_atomic`` for calls that need several statements to hold together).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from contextlib import AbstractAsyncContextManager
from typing import Any

from neo4j import Record


class Executor(ABC):
    """What the operations mixins need from a store or a transaction."""

    @abstractmethod
    async def _read(self, cypher: str, /, **params: Any) -> list[Record]: ...

    @abstractmethod
    async def _write(self, cypher: str, /, **params: Any) -> list[Record]: ...

    @abstractmethod
    def _atomic(self) -> AbstractAsyncContextManager[Any]:
        """A context yielding operations that run in one transaction (self, when already in one)."""
