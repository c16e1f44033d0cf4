"""The real local services: Neo4j over Bolt, Qdrant local mode, the compose file, the CLI edge."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import uuid
from pathlib import Path

from neo4j import AsyncGraphDatabase
from qdrant_client import QdrantClient, models

ROOT = Path(__file__).resolve().parents[3]
WAVE = str(Path(sys.executable).with_name("wave"))


async def test_neo4j_round_trip_over_bolt(neo4j_uri: str) -> None:
    marker = uuid.uuid4().hex
    driver = AsyncGraphDatabase.driver(neo4j_uri, auth=("neo4j", "unused-on-loopback"))
    try:
        async with driver.session() as session:
            await session.run("CREATE (:FoundationProbe {marker: $m, text: $t})", m=marker, t="Привет, мир")
            result = await session.run(
                "MATCH (p:FoundationProbe {marker: $m}) RETURN p.text AS text", m=marker
            )
            record = await result.single()
            assert record is not None and record["text"] == "Привет, мир"
            components = await (await session.run("CALL dbms.components() YIELD versions RETURN versions")).single()
            assert components is not None and components["versions"][0].startswith("5.26")
            await session.run("MATCH (p:FoundationProbe {marker: $m}) DELETE p", m=marker)
    finally:
        await driver.close()


def test_qdrant_local_mode_round_trip(tmp_path: Path) -> None:
    client = QdrantClient(path=str(tmp_path / "qdrant"))
    try:
        client.create_collection(
            "probe", vectors_config=models.VectorParams(size=4, distance=models.Distance.COSINE)
        )
        client.upsert(
            "probe",
            points=[
                models.PointStruct(id=1, vector=[1.0, 0.0, 0.0, 0.0], payload={"text": "a"}),
                models.PointStruct(id=2, vector=[0.0, 1.0, 0.0, 0.0], payload={"text": "b"}),
            ],
        )
        hits = client.query_points("probe", query=[0.9, 0.1, 0.0, 0.0], limit=1).points
        assert [h.payload["text"] for h in hits if h.payload] == ["a"]
    finally:
        client.close()
    # the data survives a reopen: local mode persists to disk
    reopened = QdrantClient(path=str(tmp_path / "qdrant"))
    try:
        assert reopened.count("probe").count == 2
    finally:
        reopened.close()


def test_compose_file_is_valid() -> None:
    tool = shutil.which("docker-compose")
    assert tool, "docker-compose (Debian package) is needed to validate docker-compose.yml: apt-get install docker-compose"
    result = subprocess.run(
        [tool, "-f", str(ROOT / "docker-compose.yml"), "config", "-q"],
        capture_output=True, text=True, check=False, cwd=ROOT,
    )
    assert result.returncode == 0, result.stderr
    services = subprocess.run(
        [tool, "-f", str(ROOT / "docker-compose.yml"), "config", "--services"],
        capture_output=True, text=True, check=True, cwd=ROOT,
    ).stdout.split()
    assert {"neo4j", "qdrant", "letta", "wave"} <= set(services)


def _env(tmp_path: Path, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k.upper() not in {"NEO4J_URI", "DATA_DIR", "NEO4J_PORT"}}
    env.update({"DATA_DIR": str(tmp_path / "data"), "HF_HUB_OFFLINE": "1"}, **extra)
    return env


def test_services_up_without_java_names_three_ways_forward(tmp_path: Path) -> None:
    bare_path = tmp_path / "bin"
    bare_path.mkdir()
    result = subprocess.run(
        [WAVE, "services", "up"], capture_output=True, text=True, check=False,
        env=_env(tmp_path, PATH=str(bare_path), NEO4J_PORT="17999"), cwd=tmp_path,
    )
    assert result.returncode != 0
    assert "java and mvn not found" in result.stderr
    for way in ("install Java 17+ and Maven", "docker compose up -d neo4j", "NEO4J_URI"):
        assert way in result.stderr
    assert "Traceback" not in result.stderr


def test_bad_configuration_is_one_line_not_a_traceback(tmp_path: Path) -> None:
    result = subprocess.run(
        [WAVE, "services", "status"], capture_output=True, text=True, check=False,
        env=_env(tmp_path, NEO4J_PORT="seventy"), cwd=tmp_path,
    )
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("wave: NEO4J_PORT: bad value")


def test_services_status_reports_a_stopped_embedded_neo4j(tmp_path: Path) -> None:
    result = subprocess.run(
        [WAVE, "services", "status", "--json"], capture_output=True, text=True, check=False,
        env=_env(tmp_path, NEO4J_PORT="17998"), cwd=tmp_path,
    )
    import json

    report = json.loads(result.stdout)
    assert report["neo4j"]["mode"] == "embedded"
    assert report["neo4j"]["running"] is False
    assert report["qdrant"]["mode"] == "local"
