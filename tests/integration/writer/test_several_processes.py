"""Several Wave processes write one person's memory at once: the bot, the CLI and
later the MCP server each have their own writer. Real OS processes, the real Neo4j.

- two processes confirming one record 20 times each add 40 mentions and lose no exchange id;
- two processes writing the same new sentences make one record of each;
- a merge killed half way (SIGKILL at a named point, ``WAVE_FAULT``) leaves nothing half-done.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from graph.models import ProposalKind, ProposalStatus, Status
from graph.store import GraphStore
from wave_agent.write.writer import Writer

ROOT = Path(__file__).resolve().parents[3]
DEADLINE_S = 600  # a loaded 2-core machine: model loads and 40 writes per process


def _start(uri: str, data_dir: Path, user: str, go: Path, *command: str,
           fault: str | None = None) -> subprocess.Popen[str]:
    env = {**os.environ, "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1"}
    env.pop("WAVE_FAULT", None)
    if fault:
        env["WAVE_FAULT"] = fault
    return subprocess.Popen(
        [sys.executable, "-m", "tests.support.writer_process", uri, str(data_dir), user,
         str(go), *command],
        cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def _run_together(procs: list[subprocess.Popen[str]], go: Path) -> list[tuple[int, str, str]]:
    """Wait for every process to say ``ready``, start them at once, wait for them to end."""
    deadline = time.monotonic() + DEADLINE_S
    for proc in procs:
        assert proc.stdout is not None
        line = proc.stdout.readline()  # blocks until the model is loaded (or the process dies)
        if line.strip() != "ready":
            _, err = proc.communicate(timeout=60)
            pytest.fail(f"writer process failed to start: {line!r}\n{err}")
    go.touch()
    out: list[tuple[int, str, str]] = []
    for proc in procs:
        stdout, stderr = proc.communicate(timeout=max(1.0, deadline - time.monotonic()))
        out.append((proc.returncode, stdout, stderr))
    return out


async def test_two_processes_confirming_one_record_count_every_mention(
    graph: GraphStore, offline_writer: Writer, user_id: str, neo4j_uri: str, tmp_path: Path,
) -> None:
    text = "Я по утрам пью зелёный чай с жасмином"
    seed = await offline_writer.remember(user_id, text, exchange_id="seed")
    assert seed.fact is not None
    go = tmp_path / "go"
    procs = [_start(neo4j_uri, tmp_path, user_id, go, "confirm", text, "20", tag)
             for tag in ("a", "b")]
    for code, stdout, stderr in _run_together(procs, go):
        assert code == 0, stderr
        assert stdout.split().count("confirmed") == 20, stdout
    fact = await graph.get_fact(user_id, seed.fact.id)
    assert fact is not None
    assert fact.mention_count == seed.fact.mention_count + 40
    assert sorted(fact.exchange_ids) == sorted(
        ["seed"] + [f"{tag}-{i}" for tag in ("a", "b") for i in range(20)])
    assert len(await graph.list_facts(user_id)) == 1


async def test_two_processes_writing_the_same_new_sentences_make_one_record_each(
    graph: GraphStore, user_id: str, neo4j_uri: str, tmp_path: Path,
) -> None:
    texts = ["Моя черепаха Тортилла любит одуванчики",
             "Я работаю инженером в Казани",
             "My sister Anna plays the cello",
             "В субботу я ездил на дачу к родителям"]
    go = tmp_path / "go"
    procs = [_start(neo4j_uri, tmp_path, user_id, go, "remember", *texts) for _ in range(2)]
    statuses: list[str] = []
    for code, stdout, stderr in _run_together(procs, go):
        assert code == 0, stderr
        statuses += stdout.split()
    stored = [f.text for f in await graph.list_facts(user_id)]
    assert sorted(stored) == sorted(texts), stored
    assert statuses.count("created") == len(texts) and statuses.count("confirmed") == len(texts)


@pytest.mark.parametrize("kind", [ProposalKind.MERGE, ProposalKind.GENERALISE])
async def test_a_merge_killed_half_way_leaves_nothing_half_done(
    graph: GraphStore, offline_writer: Writer, user_id: str, neo4j_uri: str, tmp_path: Path,
    kind: ProposalKind,
) -> None:
    # three records the writer keeps apart (with e5 a close paraphrase is confirmed as one),
    # which the person may still merge: what the merge is about does not matter here
    texts = ["Я люблю плавать в бассейне по утрам", "По выходным я катаюсь на велосипеде",
             "Зимой я хожу на лыжах в лес"]
    ids = []
    for i, text in enumerate(texts):
        result = await offline_writer.remember(user_id, text, exchange_id=f"x{i}")
        assert result.fact is not None
        ids.append(result.fact.id)
    assert len({*ids}) == 3, "the test needs three separate records"
    general = "Я люблю спорт" if kind is ProposalKind.GENERALISE else None
    proposal = await offline_writer.propose(user_id, kind, ids, "test", text=general)
    go = tmp_path / "go"
    [(code, stdout, _)] = _run_together(
        [_start(neo4j_uri, tmp_path, user_id, go, "approve", proposal.id,
                fault="merge:superseded-one")], go)
    assert code == -9, f"the fault point was not reached: {stdout}"

    facts = {f.id: f for f in await graph.list_facts(user_id)}
    assert sorted(facts) == sorted(ids), "a killed merge left a new record behind"
    assert all(f.status is Status.ACTIVE and f.superseded_by is None for f in facts.values())
    assert all(f.mention_count == 1 for f in facts.values())
    still = await graph.get_proposal(user_id, proposal.id)
    assert still is not None and still.status is ProposalStatus.PENDING

    # Run again (no fault): carried out once, whole.
    await offline_writer.approve(user_id, proposal.id)
    after = await graph.list_facts(user_id)
    active = [f for f in after if f.status is Status.ACTIVE]
    assert len(active) == 1 and active[0].mention_count == 3
    assert sum(f.status is Status.SUPERSEDED for f in after) == (3 if general else 2)
