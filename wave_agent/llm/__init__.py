"""Language models: the ``LLMClient`` protocol, an OpenAI-compatible client, and an offline
client that says it is offline (``build_client`` picks from settings)."""

from __future__ import annotations

from wave_agent.llm.client import (
    BadToolArguments,
    ChatMessage,
    ChatResponse,
    LLMBadOutput,
    LLMClient,
    LLMError,
    LLMUnavailable,
    OfflineUnsupported,
    ToolCall,
    ToolSpec,
)
from wave_agent.llm.offline import OfflineClient
from wave_agent.llm.openai_client import OpenAIClient
from wave_agent.settings import Settings

__all__ = [
    "BadToolArguments",
    "ChatMessage",
    "ChatResponse",
    "LLMBadOutput",
    "LLMClient",
    "LLMError",
    "LLMUnavailable",
    "OfflineClient",
    "OfflineUnsupported",
    "OpenAIClient",
    "ToolCall",
    "ToolSpec",
    "build_client",
]


def build_client(settings: Settings) -> LLMClient:
    """The OpenAI-compatible client when LLM_BASE_URL is set, else the offline client."""
    if settings.offline_llm:
        return OfflineClient()
    return OpenAIClient.from_settings(settings)
