"""Time `Eraser.delete` and `Eraser.forget_person` on real stores (offline model).

    NEO4J_URI=bolt://127.0.0.1:7687 .venv/bin/python scripts/bench_erasure.py [EXCHANGES]

A throwaway person says EXCHANGES Russian messages through the whole pipeline (turn, outbox,
post-processor); then one record is deleted and the person is forgotten; wall-clock times are
printed. DATA_DIR is a temporary directory, removed after.
"""

from __future__ import annotations

import asyncio
import os
import sys
import tempfile
import time
import uuid
from pathlib import Path

from wave_agent.services import Services
from wave_agent.settings import Settings


async def main(exchanges: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        settings = Settings(_env_file=None, data_dir=Path(tmp),  # type: ignore[call-arg]
                            neo4j_uri=os.environ.get("NEO4J_URI", "bolt://127.0.0.1:7687"))
        user = f"bench-erasure-{uuid.uuid4().hex[:8]}"
        async with Services(settings) as services:
            turns = await services.turns()
            await turns.warm_up()
            for i in range(exchanges):
                await turns.handle(user, f"Меня зовут Анна Вжжиковская-{i}, я живу в Казани и "
                                         f"работаю в школе номер {i}.")
            await services.postprocessor().drain(600)
            await turns.reset(user)
            graph = await services.graph()
            facts = await graph.list_facts(user, statuses=None)
            eraser = await services.eraser()
            started = time.perf_counter()
            await eraser.delete(user, facts[0].id)
            deleted = time.perf_counter() - started
            started = time.perf_counter()
            await eraser.forget_person(user)
            forgotten = time.perf_counter() - started
        print(f"exchanges={exchanges} records={len(facts)} delete_s={deleted:.2f} "
              f"forget_person_s={forgotten:.2f}")


if __name__ == "__main__":
    asyncio.run(main(int(sys.argv[1]) if len(sys.argv) > 1 else 20))
