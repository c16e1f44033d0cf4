"""The OpenAI-compatible client against the scripted server (the real ``openai`` package)."""

from __future__ import annotations

import json

import pytest

from tests.support.openai_server import Reply, ScriptedOpenAI
from wave_agent.llm import (
    ChatMessage,
    LLMBadOutput,
    LLMUnavailable,
    OfflineClient,
    OpenAIClient,
    ToolSpec,
    build_client,
)
from wave_agent.llm.prompts import extract
from wave_agent.settings import Settings


def _client(server: ScriptedOpenAI, retries: int = 2) -> OpenAIClient:
    return OpenAIClient(
        base_url=server.base_url, api_key="k", model="m", timeout_s=5, max_retries=retries,
    )


async def test_chat_returns_text_and_sends_tools(llm_server: ScriptedOpenAI) -> None:
    llm_server.chat.append(Reply.text("hello"))
    client = _client(llm_server)
    spec = ToolSpec("memory_search", "search", {"type": "object", "properties": {}})
    response = await client.chat([ChatMessage.system("s"), ChatMessage.user("hi")], tools=[spec])
    await client.close()
    assert response.content == "hello"
    assert not response.offline
    sent = llm_server.requests[0]
    assert sent["model"] == "m"
    assert sent["tools"][0]["function"]["name"] == "memory_search"
    assert [m["role"] for m in sent["messages"]] == ["system", "user"]


async def test_tool_calls_come_back_parsed(llm_server: ScriptedOpenAI) -> None:
    llm_server.chat.append(Reply.tool("remember", {"text": "likes tea"}, call_id="call_x"))
    client = _client(llm_server)
    response = await client.chat([ChatMessage.user("remember I like tea")])
    await client.close()
    assert response.tool_calls[0].id == "call_x"
    assert response.tool_calls[0].parsed_arguments() == {"text": "likes tea"}


async def test_server_errors_are_retried_then_succeed(llm_server: ScriptedOpenAI) -> None:
    llm_server.chat.extend([Reply.error(503), Reply.error(500), Reply.text("finally")])
    client = _client(llm_server, retries=2)
    response = await client.chat([ChatMessage.user("hi")])
    await client.close()
    assert response.content == "finally"
    assert len(llm_server.requests) == 3


async def test_exhausted_retries_raise_unavailable_with_next_step(llm_server: ScriptedOpenAI) -> None:
    llm_server.chat.extend([Reply.error(503)] * 3)
    client = _client(llm_server, retries=1)
    with pytest.raises(LLMUnavailable) as caught:
        await client.chat([ChatMessage.user("hi")])
    await client.close()
    assert "LLM_BASE_URL" in str(caught.value)
    assert len(llm_server.requests) == 2


async def test_a_429_is_retried_after_the_wait_its_retry_after_asks(
    llm_server: ScriptedOpenAI,
) -> None:
    # Without Retry-After the first retry comes within 0.5 s; the server asks for 2 s.
    llm_server.chat.extend([Reply.error(429, "slow down", retry_after="2"), Reply.text("ok")])
    client = _client(llm_server, retries=2)
    response = await client.chat([ChatMessage.user("hi")])
    await client.close()
    assert response.content == "ok"
    first, second = llm_server.request_times
    assert second - first >= 1.9, "the retry did not wait what Retry-After asked"


async def test_llm_max_retries_is_the_number_of_retries() -> None:
    with ScriptedOpenAI() as server:
        server.chat.extend([Reply.error(503)] * 5)
        settings = Settings(_env_file=None, llm_base_url=server.base_url,  # type: ignore[call-arg]
                            llm_max_retries=3, llm_timeout_s=5)
        client = OpenAIClient.from_settings(settings)
        with pytest.raises(LLMUnavailable):
            await client.chat([ChatMessage.user("hi")])
        await client.close()
        assert len(server.requests) == 4


async def test_bad_request_is_not_retried(llm_server: ScriptedOpenAI) -> None:
    llm_server.chat.append(Reply.error(400, "bad"))
    client = _client(llm_server)
    with pytest.raises(LLMUnavailable):
        await client.chat([ChatMessage.user("hi")])
    await client.close()
    assert len(llm_server.requests) == 1


async def test_structured_output_recovers_from_bad_json(llm_server: ScriptedOpenAI) -> None:
    llm_server.json.extend([Reply.text("{not json"), Reply.json({"facts": []})])
    client = _client(llm_server)
    value = await client.complete_json(
        [ChatMessage.user("x")], schema_name="extract_facts", schema=extract.SCHEMA
    )
    await client.close()
    assert value == {"facts": []}
    second = llm_server.json_requests()[1]
    assert second["response_format"]["type"] == "json_schema"
    assert "not valid JSON" in second["messages"][-1]["content"]


async def test_structured_output_gives_up_with_bad_output(llm_server: ScriptedOpenAI) -> None:
    llm_server.json.extend([Reply.text("nope"), Reply.text("[1, 2]")])
    client = _client(llm_server)
    with pytest.raises(LLMBadOutput):
        await client.complete_json([ChatMessage.user("x")], schema_name="s", schema={})
    await client.close()


async def test_extraction_skips_malformed_items(llm_server: ScriptedOpenAI) -> None:
    llm_server.json.append(
        Reply.json(
            {
                "facts": [
                    {"text": "The user lives in Berlin", "type": "identity",
                     "entities": [{"name": "Berlin", "type": "place"}]},
                    {"text": "", "type": "event"},
                    "garbage",
                    {"text": "Likes tea", "type": "nonsense"},
                ]
            }
        )
    )
    client = _client(llm_server)
    from datetime import date

    facts = await extract.run(
        client, extract.ExtractInput("I live in Berlin", "ok", max_facts=5, today=date(2026, 1, 1))
    )
    await client.close()
    assert [f.text for f in facts] == ["The user lives in Berlin", "Likes tea"]
    assert facts[0].entities[0].name == "Berlin"
    assert facts[1].type.value == "event"
    assert json.loads(json.dumps(llm_server.json_requests()[0]["response_format"]))


def test_build_client_picks_offline_without_base_url(tmp_path: object) -> None:
    settings = Settings(_env_file=None, data_dir=tmp_path)  # type: ignore[call-arg,arg-type]
    assert isinstance(build_client(settings), OfflineClient)


async def test_offline_client_says_it_is_offline_and_uses_memory() -> None:
    client = OfflineClient()
    response = await client.chat(
        [ChatMessage.user("где я живу?")], memory=["Пользователь живёт в Берлине"]
    )
    assert response.offline
    assert "офлайн" in (response.content or "")
    assert "Берлине" in (response.content or "")
