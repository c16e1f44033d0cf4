"""How long a door takes to answer from a cold process: `wave --help`, `wave facts`, a cold
`wave recall`, an MCP session's first recall after `initialize`, and a CLI recall while another
process (the MCP server) holds the archive.

    PYTHONPATH=. .venv/bin/python scripts/bench_startup.py [--runs 5] [--keep]

It makes a fresh DATA_DIR under a temporary directory, starts the embedded Neo4j there on a free
port, writes a few Russian records through `wave remember`, and runs every command as a person
would (the console script, a new process each time). Wall-clock medians and the load average
are printed; docs/benchmarks.md, "Start-up and every door at once", has the figures.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

WAVE = str(Path(sys.executable).with_name("wave"))
RECORDS = ("Моя сестра Лена живёт в Казани и работает ветеринаром",
           "Я не ем мясо с прошлого года", "Кота зовут Барсик, ему семь лет")
QUESTION = "где живёт сестра"
VOICES = ("lexical", "semantic", "temporal", "graph")


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _timed(env: dict[str, str], *args: str) -> tuple[float, subprocess.CompletedProcess[str]]:
    start = time.perf_counter()
    done = subprocess.run([WAVE, *args], env=env, capture_output=True, text=True, timeout=600,
                          cwd=tempfile.gettempdir())
    took = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(f"`wave {' '.join(args)}` failed: {done.stderr[-2000:]}")
    return took, done


def _voices(records: list[dict[str, Any]]) -> set[str]:
    ranks = records[0].get("ranks") if records else None
    if isinstance(ranks, dict):
        return {v for v, r in ranks.items() if r is not None}
    found = str(records[0].get("found_by", "")) if records else ""
    return {v for v in VOICES if v in found}


async def _mcp_first_recall(env: dict[str, str], user: str,
                            hold_then: list[str] | None = None) -> dict[str, Any]:
    """Seconds from `initialize` done to the first recall's answer (the server warms up
    meanwhile, as a client would leave it to); optionally a CLI recall while it holds."""
    from mcp import Client
    from mcp.client.stdio import StdioServerParameters

    params = StdioServerParameters(command=WAVE, args=["mcp", "--user", user], env=env,
                                   cwd=tempfile.gettempdir())
    started = time.perf_counter()
    async with Client(params, read_timeout_seconds=600) as client:
        ready = time.perf_counter()
        result = await client.call_tool("recall", {"query": QUESTION, "k": 3})
        answered = time.perf_counter()
        payload = dict(result.structured_content or json.loads(result.content[0].text))
        out = {"initialize_s": ready - started, "first_recall_s": answered - ready,
               "voices": sorted(_voices(payload["records"])), "note": payload["note"]}
        if hold_then is not None:  # the server holds the archive now: another door
            took, done = _timed(env, *hold_then)
            out["cli_recall_while_held_s"] = took
            out["cli_voices_while_held"] = sorted(_voices(json.loads(done.stdout)))
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, help="runs of each command (median)")
    parser.add_argument("--keep", action="store_true", help="keep the temporary DATA_DIR")
    parser.add_argument("--port", type=int, default=None,
                        help="the embedded Neo4j's Bolt port (default: a free one)")
    args = parser.parse_args()

    scratch = Path(tempfile.mkdtemp(prefix="wave-bench-startup-"))
    user = "bench-startup"
    env = {k: v for k, v in os.environ.items() if k.upper() not in {"DATA_DIR", "NEO4J_URI"}}
    env.update(DATA_DIR=str(scratch / "data"), NEO4J_PORT=str(args.port or _free_port()), DEFAULT_USER=user,
               HF_HUB_OFFLINE="1", TRANSFORMERS_OFFLINE="1", XDG_DATA_HOME=str(scratch / "xdg"))
    figures: dict[str, Any] = {}
    try:
        subprocess.run([WAVE, "services", "up", "--wait", "300"], env=env, check=True,
                       capture_output=True, timeout=900)
        for text in RECORDS:
            _timed(env, "remember", text)
        load_before = os.getloadavg()
        for name, command in (("wave --help", ["--help"]), ("wave facts", ["facts"]),
                              ("wave recall (cold)", ["recall", QUESTION, "--json"])):
            times = []
            for _ in range(args.runs):
                took, done = _timed(env, *command)
                times.append(took)
            figures[name] = {"median_s": statistics.median(times), "min_s": min(times)}
            if command[0] == "recall":
                figures[name]["voices"] = sorted(_voices(json.loads(done.stdout)))
        sessions = [asyncio.run(_mcp_first_recall(env, user, ["recall", QUESTION, "--json"]))
                    for _ in range(max(1, args.runs // 2))]
        figures["MCP first recall after initialize"] = {
            "median_s": statistics.median(s["first_recall_s"] for s in sessions),
            "min_s": min(s["first_recall_s"] for s in sessions),
            "voices": sessions[-1]["voices"], "note": sessions[-1]["note"]}
        figures["wave recall while `wave mcp` holds the archive"] = {
            "median_s": statistics.median(s["cli_recall_while_held_s"] for s in sessions),
            "min_s": min(s["cli_recall_while_held_s"] for s in sessions),
            "voices": sessions[-1]["cli_voices_while_held"]}
        figures["load average (1, 5, 15 min) before / after"] = [
            [round(x, 2) for x in load_before], [round(x, 2) for x in os.getloadavg()]]
    finally:
        subprocess.run([WAVE, "services", "down"], env=env, capture_output=True, timeout=300)
        if not args.keep:
            shutil.rmtree(scratch, ignore_errors=True)
    for name, value in figures.items():
        print(f"{name:52} {json.dumps(value, ensure_ascii=False, default=str)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
