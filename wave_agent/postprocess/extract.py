"""Which exchanges are worth extracting from, how many facts they may yield, and extraction
itself (structured output from the model; the heuristic extractor offline or when the model's
output is unusable)."""

from __future__ import annotations

import logging
from datetime import date
from typing import Any

from graph.models import EntityType, FactType
from wave_agent.llm.client import LLMBadOutput, LLMClient
from wave_agent.llm.offline import ExtractedEntity, ExtractedFact, extract_heuristic, has_statement
from wave_agent.llm.prompts import extract

log = logging.getLogger("wave.postprocess.extract")

BASE_FACTS = 4  # "Я Марина, живу в Самаре, у меня кот Барсик." holds three
MAX_FACTS = 8
CHARS_PER_FACT = 250


def fact_budget(user_text: str, reply: str) -> int:
    """0 for an exchange that states nothing (a question, a greeting, thanks: "спасибо", "ok");
    else 2 + one per 250 characters, capped at 8. A short statement counts ("Я Марина").

    The person's words count in full, the reply a quarter (facts are the person's, but a
    reply can carry what they confirmed)."""
    if not has_statement(user_text):
        return 0
    size = len(user_text) + len(reply) // 4
    return max(1, min(MAX_FACTS, BASE_FACTS + size // CHARS_PER_FACT))


async def extract_facts(
    llm: LLMClient, user_text: str, reply: str, *, today: date, max_facts: int
) -> list[ExtractedFact]:
    """Facts of one exchange; ``LLMUnavailable`` propagates (the outbox retries later)."""
    if max_facts <= 0:
        return []
    inp = extract.ExtractInput(user_text, reply, max_facts=max_facts, today=today)
    try:
        return await extract.run(llm, inp)
    except LLMBadOutput as exc:
        log.warning("extraction output unusable (%s); using the heuristic extractor", exc.detail)
        return extract_heuristic(user_text, max_facts=max_facts)


def to_json(facts: list[ExtractedFact]) -> list[dict[str, Any]]:
    return [
        {"text": f.text, "type": f.type.value,
         "entities": [{"name": e.name, "type": e.type.value} for e in f.entities],
         **({"attributes": list(f.attributes)} if f.attributes else {})}
        for f in facts
    ]


def from_json(raw: Any) -> list[ExtractedFact]:
    facts: list[ExtractedFact] = []
    for item in raw or ():
        entities = tuple(
            ExtractedEntity(e["name"], EntityType(e["type"])) for e in item.get("entities", ())
        )
        facts.append(ExtractedFact(item["text"], FactType(item["type"]), entities,
                                   tuple(item.get("attributes", ()))))
    return facts

