"""Wave's turn and post-processor in their own OS process, for the crash tests.

    python -m tests.support.wave_process drain            # run every outbox job
    python -m tests.support.wave_process turn USER TEXT   # one turn (offline model), no drain

Settings come from the environment (DATA_DIR, NEO4J_URI; ``.env`` is not read);
``WAVE_FAULT`` may kill the process at a named point (``wave_agent.infra.faults``).
"""

from __future__ import annotations

import asyncio
import sys

from wave_agent.services import Services
from wave_agent.settings import Settings


async def main(argv: list[str]) -> None:
    settings = Settings(_env_file=None)  # type: ignore[call-arg]
    async with Services(settings) as services:
        if argv[0] == "drain":
            report = await services.postprocessor().drain(timeout_s=120)
            print(f"processed={report.processed} failed={report.failed} "
                  f"pending={report.pending} error={report.last_error}", flush=True)
        elif argv[0] == "turn":
            turns = await services.turns()
            result = await turns.handle(argv[1], argv[2])
            print(result.reply, flush=True)
        else:
            raise SystemExit(f"unknown command {argv[0]!r}")


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1:]))
