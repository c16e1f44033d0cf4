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

# The attributes a statement may set (``wave_agent.world.attributes`` reads the same ones
# offline), and what a statement does to a value.
SINGLE_ATTRIBUTES = ("city", "employer", "role", "partner", "phone", "age", "diet", "vehicle",
                     "birthday", "birthplace", "school", "teacher")
MULTI_ATTRIBUTES = ("pet", "hobby", "allergy", "condition", "child", "sibling", "habit",
                    "device")
ATTRIBUTE_OPS = ("set", "add", "remove", "negate")

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
                    "attributes": {
                        "type": "array",
                        "items": {
                            "type": "object",
                            "properties": {
                                "entity": {"type": "string"},
                                "attribute": {"type": "string"},
                                "value": {"type": "string"},
                                "op": {"type": "string", "enum": list(ATTRIBUTE_OPS)},
                            },
                            "required": ["entity", "attribute", "value", "op"],
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
        facts.append(ExtractedFact(text.strip(), kind, tuple(entities),
                                   _attributes(item.get("attributes"))))
    return facts


def _attributes(raw: Any) -> tuple[str, ...]:
    """The well-formed attribute values of one item, ``entity|attribute|value|op``; an unknown
    attribute or op is skipped (logged), never guessed."""
    kept: list[str] = []
    for value in raw if isinstance(raw, list) else ():
        if not isinstance(value, dict) or not all(
                isinstance(value.get(k), str) and value[k].strip()
                for k in ("entity", "attribute", "value", "op")):
            continue
        attribute, op = value["attribute"].strip().lower(), value["op"].strip().lower()
        known = attribute in SINGLE_ATTRIBUTES + MULTI_ATTRIBUTES or (
            attribute.startswith("price:") and len(attribute) > 6)
        if not known or op not in ATTRIBUTE_OPS:
            log.warning("extraction attribute %r / op %r unknown; skipped", attribute, op)
            continue
        entity = value["entity"].strip()
        entity = "user" if entity.lower() in ("user", "the user", "пользователь") else entity
        kept.append("|".join(part.replace("|", "/")[:200] for part in
                             (entity, attribute, value["value"].strip(), op)))
    return tuple(kept)


async def run(client: LLMClient, inp: ExtractInput) -> list[ExtractedFact]:
    """Extract facts; the offline client uses the heuristic extractor on the person's words."""
    if client.offline:
        return extract_heuristic(inp.user_text, max_facts=inp.max_facts)
    value = await client.complete_json(messages(inp), schema_name="extract_facts", schema=SCHEMA)
    return parse(value, max_facts=inp.max_facts)
