"""Timings of the file-backed layers: episode log, session snapshots, markdown core blocks.

    .venv/bin/python scripts/bench_memory_files.py

Everything runs on real files in a temporary directory; prints one line per figure.
"""

from __future__ import annotations

import asyncio
import statistics
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

from episodes.models import EpisodeEntry
from episodes.store import EpisodeStore
from snapshots.models import Reply, Snapshot
from snapshots.store import SnapshotStore
from wave_agent.blocks.editor import AppendLine, BlockEditor
from wave_agent.blocks.markdown_store import MarkdownBlockStore

T0 = datetime(2026, 11, 1, 9, 0, tzinfo=UTC)


def ms(samples: list[float]) -> str:
    return (f"median {statistics.median(samples) * 1000:.2f} ms, "
            f"p95 {sorted(samples)[int(len(samples) * 0.95) - 1] * 1000:.2f} ms (n={len(samples)})")


async def bench_episodes(root: Path) -> None:
    store = EpisodeStore(root / "episodes")
    times = []
    for i in range(300):
        entry = EpisodeEntry(f"Decided something worth keeping, number {i}", ("f-abc123",),
                             T0 + timedelta(days=i // 100, minutes=i))
        start = time.perf_counter()
        await store.append("bench", [entry], key=f"ex-{i}")
        times.append(time.perf_counter() - start)
    print(f"episode append (1 line, with key check, day files of up to 100 lines): {ms(times)}")
    today = (T0 + timedelta(days=2)).date()
    for budget in (2000, 20000):
        samples = []
        for _ in range(20):
            start = time.perf_counter()
            text = await store.session_context("bench", budget=budget, today=today)
            samples.append(time.perf_counter() - start)
        print(f"session_context, 3 days x 100 lines, budget {budget} "
              f"-> {len(text)} chars (extractive): {ms(samples)}")


async def bench_snapshots(root: Path) -> None:
    store = SnapshotStore(root / "snapshots")
    saves = []
    for i in range(1000):
        snap = Snapshot(f"s{i}", "bench", T0 + timedelta(hours=i), T0 + timedelta(hours=i, minutes=20),
                        8, "A short summary of the session.",
                        (Reply("user", "hello"), Reply("assistant", "hi")), ("calm",))
        start = time.perf_counter()
        await store.save(snap)
        saves.append(time.perf_counter() - start)
    print(f"snapshot save (up to 1,000 files in the user's directory): {ms(saves)}")
    start = time.perf_counter()
    taken = await store.take_for_new_session("bench")
    first = time.perf_counter() - start
    start = time.perf_counter()
    again = await store.take_for_new_session("bench")
    second = time.perf_counter() - start
    assert taken is not None and again is None
    print(f"snapshot take_for_new_session with 1,000 files: first {first * 1000:.2f} ms, "
          f"spent {second * 1000:.2f} ms")


async def bench_blocks(root: Path) -> None:
    store = MarkdownBlockStore(root / "blocks", limit=3000)
    sets, gets = [], []
    for i in range(200):
        start = time.perf_counter()
        await store.set("bench", "human", f"Portrait version {i}.\n" + "x" * 2500, reason=f"v{i}")
        sets.append(time.perf_counter() - start)
        start = time.perf_counter()
        await store.get("bench", "human")
        gets.append(time.perf_counter() - start)
    print(f"markdown block set (2.5k chars, history of up to 200 versions): {ms(sets)}")
    print(f"markdown block get (same): {ms(gets)}")
    lines: list[str] = []
    i = 0
    while len("\n".join(lines)) < 2990:
        lines.append(f"Line {i}: a detail about the person.")
        i += 1
    full = "\n".join(lines[:-1])  # just under the limit; any new line overflows it
    editor = BlockEditor(store)
    samples = []
    for i in range(20):
        await store.set("bench2", "human", full, reason="fill")
        start = time.perf_counter()
        result = await editor.apply("bench2", "human", [AppendLine(f"New decision number {i}: moved the launch to May.")],
                                    reason="bench")
        samples.append(time.perf_counter() - start)
        assert result.compaction is not None
    print(f"editor apply with extractive compaction of a full 3,000-char block: {ms(samples)}")


async def main() -> None:
    import logging

    logging.disable(logging.INFO)
    with tempfile.TemporaryDirectory() as tmp:
        await bench_episodes(Path(tmp))
        await bench_snapshots(Path(tmp))
        await bench_blocks(Path(tmp))


if __name__ == "__main__":
    asyncio.run(main())
