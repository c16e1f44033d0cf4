"""The LLM client protocol and the plain data it speaks.

Two implementations: ``OpenAIClient`` (any OpenAI-compatible endpoint through the ``openai``
package) and ``OfflineClient`` (no endpoint configured: says so, answers from what recall
found). Callers depend only on ``LLMClient``.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol, runtime_checkable

from wave_agent.errors import Refused, Unavailable, WaveError

Role = Literal["system", "user", "assistant", "tool"]


@dataclass(frozen=True, slots=True)
class ToolCall:
    """One call the model asked for; ``arguments`` is the model's raw JSON text."""

    id: str
    name: str
    arguments: str

    def parsed_arguments(self) -> dict[str, Any]:
        """The arguments as a dict; raises ``BadToolArguments`` naming what to fix."""
        raw = self.arguments.strip() or "{}"
        try:
            value = json.loads(raw)
        except json.JSONDecodeError as exc:
            raise BadToolArguments(
                self.name,
                f"arguments are not valid JSON ({exc.msg} at char {exc.pos})",
            ) from exc
        if not isinstance(value, dict):
            raise BadToolArguments(self.name, "arguments must be a JSON object")
        return value


@dataclass(frozen=True, slots=True)
class ChatMessage:
    role: Role
    content: str | None = None
    tool_calls: tuple[ToolCall, ...] = ()
    tool_call_id: str | None = None

    @classmethod
    def system(cls, content: str) -> ChatMessage:
        return cls("system", content)

    @classmethod
    def user(cls, content: str) -> ChatMessage:
        return cls("user", content)

    @classmethod
    def assistant(cls, content: str | None, tool_calls: Sequence[ToolCall] = ()) -> ChatMessage:
        return cls("assistant", content, tuple(tool_calls))

    @classmethod
    def tool(cls, tool_call_id: str, content: str) -> ChatMessage:
        return cls("tool", content, (), tool_call_id)

    def to_openai(self) -> dict[str, Any]:
        out: dict[str, Any] = {"role": self.role, "content": self.content}
        if self.tool_calls:
            out["tool_calls"] = [
                {
                    "id": call.id,
                    "type": "function",
                    "function": {"name": call.name, "arguments": call.arguments},
                }
                for call in self.tool_calls
            ]
        if self.tool_call_id is not None:
            out["tool_call_id"] = self.tool_call_id
        return out


@dataclass(frozen=True, slots=True)
class ToolSpec:
    """A tool offered to the model: name, description, JSON-schema parameters."""

    name: str
    description: str
    parameters: Mapping[str, Any]

    def to_openai(self) -> dict[str, Any]:
        return {
            "type": "function",
            "function": {
                "name": self.name,
                "description": self.description,
                "parameters": dict(self.parameters),
            },
        }


@dataclass(frozen=True, slots=True)
class ChatResponse:
    content: str | None
    tool_calls: tuple[ToolCall, ...] = ()
    model: str = ""
    finish_reason: str | None = None
    offline: bool = False
    usage: Mapping[str, int] = field(default_factory=dict)

    def as_message(self) -> ChatMessage:
        return ChatMessage.assistant(self.content, self.tool_calls)


@runtime_checkable
class LLMClient(Protocol):
    """What the turn, the post-processor and reflect need from a language model."""

    @property
    def offline(self) -> bool: ...

    @property
    def model(self) -> str: ...

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
        """One completion. ``memory`` is what recall found, ``memory_notes`` the notes, as
        lines, and ``memory_unreadable`` why memory could not be read (None when it could):
        online clients ignore them (the prompt carries all three); the offline client builds
        its reply from them."""
        ...

    async def complete_json(
        self,
        messages: Sequence[ChatMessage],
        *,
        schema_name: str,
        schema: Mapping[str, Any],
    ) -> dict[str, Any]:
        """Structured output: a JSON object following ``schema``; ``LLMBadOutput`` if the
        model cannot produce one after one corrective retry."""
        ...

    async def close(self) -> None: ...


class LLMError(WaveError):
    """Root of the language-model errors."""


class LLMUnavailable(LLMError, Unavailable):
    """The endpoint did not answer (after retries) or refused the request."""

    def __init__(self, detail: str) -> None:
        self.detail = detail
        super().__init__(
            f"the language model is unavailable: {detail}",
            next_step="check LLM_BASE_URL, LLM_API_KEY and LLM_MODEL (or unset LLM_BASE_URL "
            "for offline mode) and try again",
        )


class LLMBadOutput(LLMError, Unavailable):
    """The model's output could not be used (not JSON, wrong shape)."""

    def __init__(self, detail: str) -> None:
        self.detail = detail
        super().__init__(
            f"the language model returned unusable output: {detail}",
            next_step="retry; if it repeats, use a model that supports JSON output "
            "(response_format) or set LLM_MODEL to another model",
        )


class OfflineUnsupported(LLMError, Refused):
    """Asked the offline client for something only a real model can do."""

    def __init__(self, what: str) -> None:
        super().__init__(
            f"offline mode cannot {what}",
            next_step="set LLM_BASE_URL (and LLM_API_KEY, LLM_MODEL) to an OpenAI-compatible "
            "endpoint",
        )


class BadToolArguments(LLMError, Refused):
    """A tool call whose arguments are unusable; the message is sent back to the model."""

    def __init__(self, tool: str, detail: str) -> None:
        self.tool = tool
        self.detail = detail
        super().__init__(
            f"tool {tool}: {detail}",
            next_step=f"call {tool} again with a JSON object matching its parameters schema",
        )
