"""A Wave writer in its own OS process, for the multi-process tests.

    python -m tests.support.writer_process URI DATA_DIR USER GO_FILE COMMAND ARGS...

It connects to the real Neo4j, loads the bundled embedding model, builds a ``Writer`` with the
per-person locks under ``DATA_DIR/locks`` (as ``Services`` does) and without the archive (the
local archive is one process's), prints ``ready``, waits until ``GO_FILE`` exists (so that
several processes start writing at the same moment), then runs COMMAND:

- ``confirm TEXT N TAG``: remember TEXT N times, exchange ids ``TAG-0`` .. ``TAG-(N-1)``;
- ``remember TEXT...``: remember each text once;
- ``approve ID``: approve a proposal.

Each result's status goes to stdout, one line each; ``WAVE_FAULT`` may kill it on the way.
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

from archive.embedder import Embedder
from graph.store import GraphStore
from wave_agent.infra.person_lock import PersonLocks
from wave_agent.write.archive_sync import ArchiveSync
from wave_agent.write.writer import Writer


async def main(argv: list[str]) -> None:
    uri, data_dir, user, go_file, command, *args = argv
    graph = await GraphStore.connect(uri, "neo4j", "wave-local")
    embedder = Embedder("all-MiniLM-L6-v2", device="cpu")
    if command != "approve":  # a merge embeds nothing
        await embedder.load()
    writer = Writer(graph, ArchiveSync(embedder, None, problem="test: no archive"),
                    locks=PersonLocks(Path(data_dir) / "locks"))
    print("ready", flush=True)
    go = Path(go_file)
    while not go.exists():
        await asyncio.sleep(0.01)
    try:
        if command == "confirm":
            text, count, tag = args[0], int(args[1]), args[2]
            for i in range(count):
                result = await writer.remember(user, text, exchange_id=f"{tag}-{i}")
                print(result.status.value, flush=True)
        elif command == "remember":
            for text in args:
                print((await writer.remember(user, text)).status.value, flush=True)
        elif command == "approve":
            print((await writer.approve(user, args[0])).status.value, flush=True)
        else:
            raise SystemExit(f"unknown command {command!r}")
    finally:
        await graph.close()


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1:]))
