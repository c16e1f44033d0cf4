"""Latency of the Letta block store against a running Letta server; prints figures.

    scripts/letta_stack.sh up
    .venv/bin/python scripts/bench_letta_blocks.py --url http://127.0.0.1:18283 --n 40

Each operation runs ``--n`` times for a fresh user (median and p95 in milliseconds):
``get`` of a written block, ``set`` of a new value (current block + history block),
``history`` after n versions, and a ``get`` while the server is unreachable (a closed port:
how fast a turn learns that Letta is down).
"""

from __future__ import annotations

import argparse
import asyncio
import socket
import statistics
import tempfile
import time
import uuid
from collections.abc import Awaitable, Callable
from pathlib import Path

from wave_agent.blocks.letta_store import LettaBlockStore, LettaUnavailable


def _figures(name: str, samples: list[float]) -> None:
    ordered = sorted(samples)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
    print(
        f"{name:<28} median {statistics.median(ordered):7.1f} ms   p95 {p95:7.1f} ms   n={len(ordered)}"
    )


async def _timed(call: Callable[[], Awaitable[object]]) -> float:
    started = time.perf_counter()
    await call()
    return (time.perf_counter() - started) * 1000


async def main(url: str, n: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        store = LettaBlockStore(url, pending_path=Path(tmp) / "pending.sqlite3")
        user = f"bench-{uuid.uuid4().hex[:8]}"
        print(f"Letta {await store.ping()} at {url}; user {user}")
        sets = [
            await _timed(lambda i=i: store.set(user, "human", f"line {i}\n" * 20, reason="bench"))  # type: ignore[misc]
            for i in range(n)
        ]
        gets = [await _timed(lambda: store.get(user, "human")) for _ in range(n)]
        history = [await _timed(lambda: store.history(user, "human")) for _ in range(5)]
        _figures("set (new version)", sets)
        _figures("get", gets)
        _figures(f"history ({n} versions)", history)
        await store.close()

        with socket.socket() as sock:
            sock.bind(("127.0.0.1", 0))
            port = sock.getsockname()[1]
        down = LettaBlockStore(
            f"http://127.0.0.1:{port}", pending_path=Path(tmp) / "pending.sqlite3"
        )
        failures: list[float] = []
        for _ in range(n):
            started = time.perf_counter()
            try:
                await down.get(user, "human")
            except LettaUnavailable:
                failures.append((time.perf_counter() - started) * 1000)
        _figures("get, server unreachable", failures)
        await down.close()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--url", default="http://127.0.0.1:18283")
    parser.add_argument("--n", type=int, default=40)
    args = parser.parse_args()
    asyncio.run(main(args.url, args.n))
