"""Where a user's vectors live: collection names and the filters that scope a query.

Collections are keyed by embedding model and dimension, so a vector made by another model is
never compared with the query (it is invisible, not a weak match).

- Local mode (Qdrant in-process): one collection per user namespace,
  ``wave__<model>__<dim>__u_<sha1(user)[:12]>``. Local mode evaluates payload filters point by
  point in Python (~300-400 ms over 20-50k points), so a user's search must not need one.
- Server mode: one collection per model and dimension, ``wave__<model>__<dim>``, with a tenant
  payload index on ``user_id`` and keyword indexes on ``status``/``tier``/``type``; every
  query carries the user filter and Qdrant serves it from the tenant's own index.
"""

from __future__ import annotations

import hashlib
import re
import uuid
from collections.abc import Sequence

from qdrant_client import models

PREFIX = "wave"
_SLUG_MAX = 40
# Fixed namespace: point ids are uuid5(namespace, user_id + "\x1f" + fact_id), stable forever.
POINT_NAMESPACE = uuid.UUID("3f9c7d2e-5b1a-4c8e-9a6f-1d2e3c4b5a69")


def model_slug(model_name: str) -> str:
    """``sentence-transformers/all-MiniLM-L6-v2`` -> ``sentence-transformers-all-minilm-l6-v2``."""
    slug = re.sub(r"[^a-z0-9]+", "-", model_name.lower()).strip("-") or "model"
    if len(slug) > _SLUG_MAX:
        digest = hashlib.sha1(model_name.encode("utf-8")).hexdigest()[:8]
        slug = f"{slug[: _SLUG_MAX - 9].rstrip('-')}-{digest}"
    return slug


def base_collection(model_name: str, dim: int) -> str:
    return f"{PREFIX}__{model_slug(model_name)}__{dim}"


def user_namespace(user_id: str) -> str:
    return "u_" + hashlib.sha1(user_id.encode("utf-8")).hexdigest()[:12]


def point_id(user_id: str, fact_id: str) -> str:
    return str(uuid.uuid5(POINT_NAMESPACE, f"{user_id}\x1f{fact_id}"))


def status_condition(statuses: Sequence[str]) -> models.FieldCondition:
    return models.FieldCondition(key="status", match=models.MatchAny(any=list(statuses)))


class Layout:
    """Maps a user to a collection and to the filter conditions that scope them."""

    def __init__(self, model_name: str, dim: int, *, per_user: bool) -> None:
        self.base = base_collection(model_name, dim)
        self.per_user = per_user

    def collection(self, user_id: str) -> str:
        if self.per_user:
            return f"{self.base}__{user_namespace(user_id)}"
        return self.base

    def user_conditions(self, user_id: str) -> list[models.Condition]:
        if self.per_user:
            return []
        return [models.FieldCondition(key="user_id", match=models.MatchValue(value=user_id))]

    def scope(
        self, user_id: str, statuses: Sequence[str] | None = None
    ) -> models.Filter | None:
        must = self.user_conditions(user_id)
        if statuses is not None:
            must.append(status_condition(statuses))
        return models.Filter(must=must) if must else None
