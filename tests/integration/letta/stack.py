"""Drive the test's Letta stack through ``scripts/letta_stack.sh`` (the outage test stops and
restarts the real server process)."""

from __future__ import annotations

import asyncio
import os
import subprocess
import urllib.parse
from pathlib import Path

REPO = Path(__file__).resolve().parents[3]
STACK = REPO / "scripts" / "letta_stack.sh"


class LettaStack:
    """The stack behind ``letta_url``, driven through ``scripts/letta_stack.sh`` itself."""

    def __init__(self, url: str) -> None:
        port = urllib.parse.urlsplit(url).port
        self.env = {**os.environ, "WAVE_LETTA_PORT": str(port)}

    async def run(self, command: str) -> subprocess.CompletedProcess[str]:
        return await asyncio.to_thread(
            subprocess.run,
            ["bash", str(STACK), command],
            env=self.env,
            capture_output=True,
            text=True,
            timeout=600,
            check=False,
        )

    async def stop_server(self) -> None:
        done = await self.run("stop-server")
        assert done.returncode == 0, done.stderr

    async def up(self) -> None:
        done = await self.run("up")
        assert done.returncode == 0, f"scripts/letta_stack.sh up failed:\n{done.stderr}"
