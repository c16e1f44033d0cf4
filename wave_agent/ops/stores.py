"""What maintenance and the health report work on: every layer, each opened when used.

Both run over stores that may be down (a maintenance pass records the failure and the next
pass retries; the health report names the layer that did not answer), so each store is an
``Open[...]`` factory rather than an open store. The composition root builds one
(``Services.ops_stores()``); a test can build one from its own stores.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from wave_agent.infra.lazy import Open
from wave_agent.write.events import MemoryChanges

if TYPE_CHECKING:
    from archive.embedder import Embedder
    from archive.store import ArchiveStore
    from episodes.store import EpisodeStore
    from graph.store import GraphStore
    from wave_agent.blocks.store import BlockStore
    from wave_agent.infra.outbox import Outbox
    from wave_agent.write.writer import Writer


@dataclass(frozen=True, slots=True)
class OpsStores:
    graph: Open[GraphStore]
    archive: Open[ArchiveStore]
    writer: Open[Writer]
    episodes: Open[EpisodeStore]
    blocks: Open[BlockStore]
    embedder: Callable[[], Embedder]
    outbox: Callable[[], Outbox]
    # Wave's own files (session log, outbox, health history, erasure audit) live here.
    data_dir: Path
    # Wave's own SQLite files (session log, outbox, Letta update queue): compacted after an erasure.
    sqlite_files: tuple[Path, ...]
    # The process's board of memory changes: a pass announces what it changed beside the writer.
    changes: MemoryChanges
    # True when the archive is the local Qdrant under DATA_DIR (no QDRANT_URL): its files are
    # Wave's to compact after an erasure; a Qdrant server's are not.
    archive_is_local: bool
