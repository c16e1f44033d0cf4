"""The shared server collection as Wave creates it, and the settings that reach it over gRPC.

Qdrant builds an HNSW graph for every block of every indexed field unless the index says
``enable_hnsw: false``; with per-tenant graphs (``m=0``) that made a person's 100k records cost
the optimizer about seven graphs instead of one (docs/benchmarks.md, "Scale"): the server was
busy for many minutes after a bulk write and searches scanned unindexed segments meanwhile."""

from __future__ import annotations

import uuid

import numpy as np
from qdrant_client import QdrantClient

from archive.embedder import Embedder
from archive.layout import base_collection
from archive.models import ArchiveRecord
from archive.store import ArchiveStore
from graph.models import utcnow
from wave_agent.services import Services
from wave_agent.settings import Settings

MODEL = "server-collection-test"
DIM = 8


async def test_only_the_tenant_index_asks_for_hnsw_graphs(qdrant_server: str) -> None:
    store = ArchiveStore.server(qdrant_server, model_name=MODEL, dim=DIM, timeout_s=60)
    user = f"tenant-{uuid.uuid4().hex[:8]}"
    try:
        vector = np.ones(DIM, np.float32)
        await store.upsert(user, [ArchiveRecord("f-1", "Я живу в Казани", "identity",
                                                "observation", "active", utcnow(),
                                                vector=vector)])
        assert [h.fact_id for h in await store.search(user, vector)] == ["f-1"]
    finally:
        await store.close()
    client = QdrantClient(url=qdrant_server, timeout=60, check_compatibility=False)
    try:
        info = client.get_collection(base_collection(MODEL, DIM))
    finally:
        client.close()
    schema = {name: field.params for name, field in info.payload_schema.items()}
    assert schema["user_id"] is not None and schema["user_id"].is_tenant  # type: ignore[union-attr]
    others = {name: getattr(params, "enable_hnsw", None) for name, params in schema.items()
              if name != "user_id"}
    assert set(others) >= {"status", "tier", "type", "fact_id", "created_at"}
    assert all(flag is False for flag in others.values()), others
    hnsw = info.config.hnsw_config
    assert (hnsw.m, hnsw.payload_m) == (0, 16)


async def test_qdrant_grpc_port_setting_makes_the_archive_talk_grpc(
    qdrant_url: str | None, qdrant_grpc_port: int | None, embedder: Embedder, tmp_path: object,
) -> None:
    import pytest

    if qdrant_url is None or qdrant_grpc_port is None:
        pytest.skip("needs a Qdrant server with a known gRPC port")
    settings = Settings(_env_file=None, data_dir=str(tmp_path), qdrant_url=qdrant_url,  # type: ignore[call-arg]
                        qdrant_grpc_port=qdrant_grpc_port)
    user = f"grpc-{uuid.uuid4().hex[:8]}"
    async with Services(settings, embedder=embedder) as services:
        archive = await services.archive()
        assert archive.grpc_port == qdrant_grpc_port
        await archive.upsert(user, [ArchiveRecord("f-1", "Моя сестра Анна живёт в Варшаве",
                                                  "relationship", "observation", "active",
                                                  utcnow())])
        hits = await archive.search_text(user, "где живёт сестра?")
        assert [h.fact_id for h in hits] == ["f-1"]
        assert "Варшаве" in hits[0].payload["text"]
