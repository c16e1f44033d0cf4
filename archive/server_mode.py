"""A Qdrant server collection for many users: tenant index on ``user_id``, keyword indexes.

HNSW: no global graph (``m=0``), one graph per tenant (``payload_m=16``): every query is scoped
to one ``user_id``. Qdrant builds such an extra graph for *every* block of *every* indexed
field above the full-scan threshold unless the index says ``enable_hnsw=False``; the other
indexes (status, tier, type, fact_id, times) only filter inside a tenant's graph, so they say
it. Without it a person with 100k records cost the optimizer about seven graphs of 100k points
(user, each status, tier, type and the time ranges) instead of one (docs/benchmarks.md, "Scale").
"""

from __future__ import annotations

from qdrant_client import QdrantClient, models

from archive.models import TIME_FIELDS

FILTER_FIELDS = ("status", "tier", "type", "fact_id")


def create_server_collection(
    client: QdrantClient, name: str, params: models.VectorParams
) -> None:
    try:
        client.create_collection(
            name,
            vectors_config=params,
            # Per-tenant HNSW graphs only: every query is scoped to one user_id.
            hnsw_config=models.HnswConfigDiff(payload_m=16, m=0),
        )
    except Exception:
        if not client.collection_exists(name):  # lost a creation race: fine; else re-raise
            raise
    tenant = models.KeywordIndexParams(type=models.KeywordIndexType.KEYWORD, is_tenant=True)
    client.create_payload_index(name, "user_id", field_schema=tenant, wait=True)
    keyword = models.KeywordIndexParams(type=models.KeywordIndexType.KEYWORD, enable_hnsw=False)
    for field in FILTER_FIELDS:
        client.create_payload_index(name, field, field_schema=keyword, wait=True)
    number = models.FloatIndexParams(type=models.FloatIndexType.FLOAT, enable_hnsw=False)
    for field in sorted(TIME_FIELDS):
        client.create_payload_index(name, field, field_schema=number, wait=True)
