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
