"""Offline, a statement said in passing (no pronoun: nothing for the extractor's rules) is kept
as said when the learned judge reads it as worth remembering; a remark on the day is not
stored (issue 30, "statements kept", "small talk stays out")."""

from __future__ import annotations

import pytest

from graph.models import Status
from wave_agent.policy import smalltalk
from wave_agent.services import Services


async def test_a_statement_said_in_passing_is_stored_and_a_remark_is_not(
    offline: Services, user_id: str
) -> None:
    if (await offline.writer()).archive.embedder.model_name != smalltalk.READS:
        pytest.skip("the judge reads multilingual-e5-small vectors only")
    turns = await offline.turns()
    await turns.handle(user_id, "switched to night shifts at the hospital last week")
    await turns.handle(user_id, "опять снег пошёл, ну сколько можно")
    assert (await offline.postprocessor().drain(120)).pending == 0
    active = await (await offline.graph()).list_facts(user_id, statuses=[Status.ACTIVE])
    assert [f.text for f in active] == ["Switched to night shifts at the hospital last week"]


async def test_small_talk_that_changes_what_the_person_holds_is_kept(
    offline: Services, user_id: str
) -> None:
    """"с Игорем всё. разошлись. ну и ладно" reads as chatter to the judge, but it ends the
    partner the person holds: a person would expect Wave to know."""
    if (await offline.writer()).archive.embedder.model_name != smalltalk.READS:
        pytest.skip("the judge reads multilingual-e5-small vectors only")
    turns = await offline.turns()
    await turns.handle(user_id, "Встречаюсь с Игорем, уже полгода.")
    assert (await offline.postprocessor().drain(120)).pending == 0
    await turns.handle(user_id, "с Игорем всё. разошлись. ну и ладно")
    assert (await offline.postprocessor().drain(120)).pending == 0
    active = await (await offline.graph()).list_facts(user_id, statuses=[Status.ACTIVE])
    assert not any("Встречаюсь с Игорем" in f.text for f in active)
    assert any("Игорем всё" in f.text for f in active)


async def test_a_forwarded_preference_is_kept_as_the_same_sentence_typed(
    offline: Services, user_id: str
) -> None:
    """The bot puts a line before a forwarded text ("[forwarded from …: not the person's own
    words]"); the small-talk judge reads what was forwarded, not that line, so the preference
    is stored as it is when the person types it (imported, not stated: another test says so)."""
    from aiogram.types import Message

    from wave_agent.bot.routers.chat import message_text, provenance_of
    from wave_agent.bot.services_backend import ServicesBackend

    if (await offline.writer()).archive.embedder.model_name != smalltalk.READS:
        pytest.skip("the judge reads multilingual-e5-small vectors only")
    backend = ServicesBackend(offline)
    forwarded = Message.model_validate({
        "message_id": 1, "date": 1, "chat": {"id": 5, "type": "private"},
        "from": {"id": 5, "is_bot": False, "first_name": "A"}, "text": "Я люблю чай с мятой.",
        "forward_origin": {"type": "channel", "date": 1, "message_id": 3,
                           "chat": {"id": -100, "type": "channel", "title": "Канал о чае"}},
    })
    marked = provenance_of(forwarded)
    assert marked is not None
    await backend.chat(user_id, message_text(forwarded, marked), marked)
    await backend.chat(user_id + "-typed", "Я люблю чай с мятой.", None)
    assert (await offline.postprocessor().drain(120)).pending == 0
    graph = await offline.graph()
    forwarded_facts = [f.text for f in await graph.list_facts(user_id) if "мят" in f.text]
    typed_facts = [f.text for f in await graph.list_facts(user_id + "-typed") if "мят" in f.text]
    assert len(typed_facts) == 1 and len(forwarded_facts) == 1, (forwarded_facts, typed_facts)
