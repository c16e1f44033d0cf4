"""A store that is down reaches the person on Telegram as one clear message with its next
step, the same step the CLI and the memory page print (``wave services up``).

Real aiogram long-polls the local Bot API server; the services are the real ones over a data
directory of the test's own, with Neo4j's address pointing at a port where nothing listens.
"""

from __future__ import annotations

from pathlib import Path

from tests.e2e.bot.harness import bot_settings, free_port, polling
from tests.support.telegram_server import TelegramTestServer
from wave_agent.bot.services_backend import ServicesBackend
from wave_agent.services import Services
from wave_agent.settings import Settings


async def test_neo4j_down_reaches_the_person_with_the_next_step(
    owner: int, tmp_path: Path, telegram: TelegramTestServer,
) -> None:
    base = Settings(  # type: ignore[call-arg]
        _env_file=None, data_dir=tmp_path / "data",
        neo4j_uri=f"bolt://127.0.0.1:{free_port()}",  # nothing listens there
    )
    async with Services(base) as services:
        backend = ServicesBackend(services)
        async with polling(bot_settings(base, telegram, owner), backend, telegram):
            await telegram.send_command(owner, "memory")
            [reply] = await telegram.wait_for_method("sendMessage", owner)

    shown = reply.shown or ""
    assert shown.startswith("I can't reach part of my memory right now: Neo4j at"), shown
    assert "What works: `wave services up`, or check NEO4J_URI." in shown, shown
    assert "Something went wrong" not in shown
