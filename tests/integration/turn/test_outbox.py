"""The durable outbox on a real SQLite file: idempotent keys, step markers, backoff, leases."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from wave_agent.infra.outbox import Outbox


def test_same_exchange_key_is_stored_once(tmp_path: Path) -> None:
    box = Outbox(tmp_path / "outbox.sqlite3")
    assert box.enqueue("x-1", "exchange", "u", {"text": "a"})
    assert not box.enqueue("x-1", "exchange", "u", {"text": "changed"})
    jobs = box.claim(limit=5)
    assert [(j.key, j.payload) for j in jobs] == [("x-1", {"text": "a"})]


def test_failed_job_backs_off_and_is_never_dropped(tmp_path: Path) -> None:
    box = Outbox(tmp_path / "outbox.sqlite3", base_delay_s=10, max_delay_s=100)
    box.enqueue("x-1", "exchange", "u", {}, now=1000)
    assert box.claim(now=1000)
    delays = []
    for attempt in range(8):
        delays.append(box.fail("x-1", f"neo4j down {attempt}", now=1000))
        assert box.claim(now=1000) == []
    assert 7.5 <= delays[0] <= 12.5
    assert delays[-1] <= 125
    assert delays[3] > delays[0]
    stats = box.stats(now=1000)
    assert stats.pending == 1 and stats.failing == 1
    assert stats.last_error == "neo4j down 7"
    assert box.retry_now(now=1000) == 1
    assert [j.attempts for j in box.claim(now=1000)] == [8]


def test_step_markers_survive_reopening(tmp_path: Path) -> None:
    path = tmp_path / "outbox.sqlite3"
    box = Outbox(path)
    box.enqueue("x-1", "exchange", "u", {})
    box.mark("x-1", "extract", [{"text": "fact"}])
    box.mark("x-1", "fact:0", "f-abc")
    box.close()
    again = Outbox(path)
    assert again.step("x-1", "extract") == (True, [{"text": "fact"}])
    assert again.step("x-1", "fact:1") == (False, None)
    assert again.steps("x-1") == {"extract": [{"text": "fact"}], "fact:0": "f-abc"}
    again.complete("x-1")
    assert again.pending_count() == 0 and again.status("x-1") == "done"


def test_lease_of_a_dead_process_is_taken_over_at_once(tmp_path: Path) -> None:
    path = tmp_path / "outbox.sqlite3"
    Outbox(path).enqueue("x-1", "exchange", "u", {})
    claim = (
        "import sys; from pathlib import Path; from wave_agent.infra.outbox import Outbox;"
        "print(len(Outbox(Path(sys.argv[1])).claim()))"
    )
    done = subprocess.run([sys.executable, "-c", claim, str(path)], capture_output=True,
                          text=True, check=True, env={**os.environ})
    assert done.stdout.strip() == "1"
    # The claiming process is gone: its lease does not block this one.
    assert [j.key for j in Outbox(path).claim()] == ["x-1"]


def test_live_lease_of_another_process_is_respected(tmp_path: Path) -> None:
    path = tmp_path / "outbox.sqlite3"
    first = Outbox(path)
    first.enqueue("x-1", "exchange", "u", {})
    assert first.claim()  # leased by this (live) process
    second = Outbox(path)
    second.owner = first.owner.rsplit(":", 1)[0] + ":1"  # another live process on this host
    assert second.claim() == []
    first.release("x-1")
    assert [j.key for j in second.claim()] == ["x-1"]
