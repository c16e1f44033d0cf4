"""memory_reflect: the narrative cites exactly the ids it was given (checked on the request
the scripted model server received), history is in the material, offline gives a labelled
timeline, and a question with nothing behind it is answered with "nothing is known"."""

from __future__ import annotations

import re
from typing import Any

from tests.integration.reflect.conftest import seed_work_history
from tests.support.openai_server import Reply, ScriptedOpenAI
from wave_agent.app.reflect import FAILED_LABEL, NOTHING, OFFLINE_LABEL, ReflectResult
from wave_agent.conversation.tools import MemoryReflectArgs, build_handlers
from wave_agent.services import Services

QUESTION = "How has the user's attitude to work changed?"
IDS = re.compile(r"^\[((?:f|ep|s)-[^\]]+)\]", re.MULTILINE)


async def reflect(services: Services, user_id: str, question: str) -> ReflectResult:
    """What /reflect, ``wave reflect``, the page and MCP call: the one ``Reflector``."""
    return await (await services.reflect()).reflect(user_id, question)


def _narrative(body: dict[str, Any]) -> Reply:
    """Cites the first and last record it was sent, and one id it was not sent."""
    sent = IDS.findall(body["messages"][-1]["content"])
    return Reply.text(
        f"At first the work felt dull [{sent[0]}]. Later things changed [{sent[-1]}], "
        "and an invented record says otherwise [f-zzzzzzzz]."
    )


async def test_reflect_cites_the_ids_it_was_given(
    online: Services, llm_server: ScriptedOpenAI, user_id: str
) -> None:
    ids = await seed_work_history(online, user_id)
    llm_server.chat.append(_narrative)

    result = await reflect(online, user_id, QUESTION)

    (request,) = llm_server.chat_requests()
    sent = IDS.findall(request["messages"][-1]["content"])
    assert not result.offline
    assert set(sent) == {m.id for m in result.material}
    # the superseded record (history), the current one, the episode day and the snapshot
    assert {ids["bank"], ids["quit"], ids["meaning"], ids["episode"], ids["snapshot"]} <= set(sent)
    assert ids["dog"] not in sent  # unrelated
    dates = [re.search(r"\] (\d{4}-\d{2}-\d{2})", line).group(1)  # type: ignore[union-attr]
             for line in request["messages"][-1]["content"].splitlines() if IDS.match(line)]
    assert dates == sorted(dates)  # ordered in time
    assert sent[0] == ids["bank"]
    assert set(result.cited_ids) <= set(sent)
    assert set(result.cited_ids) == {sent[0], sent[-1]}
    assert "f-zzzzzzzz" not in result.cited_ids
    assert result.material_count == len(sent)


async def test_memory_reflect_tool_returns_the_narrative(
    online: Services, llm_server: ScriptedOpenAI, user_id: str
) -> None:
    await seed_work_history(online, user_id)
    llm_server.chat.append(Reply.text("His work went from dull to meaningful."))
    handlers = build_handlers(online.recall, online.writer, online.reflect)

    answer = await handlers["memory_reflect"](user_id, MemoryReflectArgs(question=QUESTION))

    assert answer == "His work went from dull to meaningful."


async def test_offline_reflect_is_a_labelled_dated_timeline(
    offline: Services, user_id: str
) -> None:
    ids = await seed_work_history(offline, user_id)

    result = await reflect(offline, user_id, QUESTION)

    assert result.offline
    lines = result.text.splitlines()
    assert lines[0] == OFFLINE_LABEL
    entries = [line for line in lines[1:] if line.strip()]
    assert [e[:10] for e in entries] == sorted(e[:10] for e in entries)
    assert f"[{ids['bank']}]" in entries[0] and "superseded" in entries[0]
    assert set(result.cited_ids) == {m.id for m in result.material}
    assert ids["dog"] not in result.cited_ids


async def test_model_down_falls_back_to_the_timeline(
    online: Services, llm_server: ScriptedOpenAI, user_id: str
) -> None:
    await seed_work_history(online, user_id)
    llm_server.default_chat = Reply.error(500)

    result = await reflect(online, user_id, QUESTION)

    assert result.offline and result.text.startswith(FAILED_LABEL)
    assert result.material_count > 0


async def test_nothing_behind_the_question_says_so(
    online: Services, llm_server: ScriptedOpenAI, user_id: str
) -> None:
    await seed_work_history(online, user_id)

    unrelated = await reflect(online, user_id, "What does the user think about volcanoes?")
    empty = await reflect(online, user_id, "   ")
    stranger = await reflect(online, user_id + "-nobody", QUESTION)

    for result in (unrelated, empty, stranger):
        assert result.text == NOTHING
        assert result.material_count == 0 and result.cited_ids == ()
    assert llm_server.chat_requests() == []  # nothing was invented


async def test_reflecting_on_a_person_builds_on_the_entity(offline: Services, user_id: str) -> None:
    """A record that names the husband by role alone is about Олег too, once a record said
    "Муж Олег": reflecting on Олег brings it, though it never says his name."""
    writer = await offline.writer()
    await writer.remember(user_id, "Муж Олег работает водителем.")
    by_role = await writer.remember(user_id, "Муж купил новую машину в кредит.")
    await writer.remember(user_id, "Дочь Соня ходит во второй класс.")
    assert by_role.fact is not None

    result = await reflect(offline, user_id, "что я знаю про Олега")

    assert by_role.fact.id in {m.id for m in result.material}
