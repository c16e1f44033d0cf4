"""Conversion between the plain data of ``graph.models`` and Neo4j node properties.

Stored shapes: enums as their string values, tuples as lists, datetimes as Neo4j DATETIME
(timezone-aware UTC in, ``datetime`` with UTC out); ``None`` is an absent property.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from datetime import UTC, datetime
from enum import Enum
from typing import Any

from graph.entities import entity_keys, scope_token, stem_key
from graph.errors import InvalidInput
from graph.models import (
    Conflict,
    Entity,
    EntityType,
    Fact,
    FactType,
    Proposal,
    ProposalKind,
    ProposalStatus,
    Relation,
    RelationType,
    Status,
    Tier,
    Veracity,
)

FACT_FIELDS: tuple[str, ...] = tuple(f.name for f in dataclasses.fields(Fact))
# Fields update_fact may change; id and user_id are the identity of the record.
UPDATABLE_FACT_FIELDS = frozenset(FACT_FIELDS) - {"id", "user_id"}

_FACT_ENUMS: dict[str, type[Enum]] = {
    "type": FactType, "tier": Tier, "status": Status, "veracity": Veracity,
}
_FACT_DATETIMES = frozenset({"created_at", "last_confirmed_at", "valid_until"})
_FACT_TUPLES = frozenset({"source_message_ids", "exchange_ids", "attributes"})


def to_neo4j_datetime(value: datetime, field: str) -> datetime:
    if value.tzinfo is None or value.utcoffset() is None:
        raise InvalidInput(
            f"{field} is a naive datetime ({value.isoformat()})",
            next_step="pass a timezone-aware UTC datetime, e.g. graph.models.utcnow()",
        )
    return value.astimezone(UTC)


def fact_out(var: str) -> str:
    """Cypher projecting Fact node ``var`` with its datetimes as ISO strings.

    Hydrating Neo4j DATETIME values in the Python driver costs ~0.3 ms per fact; strings
    parsed with ``datetime.fromisoformat`` cost almost nothing. Stored values stay DATETIME.
    """
    return (
        f"{var} {{.*, created_at: toString({var}.created_at), "
        f"last_confirmed_at: toString({var}.last_confirmed_at), "
        f"valid_until: toString({var}.valid_until)}}"
    )


def entity_out(var: str) -> str:
    """Cypher projecting Entity node ``var`` with ``created_at`` as an ISO string."""
    return f"{var} {{.*, created_at: toString({var}.created_at)}}"


def from_neo4j_datetime(value: Any) -> datetime:
    if isinstance(value, str):
        return datetime.fromisoformat(value).astimezone(UTC)
    native = value.to_native() if hasattr(value, "to_native") else value
    if not isinstance(native, datetime):
        raise InvalidInput(f"stored datetime has an unexpected shape: {value!r}")
    return native.astimezone(UTC)


def fact_value(field: str, value: Any) -> Any:
    """One Fact field as a Neo4j property value (validated)."""
    if value is None:
        return None
    if field in _FACT_ENUMS:
        try:
            return _FACT_ENUMS[field](value).value
        except ValueError as exc:
            allowed = ", ".join(m.value for m in _FACT_ENUMS[field])
            raise InvalidInput(f"{field}={value!r} is not one of: {allowed}") from exc
    if field in _FACT_DATETIMES:
        if not isinstance(value, datetime):
            raise InvalidInput(f"{field} must be a datetime, got {type(value).__name__}")
        return to_neo4j_datetime(value, field)
    if field in _FACT_TUPLES:
        if isinstance(value, str):
            return [value]
        return [str(v) for v in value]
    return value


def fact_props(fact: Fact) -> dict[str, Any]:
    props = {name: fact_value(name, getattr(fact, name)) for name in FACT_FIELDS}
    props["scope"] = scope_token(fact.user_id)
    return {k: v for k, v in props.items() if v is not None}


def fact_from(node: Mapping[str, Any]) -> Fact:
    """A ``Fact`` from node properties; a field the node lacks takes its dataclass default."""
    p = dict(node)
    values: dict[str, Any] = {}
    for name in FACT_FIELDS:
        if name not in p or p[name] is None:
            continue  # absent: the default (required fields are always stored)
        value = p[name]
        if name in _FACT_ENUMS:
            value = _FACT_ENUMS[name](value)
        elif name in _FACT_DATETIMES:
            value = from_neo4j_datetime(value)
        elif name in _FACT_TUPLES:
            value = tuple(value)
        elif name == "confidence":
            value = float(value)
        values[name] = value
    return Fact(**values)


def entity_props(entity: Entity) -> dict[str, Any]:
    exact, stems = entity_keys(entity.name, entity.aliases)
    return {
        "id": entity.id,
        "user_id": entity.user_id,
        "name": entity.name,
        "type": EntityType(entity.type).value,
        "aliases": list(entity.aliases),
        "name_key": exact[0] if exact else "",
        # Uniqueness key: the stem key, or the exact key for names of function words only
        # ("Я", "мы"), so those do not all collapse into one entity.
        "stem_key": stem_key(entity.name) or "=" + (exact[0] if exact else ""),
        "keys": exact,
        "stems": stems,
        "created_at": to_neo4j_datetime(entity.created_at, "created_at"),
    }


def entity_from(node: Mapping[str, Any]) -> Entity:
    p = dict(node)
    return Entity(
        id=p["id"],
        user_id=p["user_id"],
        name=p["name"],
        type=EntityType(p["type"]),
        aliases=tuple(p.get("aliases") or ()),
        created_at=from_neo4j_datetime(p["created_at"]),
    )


def relation_from(user_id: str, source_id: str, target_id: str, rel_type: str,
                  props: Mapping[str, Any]) -> Relation:
    return Relation(
        user_id=user_id,
        source_id=source_id,
        target_id=target_id,
        type=RelationType(rel_type),
        provenance=tuple(props.get("provenance") or ()),
        created_at=from_neo4j_datetime(props["created_at"]),
        weight=int(props.get("weight") or 1),
        role=props.get("role"),
        ended_at=from_neo4j_datetime(props["ended_at"]) if props.get("ended_at") else None,
        ended_by=props.get("ended_by"),
    )


def proposal_props(proposal: Proposal) -> dict[str, Any]:
    props = {
        "id": proposal.id,
        "user_id": proposal.user_id,
        "kind": ProposalKind(proposal.kind).value,
        "target_ids": list(proposal.target_ids),
        "reason": proposal.reason,
        "text": proposal.text,
        "status": ProposalStatus(proposal.status).value,
        "similarity": proposal.similarity,
        "created_at": to_neo4j_datetime(proposal.created_at, "created_at"),
    }
    return {k: v for k, v in props.items() if v is not None}


def proposal_from(node: Mapping[str, Any]) -> Proposal:
    p = dict(node)
    similarity = p.get("similarity")
    return Proposal(
        id=p["id"],
        user_id=p["user_id"],
        kind=ProposalKind(p["kind"]),
        target_ids=tuple(p.get("target_ids") or ()),
        reason=p["reason"],
        text=p.get("text"),
        status=ProposalStatus(p["status"]),
        similarity=float(similarity) if similarity is not None else None,
        created_at=from_neo4j_datetime(p["created_at"]),
    )


def conflict_props(conflict: Conflict) -> dict[str, Any]:
    if len(conflict.fact_ids) != 2:
        raise InvalidInput(f"a conflict concerns exactly two facts, got {conflict.fact_ids!r}")
    return {
        "id": conflict.id,
        "user_id": conflict.user_id,
        "fact_ids": list(conflict.fact_ids),
        "subject": conflict.subject,
        "reason": conflict.reason,
        "resolved": bool(conflict.resolved),
        "created_at": to_neo4j_datetime(conflict.created_at, "created_at"),
        "against_past": bool(conflict.against_past),
    }


def conflict_from(node: Mapping[str, Any]) -> Conflict:
    p = dict(node)
    a, b = p["fact_ids"]
    return Conflict(
        id=p["id"],
        user_id=p["user_id"],
        fact_ids=(a, b),
        subject=p["subject"],
        reason=p["reason"],
        resolved=bool(p.get("resolved", False)),
        created_at=from_neo4j_datetime(p["created_at"]),
        against_past=bool(p.get("against_past", False)),
    )
