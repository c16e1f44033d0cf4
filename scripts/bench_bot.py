"""Bot figures: reply splitting, and update-to-reply latency through the real aiogram stack.

    NEO4J_URI=bolt://127.0.0.1:7687 .venv/bin/python scripts/bench_bot.py [--turns 30]

The bot long-polls the local Bot API server (tests/support/telegram_server.py) with the real
services under a temporary data directory (offline LLM). Latency is measured from the moment
the update is queued on the server to the moment the bot's sendMessage reaches it; the
post-processor runs in the background as in production.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("HF_HUB_OFFLINE", "1")

from tests.support.telegram_server import TelegramTestServer
from wave_agent.bot.app import build_bot, build_dispatcher
from wave_agent.bot.formatting import escape, split_html
from wave_agent.bot.services_backend import ServicesBackend
from wave_agent.services import Services
from wave_agent.settings import Settings

OWNER = 1_000_000_001
MESSAGES = [
    "Меня зовут Влад, я живу в Берлине.",
    "Я люблю кофе без сахара.",
    "Пилот стоит 150 тысяч рублей.",
    "Моя дочь Маша учится в школе.",
    "Вчера я решил начать бегать по утрам.",
    "Что ты помнишь про мой город?",
]


def _pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def bench_split() -> None:
    for size in (10_000, 100_000):
        text = escape(("Абзац про память <граф> & эпизоды 😀. " * 12 + "\n\n") * (size // 480))
        text = f"<b>{text[:size // 2]}</b>{text[size // 2:]}"
        runs = []
        for _ in range(50):
            start = time.perf_counter()
            chunks = split_html(text)
            runs.append((time.perf_counter() - start) * 1000)
        print(f"split_html {len(text):>7,} chars -> {len(chunks):>2} messages: "
              f"p50 {statistics.median(runs):.2f} ms, p95 {_pct(runs, 0.95):.2f} ms")


async def _latency(telegram: TelegramTestServer, texts: list[str], command: bool) -> list[float]:
    out = []
    for text in texts:
        before = len(telegram.texts_to(OWNER))
        if command:
            await telegram.send_command(OWNER, text)
        else:
            await telegram.send_text(OWNER, text)
        queued = time.monotonic()
        calls = await telegram.wait_for(
            lambda c: c.method == "sendmessage" and c.shown is not None
            and int(c.params["chat_id"]) == OWNER, count=before + 1, timeout=120)
        out.append((calls[before].at - queued) * 1000)
    return out


async def bench_bot(neo4j_uri: str, turns: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        async with TelegramTestServer() as telegram:
            settings = Settings(  # type: ignore[call-arg]
                _env_file=None, data_dir=Path(tmp), neo4j_uri=neo4j_uri,
                telegram_bot_token=telegram.token, telegram_api_base=telegram.base_url,
                telegram_allowed_users=[OWNER], telegram_rate_per_minute=1000,
            )
            async with Services(settings) as services:
                backend = ServicesBackend(services)
                await backend.start()
                bot, dispatcher = build_bot(settings), build_dispatcher(settings, backend)
                task = asyncio.create_task(
                    dispatcher.start_polling(bot, handle_signals=False, polling_timeout=1))
                await telegram.wait_for_method("getUpdates")
                await _latency(telegram, ["help"] * 3, command=True)  # warm-up
                helps = await _latency(telegram, ["help"] * turns, command=True)
                chats = await _latency(
                    telegram, [MESSAGES[i % len(MESSAGES)] + f" ({i})" for i in range(turns)],
                    command=False)
                await dispatcher.stop_polling()
                await task
    for name, values in (("/help (transport only)", helps), ("chat turn (offline LLM)", chats)):
        print(f"{name:<26} n={len(values)}: p50 {statistics.median(values):.1f} ms, "
              f"p95 {_pct(values, 0.95):.1f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turns", type=int, default=30)
    args = parser.parse_args()
    bench_split()
    asyncio.run(bench_bot(os.environ.get("NEO4J_URI", "bolt://127.0.0.1:7687"), args.turns))


if __name__ == "__main__":
    main()
