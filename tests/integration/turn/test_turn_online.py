"""A full turn with the real ``openai`` client against the scripted server, real stores."""

from __future__ import annotations

from graph.models import Status
from tests.support.openai_server import Reply, ScriptedOpenAI
from wave_agent.services import Services


def _extraction(*facts: tuple[str, str, list[tuple[str, str]]]) -> Reply:
    return Reply.json({"facts": [
        {"text": text, "type": kind, "entities": [{"name": n, "type": t} for n, t in entities]}
        for text, kind, entities in facts
    ]})


async def test_full_turn_with_a_tool_call_then_post_processing(
    online: Services, llm_server: ScriptedOpenAI, user_id: str
) -> None:
    llm_server.chat.extend([
        Reply.tool("remember", {"text": "The user is allergic to peanuts", "type": "identity"}),
        Reply.text("Noted: no peanuts for you, and Lisbon sounds lovely."),
    ])
    llm_server.json.append(_extraction(
        ("The user moved to Lisbon with his wife Ana", "identity",
         [("Lisbon", "place"), ("Ana", "person")]),
    ))
    llm_server.json.append(Reply.json({"edits": [
        {"op": "replace", "old": "- Lives in Warsaw", "new": "- Lives in Lisbon with his wife Ana"},
    ]}))
    blocks = await online.blocks()
    await blocks.set(user_id, "human", "- Name: Tom\n- Lives in Warsaw", reason="test setup")
    turns = await online.turns()
    result = await turns.handle(
        user_id, "I moved to Lisbon with my wife Ana last month. Also, remember I'm allergic to peanuts."
    )
    assert result.reply == "Noted: no peanuts for you, and Lisbon sounds lovely."
    assert [o.call.name for o in result.tools] == ["remember"] and result.tools[0].ok
    assert not result.offline

    chats = llm_server.chat_requests()
    assert len(chats) == 2
    first, second = chats
    assert first["messages"][0]["role"] == "system"
    assert {t["function"]["name"] for t in first["tools"]} == {
        "memory_search", "memory_reflect", "remember", "supersede", "forget"}
    assert second["messages"][-1]["role"] == "tool"
    assert "remembered" in second["messages"][-1]["content"]

    # Post-processing: extraction through the writer, episode log, core block, relation.
    report = await online.postprocessor().drain(60)
    assert report.pending == 0 and report.processed == 1
    graph = await online.graph()
    texts = {f.text for f in await graph.list_facts(user_id, statuses=[Status.ACTIVE])}
    assert "The user moved to Lisbon with his wife Ana" in texts
    assert "The user is allergic to peanuts" in texts
    extraction = llm_server.json_requests()[0]
    assert extraction["response_format"]["type"] == "json_schema"
    assert "I moved to Lisbon" in extraction["messages"][-1]["content"]
    episodes = await online.episodes()
    day = (await episodes.recent_days(user_id, count=1))[0]
    assert any("Lisbon" in entry.text for entry in day.entries)
    block = await blocks.get(user_id, "human")
    assert block.value == "- Name: Tom\n- Lives in Lisbon with his wife Ana"
    block_request = llm_server.json_requests()[1]
    assert block_request["response_format"]["json_schema"]["name"] == "block_edits"
    assert "- Lives in Warsaw" in block_request["messages"][-1]["content"]
    lisbon = await graph.resolve_entity(user_id, "Lisbon", create=False)
    assert lisbon is not None
    assert any(r.type.value == "MENTIONED_WITH" for r in await graph.relations(user_id, lisbon.id))

    # The next turn sees the new notes (the cached base was refreshed by the write).
    llm_server.chat.append(Reply.text("In Lisbon."))
    await turns.handle(user_id, "Where do I live now?")
    system = llm_server.chat_requests()[-1]["messages"][0]["content"]
    assert "The user moved to Lisbon with his wife Ana" in system


async def test_bad_json_from_the_model_gets_an_actionable_error_not_a_crash(
    online: Services, llm_server: ScriptedOpenAI, user_id: str
) -> None:
    llm_server.chat.extend([
        Reply.tool("remember", '{"text": "likes tea",'),  # cut-off JSON
        Reply.tool("launch_rockets", {"now": True}),  # no such tool
        Reply.tool("supersede", {"old_id": "f-x"}),  # missing new_text
        Reply.text("Sorry, I could not store that; you like tea, right?"),
    ])
    llm_server.json.append(Reply.text("this is not JSON at all"))
    llm_server.json.append(Reply.text("{still not"))
    turns = await online.turns()
    result = await turns.handle(user_id, "I really like green tea in the mornings")
    assert result.reply.startswith("Sorry, I could not store that")
    assert [o.ok for o in result.tools] == [False, False, False]
    tool_messages = [m for m in llm_server.chat_requests()[-1]["messages"] if m["role"] == "tool"]
    assert "not valid JSON" in tool_messages[0]["content"]
    assert "unknown tool 'launch_rockets'" in tool_messages[1]["content"]
    assert "Available tools" in tool_messages[1]["content"]
    assert "new_text" in tool_messages[2]["content"] and "Next:" in tool_messages[2]["content"]
    assert "remember (error)" in turns.last_debug(user_id).render()  # type: ignore[union-attr]

    # Extraction output unusable twice: a logged fallback to the heuristic extractor.
    report = await online.postprocessor().drain(60)
    assert report.pending == 0
    graph = await online.graph()
    texts = [f.text for f in await graph.list_facts(user_id)]
    assert texts == ["The user likes green tea in the mornings"]


async def test_model_down_answers_from_memory_and_keeps_the_exchange(
    online: Services, llm_server: ScriptedOpenAI, user_id: str
) -> None:
    llm_server.chat.extend([Reply.error(503)] * 2)
    llm_server.json.extend([Reply.error(503)] * 2)
    turns = await online.turns()
    result = await turns.handle(user_id, "My sister Ola lives in Gdansk")
    assert "unavailable" in result.reply
    report = await online.postprocessor().drain(0.5)
    assert report.pending == 1 and "503" in (report.last_error or "")
    llm_server.json.append(Reply.json({"facts": [{"text": "The user's sister Ola lives in Gdansk",
                                                  "type": "relationship"}]}))
    report = await online.postprocessor().drain(30)
    assert report.pending == 0
    graph = await online.graph()
    assert [f.text for f in await graph.list_facts(user_id)] == ["The user's sister Ola lives in Gdansk"]
