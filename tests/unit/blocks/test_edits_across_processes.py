"""Several processes edit one person's core block (the bot, `wave chat`, the outbox drain): no
process writes over another's edit, so a line one of them added or removed stays so."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

from wave_agent.blocks.markdown_store import MarkdownBlockStore
from wave_agent.blocks.store import HUMAN

ROOT = Path(__file__).resolve().parents[3]
EACH = 12

_WRITER = textwrap.dedent("""
    import asyncio, sys
    from pathlib import Path
    from wave_agent.blocks.editor import AppendLine, BlockEditor
    from wave_agent.blocks.markdown_store import MarkdownBlockStore

    async def main(root, name, n):
        store = MarkdownBlockStore(Path(root), limit=3000)
        go = Path(root) / "go"
        while not go.exists():
            await asyncio.sleep(0.005)
        for i in range(n):
            # a new editor each time, as the post-processor and BlockLines make one per edit
            await BlockEditor(store).apply("u", "human", [AppendLine(f"- {name} {i}")],
                                           reason=f"{name} {i}")

    asyncio.run(main(sys.argv[1], sys.argv[2], int(sys.argv[3])))
""")


def test_two_processes_appending_lose_no_line(tmp_path: Path) -> None:
    root = tmp_path / "blocks"
    root.mkdir()
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    procs = [subprocess.Popen([sys.executable, "-c", _WRITER, str(root), name, str(EACH)],
                              env=env)
             for name in ("bot", "chat")]
    (root / "go").touch()
    for p in procs:
        assert p.wait(timeout=120) == 0
    import asyncio

    block = asyncio.run(MarkdownBlockStore(root, limit=3000).get("u", HUMAN))
    lines = set(block.value.split("\n"))
    missing = [f"- {n} {i}" for n in ("bot", "chat") for i in range(EACH)
               if f"- {n} {i}" not in lines]
    assert missing == []
    assert block.version == 2 * EACH
