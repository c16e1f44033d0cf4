"""Errors of the graph layer; Neo4j's own exceptions never leave ``graph``.

``GraphError`` is the layer's root and derives from ``common.errors.WaveError``: it carries a
message and the next step that works, so a person (or a model reading the refusal) can
recover, and every surface shows it as it shows Wave's own errors. Each error also names its
category (``Unavailable``, ``NotFound``, ``Refused``) where one fits.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from neo4j import exceptions as neo

from common import errors as common


class GraphError(common.WaveError):
    """Root of every error the graph layer raises on purpose."""


class GraphUnavailable(GraphError, common.Unavailable):
    """Neo4j does not answer (down, wrong address, connection lost)."""

    def __init__(self, uri: str, detail: str) -> None:
        self.uri = uri
        self.detail = detail
        super().__init__(
            f"Neo4j at {uri} is not answering ({detail})",
            next_step="`wave services up`, or check NEO4J_URI",
        )


class GraphAuthError(GraphError, common.Unavailable):
    """Neo4j refused the credentials."""

    def __init__(self, uri: str, detail: str) -> None:
        self.uri = uri
        super().__init__(
            f"Neo4j at {uri} refused the credentials ({detail})",
            next_step="check NEO4J_USER and NEO4J_PASSWORD",
        )


class GraphBusy(GraphError, common.Unavailable):
    """A transient failure (deadlock, leader switch): the same call may succeed if repeated."""

    def __init__(self, detail: str) -> None:
        super().__init__(f"Neo4j could not finish the operation now ({detail})",
                         next_step="retry the same call")


class GraphQueryError(GraphError):
    """Neo4j rejected a query: a bug in the graph layer or a schema out of date."""

    def __init__(self, detail: str) -> None:
        super().__init__(
            f"Neo4j rejected a graph query ({detail})",
            next_step="run `wave services up` to recreate the schema; report it if it persists",
        )


class DuplicateId(GraphError, common.Refused):
    """A node with this id already exists."""

    def __init__(self, detail: str) -> None:
        super().__init__(
            f"a record with this id already exists ({detail})",
            next_step="create it with a fresh id (graph.models.new_id) or update the existing one",
        )


class NotFound(GraphError, common.NotFound):
    """A record does not exist for this user (ids of other users do not exist either)."""

    def __init__(self, kind: str, user_id: str, record_id: str) -> None:
        self.kind = kind
        self.user_id = user_id
        self.record_id = record_id
        super().__init__(
            f"no {kind} {record_id} for user {user_id}",
            next_step=f"list the user's {kind}s to find the right id",
        )


class FactNotFound(NotFound):
    def __init__(self, user_id: str, fact_id: str) -> None:
        super().__init__("fact", user_id, fact_id)


class EntityNotFound(NotFound):
    def __init__(self, user_id: str, entity_id: str) -> None:
        super().__init__("entity", user_id, entity_id)


class CommitmentNotFound(NotFound):
    def __init__(self, user_id: str, commitment_id: str) -> None:
        super().__init__("commitment", user_id, commitment_id)
        self.next_step = "list the open ones with `wave commitments` or /commitments"


class ProposalNotFound(NotFound):
    def __init__(self, user_id: str, proposal_id: str) -> None:
        super().__init__("proposal", user_id, proposal_id)


class ConflictNotFound(NotFound):
    def __init__(self, user_id: str, conflict_id: str) -> None:
        super().__init__("conflict", user_id, conflict_id)


class InvalidInput(GraphError, common.Refused):
    """A call's arguments cannot be stored as given (unknown field, bad type, naive datetime)."""


class SupersessionError(GraphError, common.Refused):
    """A supersession that would break the history chain (self, cycle, already replaced)."""


def _detail(exc: BaseException) -> str:
    message = getattr(exc, "message", None) or str(exc) or type(exc).__name__
    return " ".join(str(message).split())[:300]


@contextmanager
def translated(uri: str) -> Iterator[None]:
    """Turn Neo4j driver exceptions into graph errors (``raise ... from exc``)."""
    try:
        yield
    except GraphError:
        raise
    except (neo.ServiceUnavailable, neo.SessionExpired) as exc:
        raise GraphUnavailable(uri, _detail(exc)) from exc
    except neo.AuthError as exc:
        raise GraphAuthError(uri, _detail(exc)) from exc
    except neo.ConstraintError as exc:
        raise DuplicateId(_detail(exc)) from exc
    except neo.TransientError as exc:
        raise GraphBusy(_detail(exc)) from exc
    except neo.ClientError as exc:
        raise GraphQueryError(_detail(exc)) from exc
    except (neo.Neo4jError, neo.DriverError) as exc:
        raise GraphError(f"Neo4j failed: {_detail(exc)}",
                         next_step="check the Neo4j log (`wave services up` prints where)") from exc
    except OSError as exc:
        raise GraphUnavailable(uri, _detail(exc)) from exc
