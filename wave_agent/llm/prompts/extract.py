"""Fact extraction from one exchange: typed in (``ExtractInput``), typed out
(``list[ExtractedFact]``), structured output with a JSON schema; heuristics when offline."""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import date
from typing import Any

from graph.models import EntityType, FactType
from wave_agent.llm.client import ChatMessage, LLMClient
from wave_agent.llm.offline import ExtractedEntity, ExtractedFact, extract_heuristic
from wave_agent.llm.prompts import render

log = logging.getLogger("wave.llm.extract")

MAX_FACT_TEXT = 2_000

SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "facts": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {
                    "text": {"type": "string"},
                    "type": {"type": "string", "enum": [t.value for t in FactType]},
                    "entities": {
                        "type": "array",
                        "items": {
                            "type": "object",
                            "properties": {
                                "name": {"type": "string"},
                                "type": {"type": "string", "enum": [t.value for t in EntityType]},
                            },
                            "required": ["name", "type"],
                        },
                    },
                },
                "required": ["text", "type"],
            },
        }
    },
    "required": ["facts"],
}


@dataclass(frozen=True, slots=True)
class ExtractInput:
    user_text: str
    assistant_text: str
    max_facts: int
    today: date


def messages(inp: ExtractInput) -> list[ChatMessage]:
    system = render("extract", today=inp.today.isoformat(), max_facts=str(inp.max_facts))
    exchange = f"PERSON:\n{inp.user_text}\n\nASSISTANT:\n{inp.assistant_text}"
    return [ChatMessage.system(system), ChatMessage.user(exchange)]


def parse(value: dict[str, Any], *, max_facts: int) -> list[ExtractedFact]:
    """Keep the well-formed items; log and skip the rest (never raise on the model's shape)."""
    items = value.get("facts")
    if not isinstance(items, list):
        log.warning("extraction output has no facts list; skipped: %.200r", value)
        return []
    facts: list[ExtractedFact] = []
    for item in items:
        if len(facts) >= max_facts:
            break
        if not isinstance(item, dict):
            log.warning("extraction item is not an object; skipped: %.200r", item)
            continue
        text = item.get("text")
        if not isinstance(text, str) or not text.strip() or len(text) > MAX_FACT_TEXT:
            log.warning("extraction item has no usable text; skipped: %.200r", item)
            continue
        try:
            kind = FactType(str(item.get("type", "event")).lower())
        except ValueError:
            log.warning("extraction item has unknown type %r; stored as event", item.get("type"))
            kind = FactType.EVENT
        entities: list[ExtractedEntity] = []
        for raw in item.get("entities") or ():
            if not isinstance(raw, dict) or not isinstance(raw.get("name"), str):
                continue
            try:
                etype = EntityType(str(raw.get("type", "topic")).lower())
            except ValueError:
                etype = EntityType.TOPIC
            name = raw["name"].strip()
            if name:
                entities.append(ExtractedEntity(name[:200], etype))
        facts.append(ExtractedFact(text.strip(), kind, tuple(entities)))
    return facts


async def run(client: LLMClient, inp: ExtractInput) -> list[ExtractedFact]:
    """Extract facts; the offline client uses the heuristic extractor on the person's words."""
    if client.offline:
        return extract_heuristic(inp.user_text, max_facts=inp.max_facts)
    value = await client.complete_json(messages(inp), schema_name="extract_facts", schema=SCHEMA)
    return parse(value, max_facts=inp.max_facts)
