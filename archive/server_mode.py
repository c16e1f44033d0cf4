"""A Qdrant server collection for many users: tenant index on ``user_id``, keyword indexes."""

from __future__ import annotations

from qdrant_client import QdrantClient, models

from archive.models import TIME_FIELDS


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
    keyword = models.KeywordIndexParams(type=models.KeywordIndexType.KEYWORD, is_tenant=True)
    client.create_payload_index(name, "user_id", field_schema=keyword, wait=True)
    for field in ("status", "tier", "type", "fact_id"):
        client.create_payload_index(
            name, field, field_schema=models.PayloadSchemaType.KEYWORD, wait=True
        )
    for field in TIME_FIELDS:
        client.create_payload_index(
            name, field, field_schema=models.PayloadSchemaType.FLOAT, wait=True
        )
