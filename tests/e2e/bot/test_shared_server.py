"""Several processes on one Qdrant server: ``wave run`` (real aiogram against the local Bot
API server) and two CLI writers, all at once, on the same person's memory.

Qdrant's local mode lets one process open the archive; with ``QDRANT_URL`` every process
writes to the server at the same time. Nothing may be lost: every record in the graph (the
system of record) has its vector, no vector is without a record, nothing is left pending.
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import sys
from pathlib import Path

import pytest

from tests.support.telegram_server import TelegramTestServer
from wave_agent.ops.maintenance.drift import index_drift
from wave_agent.services import Services
from wave_agent.settings import Settings

pytestmark = [pytest.mark.neo4j, pytest.mark.slow]

WAVE = str(Path(sys.executable).with_name("wave"))
PER_WRITER = 40
# Russian first: what the person tells the bot while the writers import.
MESSAGES = (
    "Я люблю зелёный чай с жасмином и пью его каждое утро.",
    "Моя сестра Анна переехала в Варшаву прошлой весной.",
    "В субботу я играю в шахматы с Игорем в парке.",
    "I work as a backend engineer at a logistics company in Gdansk.",
)


def _env(**values: str) -> dict[str, str]:
    wave_vars = {name.upper() for name in Settings.model_fields}
    env = {k: v for k, v in os.environ.items() if k.upper() not in wave_vars}
    env.update(HF_HUB_OFFLINE="1", TRANSFORMERS_OFFLINE="1", LOG_LEVEL="WARNING", **values)
    return env


def _texts(writer: str) -> list[str]:
    # Distinct statements: no two share most of their words, and none differ only by a number
    # (the writer rightly turns "same words, other numbers" into a proposal, even in an import).
    places = ("в Казани", "в Томске", "в Гданьске", "в Лиссабоне", "в Осло", "в Вильнюсе",
              "в Тбилиси", "в Бергене")
    deeds = ("купил старый велосипед", "выучил испанскую песню", "сломал любимую кружку",
             "нашёл редкую марку", "посадил молодую яблоню", "испёк ржаной хлеб",
             "починил соседский забор", "увидел северное сияние")
    who = {"A": "Антон", "B": "Борис"}.get(writer, writer)
    return [f"{who} {deeds[n % len(deeds)]} {places[(n // len(deeds) + n) % len(places)]}"
            f" ({writer}{chr(0x430 + n % 32)}{chr(0x430 + n // 32)})"
            for n in range(PER_WRITER)]


async def _cli(env: dict[str, str], *args: str) -> tuple[int, str]:
    process = await asyncio.create_subprocess_exec(
        WAVE, *args, env=env, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
    out, err = await asyncio.wait_for(process.communicate(), 600)
    return int(process.returncode or 0), (out + err).decode()


async def test_bot_and_two_cli_writers_share_the_server_and_lose_nothing(
    tmp_path: Path, neo4j_uri: str, qdrant_server: str, telegram: TelegramTestServer, owner: int
) -> None:
    data = tmp_path / "data"
    user = f"tg-{owner}"
    env = _env(DATA_DIR=str(data), NEO4J_URI=neo4j_uri, QDRANT_URL=qdrant_server)
    files = {}
    for writer in ("A", "B"):
        files[writer] = tmp_path / f"{writer}.json"
        files[writer].write_text(json.dumps(_texts(writer), ensure_ascii=False), encoding="utf-8")

    bot = await asyncio.create_subprocess_exec(
        WAVE, "run", cwd=tmp_path,
        env={**env, "TELEGRAM_BOT_TOKEN": telegram.token, "TELEGRAM_API_BASE": telegram.base_url,
             "TELEGRAM_ALLOWED_USERS": str(owner)},
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
    )
    try:
        await telegram.wait_for_method("getUpdates", timeout=180)

        async def write(name: str) -> tuple[int, str]:
            # Each CLI call loads the model (tens of seconds on a busy machine): one import each.
            return await _cli(env, "import", str(files[name]), "--user", user)

        async def talk() -> None:
            for n, text in enumerate(MESSAGES, 1):
                await telegram.send_text(owner, text)
                await telegram.wait_for_method("sendMessage", owner, count=n, timeout=300)

        results = await asyncio.gather(write("A"), write("B"), talk())
        for code, output in results[:2]:
            assert code == 0, output[-2000:]
            assert "Traceback" not in output
        bot.send_signal(signal.SIGTERM)  # `wave run` drains its post-processor before exit
        _, err = await asyncio.wait_for(bot.communicate(), 300)
        assert bot.returncode == 0, err.decode()[-2000:]
    finally:
        if bot.returncode is None:
            bot.kill()
            await bot.wait()

    settings = Settings(_env_file=None, data_dir=data, neo4j_uri=neo4j_uri,  # type: ignore[call-arg]
                        qdrant_url=qdrant_server)
    async with Services(settings) as services:
        assert services.outbox().pending_count() == 0
        graph, archive = await services.graph(), await services.archive()
        facts = await graph.list_facts(user)
        drift = await index_drift(graph, archive, user)
        vectors = await archive.count(user)

    texts = {f.text for f in facts}
    for name in ("A", "B"):
        assert set(_texts(name)) <= texts, f"writer {name} lost records"
    assert any("чай" in t for t in texts), "the bot's post-processor wrote nothing"
    assert (drift.missing, drift.flagged, drift.orphans) == ((), (), ())
    assert vectors == len(facts)
