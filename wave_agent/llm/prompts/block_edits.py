"""Core-block edits after an exchange: typed in (``BlockEditsInput``), typed out (edit dicts
for ``wave_agent.blocks.editor.parse_edits``); offline, each new stable fact is appended."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from wave_agent.llm.client import ChatMessage, LLMBadOutput, LLMClient
from wave_agent.llm.prompts import render

log = logging.getLogger("wave.llm.block_edits")

SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "edits": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {
                    "op": {"type": "string", "enum": ["append", "replace"]},
                    "text": {"type": "string"},
                    "old": {"type": "string"},
                    "new": {"type": "string"},
                },
                "required": ["op"],
            },
        }
    },
    "required": ["edits"],
}


@dataclass(frozen=True, slots=True)
class BlockEditsInput:
    label: str
    current: str
    limit: int
    new_facts: Sequence[str]


def appended(inp: BlockEditsInput) -> list[dict[str, str]]:
    """The offline (and fallback) edits: one appended line per new fact."""
    return [{"op": "append", "text": f"- {fact}"} for fact in inp.new_facts]


def messages(inp: BlockEditsInput) -> list[ChatMessage]:
    system = render("block_edits", label=inp.label, limit=str(inp.limit))
    facts = "\n".join(f"- {f}" for f in inp.new_facts)
    body = f"CURRENT BLOCK:\n{inp.current or '(empty)'}\n\nNEW FACTS:\n{facts}"
    return [ChatMessage.system(system), ChatMessage.user(body)]


def parse(value: dict[str, Any]) -> list[dict[str, Any]]:
    edits = value.get("edits")
    if not isinstance(edits, list):
        raise LLMBadOutput("block_edits: no 'edits' list")
    kept = [e for e in edits if isinstance(e, dict) and e.get("op") in ("append", "replace")]
    if len(kept) != len(edits):
        log.warning("block edits: %d malformed items skipped", len(edits) - len(kept))
    return kept


async def run(client: LLMClient, inp: BlockEditsInput) -> list[dict[str, Any]]:
    if client.offline or not inp.new_facts:
        return appended(inp)
    try:
        value = await client.complete_json(messages(inp), schema_name="block_edits", schema=SCHEMA)
        return parse(value)
    except LLMBadOutput as exc:
        log.warning("block edits unusable (%s); appending the new facts instead", exc.detail)
        return appended(inp)
