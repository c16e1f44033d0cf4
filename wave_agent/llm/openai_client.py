"""An OpenAI-compatible chat-completions client (OpenAI, OpenRouter, Ollama, vLLM, llama.cpp).

Base URL, key, model, timeout and retries come from settings. Transport failures are retried
with exponential backoff and jitter (connection errors, 408/409/429/5xx); what is left is
translated into ``LLMUnavailable`` at this boundary.
"""

from __future__ import annotations

import asyncio
import json
import logging
import random
from collections.abc import Mapping, Sequence
from typing import Any

import openai

from wave_agent.llm.client import (
    ChatMessage,
    ChatResponse,
    LLMBadOutput,
    LLMUnavailable,
    ToolCall,
    ToolSpec,
)
from wave_agent.settings import Settings

log = logging.getLogger("wave.llm")

RETRYABLE_STATUS = {408, 409, 429, 500, 502, 503, 504}


class OpenAIClient:
    """``LLMClient`` over the ``openai`` package."""

    def __init__(
        self,
        *,
        base_url: str,
        api_key: str | None,
        model: str,
        timeout_s: float = 60.0,
        max_retries: int = 2,
        backoff_s: float = 0.5,
    ) -> None:
        self._model = model
        self._max_retries = max_retries
        self._backoff_s = backoff_s
        # Our own retry loop (below) owns backoff, so the package does not retry on its own.
        self._client = openai.AsyncOpenAI(
            base_url=base_url,
            api_key=api_key or "not-needed",
            timeout=timeout_s,
            max_retries=0,
        )

    @classmethod
    def from_settings(cls, settings: Settings) -> OpenAIClient:
        if settings.llm_base_url is None:
            raise LLMUnavailable("LLM_BASE_URL is not set")
        return cls(
            base_url=settings.llm_base_url,
            api_key=settings.llm_api_key,
            model=settings.llm_model,
            timeout_s=settings.llm_timeout_s,
            max_retries=settings.llm_max_retries,
        )

    @property
    def offline(self) -> bool:
        return False

    @property
    def model(self) -> str:
        return self._model

    async def close(self) -> None:
        await self._client.close()

    async def _create(self, **kwargs: Any) -> Any:
        attempt = 0
        while True:
            try:
                return await self._client.chat.completions.create(model=self._model, **kwargs)
            except (openai.APIConnectionError, openai.APITimeoutError) as exc:
                error: Exception = exc
                retryable = True
            except openai.APIStatusError as exc:
                error = exc
                retryable = exc.status_code in RETRYABLE_STATUS
            if not retryable or attempt >= self._max_retries:
                raise LLMUnavailable(_describe(error)) from error
            delay = self._backoff_s * (2**attempt) * (0.5 + random.random())
            attempt += 1
            log.warning(
                "LLM call failed (%s); retry %d/%d in %.2fs",
                _describe(error), attempt, self._max_retries, delay,
            )
            await asyncio.sleep(delay)

    async def chat(
        self,
        messages: Sequence[ChatMessage],
        *,
        tools: Sequence[ToolSpec] = (),
        memory: Sequence[str] = (),
        memory_notes: Sequence[str] = (),
        memory_unreadable: str | None = None,
        temperature: float | None = None,
        max_tokens: int | None = None,
    ) -> ChatResponse:
        kwargs: dict[str, Any] = {"messages": [m.to_openai() for m in messages]}
        if tools:
            kwargs["tools"] = [t.to_openai() for t in tools]
        if temperature is not None:
            kwargs["temperature"] = temperature
        if max_tokens is not None:
            kwargs["max_tokens"] = max_tokens
        completion = await self._create(**kwargs)
        return _to_response(completion, self._model)

    async def complete_json(
        self,
        messages: Sequence[ChatMessage],
        *,
        schema_name: str,
        schema: Mapping[str, Any],
    ) -> dict[str, Any]:
        history = [m.to_openai() for m in messages]
        response_format = {
            "type": "json_schema",
            "json_schema": {"name": schema_name, "schema": dict(schema), "strict": False},
        }
        last_problem = ""
        for attempt in range(2):
            completion = await self._create(messages=history, response_format=response_format)
            text = _to_response(completion, self._model).content or ""
            try:
                value = json.loads(_strip_fences(text))
            except json.JSONDecodeError as exc:
                last_problem = f"not valid JSON ({exc.msg} at char {exc.pos})"
            else:
                if isinstance(value, dict):
                    return value
                last_problem = f"a JSON {type(value).__name__}, not an object"
            log.warning("structured output %s attempt %d: %s", schema_name, attempt + 1, last_problem)
            history = [
                *history,
                {"role": "assistant", "content": text},
                {
                    "role": "user",
                    "content": f"That reply was {last_problem}. Reply again with only one JSON "
                    f"object that follows the {schema_name} schema, no prose, no code fences.",
                },
            ]
        raise LLMBadOutput(f"{schema_name}: {last_problem}")


def _strip_fences(text: str) -> str:
    stripped = text.strip()
    if stripped.startswith("```"):
        stripped = stripped.split("\n", 1)[1] if "\n" in stripped else ""
        stripped = stripped.rsplit("```", 1)[0]
    return stripped.strip()


def _describe(exc: Exception) -> str:
    if isinstance(exc, openai.APIStatusError):
        return f"HTTP {exc.status_code}: {exc.message}"
    if isinstance(exc, openai.APITimeoutError):
        return "timed out"
    return f"{type(exc).__name__}: {exc}"


def _to_response(completion: Any, model: str) -> ChatResponse:
    choices = getattr(completion, "choices", None) or []
    if not choices:
        raise LLMBadOutput("the completion has no choices")
    choice = choices[0]
    message = choice.message
    calls = tuple(
        ToolCall(
            id=call.id or f"call_{index}",
            name=(call.function.name if call.function else "") or "",
            arguments=(call.function.arguments if call.function else "") or "",
        )
        for index, call in enumerate(message.tool_calls or ())
    )
    usage: dict[str, int] = {}
    if completion.usage is not None:
        usage = {
            "prompt_tokens": completion.usage.prompt_tokens or 0,
            "completion_tokens": completion.usage.completion_tokens or 0,
        }
    return ChatResponse(
        content=message.content,
        tool_calls=calls,
        model=getattr(completion, "model", None) or model,
        finish_reason=choice.finish_reason,
        usage=usage,
    )
