"""Language models: the ``LLMClient`` protocol, an OpenAI-compatible client, and an offline
client that says it is offline (``build_client`` picks from settings).

``OpenAIClient`` is imported when first asked for: the ``openai`` package costs about a
second at import, and most commands (a recall, the world reader's language check) never
talk to a model.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

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

if TYPE_CHECKING:
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


def __getattr__(name: str) -> Any:
    if name == "OpenAIClient":
        from wave_agent.llm.openai_client import OpenAIClient

        return OpenAIClient
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def build_client(settings: Settings) -> LLMClient:
    """The OpenAI-compatible client when LLM_BASE_URL is set, else the offline client."""
    if settings.offline_llm:
        return OfflineClient()
    from wave_agent.llm.openai_client import OpenAIClient

    return OpenAIClient.from_settings(settings)
