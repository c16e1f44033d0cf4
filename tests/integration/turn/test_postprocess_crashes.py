"""The post-processor killed (SIGKILL, ``WAVE_FAULT``) at each of its steps, then run
again: nothing is counted twice and nothing is lost. Real OS processes, the real Neo4j.

- inside the ``relations`` step (its transaction rolls back) and right after its commit (the
  step's marker not yet written): the retry adds the relation's weight once, not twice;
- a turn killed after it queued the exchange but before the session log had it: the exchange
  reaches the session log when the post-processor runs.
"""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path

import pytest

from graph.models import EntityType, FactType
from graph.store import GraphStore
from wave_agent.infra.outbox import DONE, Outbox
from wave_agent.llm.offline import ExtractedEntity, ExtractedFact
from wave_agent.postprocess.extract import to_json
from wave_agent.settings import Settings

pytestmark = pytest.mark.neo4j

ROOT = Path(__file__).resolve().parents[3]
DEADLINE_S = 600


def _wave(settings: Settings, *args: str, fault: str | None = None
          ) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items()
           if k.upper() not in {n.upper() for n in Settings.model_fields} and k != "WAVE_FAULT"}
    env.update(DATA_DIR=str(settings.data_dir), NEO4J_URI=str(settings.neo4j_uri),
               HF_HUB_OFFLINE="1", TRANSFORMERS_OFFLINE="1", LOG_LEVEL="WARNING")
    if fault:
        env["WAVE_FAULT"] = fault
    return subprocess.run([sys.executable, "-m", "tests.support.wave_process", *args],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=DEADLINE_S)


@pytest.mark.parametrize("fault", ["relations:related-one", "relations:committed"])
async def test_a_retry_after_a_kill_in_the_relations_step_adds_the_weight_once(
    settings: Settings, graph: GraphStore, user_id: str, fault: str,
) -> None:
    outbox = Outbox(settings.outbox_path)
    key = "x-relations-crash"
    outbox.enqueue(key, "exchange", user_id, {
        "user_text": "В субботу мы с Игорем ездили в Казань", "reply": "Здорово!",
        "at": datetime.now(UTC).isoformat()})
    outbox.mark(key, "extract", to_json([ExtractedFact(
        "В субботу мы с Игорем ездили в Казань", FactType.EVENT,
        (ExtractedEntity("Игорь", EntityType.PERSON), ExtractedEntity("Казань", EntityType.PLACE)),
    )]))
    outbox.close()

    killed = _wave(settings, "drain", fault=fault)
    assert killed.returncode == -9, f"the fault point was not reached:\n{killed.stderr[-2000:]}"
    again = _wave(settings, "drain")
    assert again.returncode == 0, again.stderr[-2000:]
    assert "processed=1" in again.stdout, again.stdout

    igor = await graph.resolve_entity(user_id, "Игорь", create=False)
    assert igor is not None
    [relation] = await graph.relations(user_id, igor.id)
    assert relation.weight == 1, "the retry counted the relation again"
    reopened = Outbox(settings.outbox_path)
    assert reopened.status(key) == DONE
    reopened.close()


async def test_a_turn_killed_between_the_outbox_and_the_session_log_loses_nothing(
    settings: Settings, user_id: str,
) -> None:
    text = "Моя черепаха Тортилла любит одуванчики и клубнику"
    killed = _wave(settings, "turn", user_id, text, fault="turn:enqueued")
    assert killed.returncode == -9, f"the fault point was not reached:\n{killed.stderr[-2000:]}"

    def logged() -> list[str]:
        with sqlite3.connect(settings.data_dir / "sessions.sqlite3") as db:
            return [row[0] for row in db.execute(
                "SELECT user_text FROM exchanges WHERE user_id = ?", (user_id,))]

    assert logged() == []  # the kill came before the session log
    drained = _wave(settings, "drain")
    assert drained.returncode == 0, drained.stderr[-2000:]
    assert logged() == [text]
    again = _wave(settings, "drain")  # nothing left, nothing added twice
    assert again.returncode == 0 and logged() == [text]
