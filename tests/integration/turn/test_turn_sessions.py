"""Sessions, best-effort reads and the auto-recall rule, offline (no model configured)."""

from __future__ import annotations

import socket
from datetime import UTC, datetime, timedelta
from pathlib import Path

from wave_agent.conversation.composer import NOTES, PERSONA
from wave_agent.services import Services
from wave_agent.settings import Settings


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


async def test_a_store_that_is_down_costs_its_section_never_the_turn(tmp_path: Path) -> None:
    dead = Settings(  # type: ignore[call-arg]
        _env_file=None, data_dir=tmp_path / "data",
        neo4j_uri=f"bolt://127.0.0.1:{_free_port()}", store_timeout_s=1.0,
    )
    async with Services(dead) as services:
        turns = await services.turns()
        result = await turns.handle("u-down", "Where did I put my passport last week?")
        assert result.offline and "offline" in result.reply
        debug = result.debug
        assert NOTES in debug.failed
        assert "excerpts" in debug.failed
        assert PERSONA not in debug.failed  # blocks are files: still there
        text = debug.render()
        assert "missing notes" in text and "missing excerpts" in text
        # The exchange is kept for post-processing even so.
        assert services.outbox().pending_count() == 1


async def test_one_word_message_triggers_no_search(offline: Services, user_id: str) -> None:
    turns = await offline.turns()
    thanks = await turns.handle(user_id, "спасибо!")
    assert not thanks.debug.searched
    assert thanks.debug.search_note == "fewer than two real words"
    assert thanks.debug.layers[[layer.name for layer in thanks.debug.layers].index("excerpts")].asked_items == 0
    question = await turns.handle(user_id, "где я живу?")
    assert question.debug.searched


async def test_idle_gap_starts_a_session_and_the_snapshot_returns_once(
    offline: Services, user_id: str
) -> None:
    turns = await offline.turns()
    t0 = datetime(2026, 6, 1, 10, 0, tzinfo=UTC)
    first = await turns.handle(user_id, "I am planning a trip to Kyoto in April", now=t0)
    assert first.session_started
    second = await turns.handle(user_id, "and then maybe Osaka", now=t0 + timedelta(minutes=20))
    assert not second.session_started and second.session_id == first.session_id
    # The window carries the previous exchange as history.
    composition = await turns.prepare(user_id, "what else?", now=t0 + timedelta(minutes=25))
    assert [m.content for m in composition.prefix if m.role == "user"][-1] == "and then maybe Osaka"

    later = t0 + timedelta(minutes=25 + 31)
    third = await turns.handle(user_id, "hello again, what were we talking about?", now=later)
    assert third.session_started and third.session_id != first.session_id
    system = (await turns.prepare(user_id, "so?", now=later + timedelta(minutes=1))).system
    assert "Previous session" in system and "Kyoto" in system
    # Spent: a further session start does not get it again.
    await turns.reset(user_id)
    fourth = await turns.prepare(user_id, "anything from before?", now=later + timedelta(minutes=2))
    assert "Kyoto in April" not in fourth.system


async def test_reset_starts_a_new_session(offline: Services, user_id: str) -> None:
    turns = await offline.turns()
    first = await turns.handle(user_id, "remember that my bike is blue")
    assert await turns.reset(user_id)
    second = await turns.handle(user_id, "what colour is my bike?")
    assert second.session_started and second.session_id != first.session_id
    assert second.debug.layers[[layer.name for layer in second.debug.layers].index("last_exchange")].got_chars == 0


async def test_settings_budget_is_the_composers_ceiling(tmp_path: Path, neo4j_uri: str) -> None:
    small = Settings(_env_file=None, data_dir=tmp_path / "d", neo4j_uri=neo4j_uri,  # type: ignore[call-arg]
                     prompt_budget_chars=2_000)
    async with Services(small) as services:
        turns = await services.turns()
        assert turns.composer.budget_chars == 2_000


async def test_a_redelivered_message_is_one_outbox_job(offline: Services, user_id: str) -> None:
    turns = await offline.turns()
    first = await turns.handle(user_id, "I moved to Porto in May", message_id="tg-42")
    again = await turns.handle(user_id, "I moved to Porto in May", message_id="tg-42")
    assert first.exchange_id == again.exchange_id
    assert first.queued and not again.queued
    assert offline.outbox().pending_count() == 1
