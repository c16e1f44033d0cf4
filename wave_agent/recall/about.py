"""Entity questions ("расскажи про Соню", "что я знаю про Олега", "кто такая Галина
Сергеевна?", "где работает муж?", "tell me about Anna", "gdzie pracuje mąż?") answered from the
entity's neighbourhood: the records about the entity the question names (by name, alias, or a
role the person gave it) come first, in the order recall's voices ranked them; the rest of the
ranking follows. A question that names no known entity, or asks more than about one, is left
to recall as it is.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from graph import kin
from graph.entities import content_stems, stem_key, text_grams
from graph.models import Entity, EntityType, ScoredFact, Status
from wave_agent.write.entities import SELF_NAME

if TYPE_CHECKING:
    from graph.store import GraphStore

# "tell me about X", "кто такая X": the question is the entity itself, whatever its length
_ASKS_ABOUT = re.compile(
    r"(?i)(?:расскаж\w*|напомни\w*)\s+(?:мне\s+)?(?:про|о|об|обо)\b"
    r"|что\s+(?:я\s+|ты\s+|мы\s+)?(?:знаю|знаешь|помню|помнишь|известно)\s+(?:про|о|об|обо)\b"
    r"|кто\s+так(?:ой|ая|ие|ое)\b"
    r"|\btell\s+me\s+(?:more\s+)?about\b|\bwhat\s+do\s+(?:i|you|we)\s+know\s+about\b"
    r"|\bwho\s+is\b|\bwho's\b"
    r"|\bopowiedz\s+(?:mi\s+)?o\b|\bco\s+wiem\s+o\b|\bkim\s+jest\b|\bkto\s+to\b")
NEIGHBOURS = 20  # records read around the entity
MAX_CONTENT_WORDS = 4  # "где работает муж?": a short question about one entity's attribute
_NEVER_SEEDS = frozenset({EntityType.OCCUPATION})
_NAMED_KINDS = frozenset({EntityType.PERSON, EntityType.PET, EntityType.PLACE,
                          EntityType.ORGANISATION, EntityType.PROJECT})


def asks_about(query: str) -> bool:
    """Whether the question asks about an entity as a whole ("расскажи про Соню")."""
    return bool(_ASKS_ABOUT.search(query))


async def entities_asked(graph: GraphStore, user_id: str, query: str,
                         relatives: Sequence[Entity] = ()) -> list[Entity]:
    """The known entities an entity question is about (none when it is not one)."""
    # "как зовут жену Олега?" asks about Oleg's wife, not the person's own ("жена" alias)
    return asked_of(await graph.entities_in_text(user_id, kin.without_named_roles(query)),
                    query, relatives)


def asked_of(mentioned: Sequence[Entity], query: str,
             relatives: Sequence[Entity] = ()) -> list[Entity]:
    """``entities_asked`` over the entities the query names, already read
    (``recall.voices.named``: recall reads them once for the graph voice and this step)."""
    named = [e for e in mentioned if e.type not in _NEVER_SEEDS and e.name != SELF_NAME]
    if asks_about(query):
        return list(dict.fromkeys([*relatives, *named]))
    if len(content_stems(query)) <= MAX_CONTENT_WORDS:
        # "где работает муж?", "как зовут кота?": a short question about someone or something
        # the question does not call by name (a role or alias the entity carries: "муж" once
        # "Муж Олег" was said). A question that says the name, or a role recall's own relative
        # expansion already handles, is left to recall (memory-pl R@1 70.0 -> 63.3 when those
        # were reordered too); one that only names a common noun ("на что у меня аллергия?")
        # is about the person, not about everyone's allergy.
        grams = text_grams(query)
        by_alias = [e for e in named if e.type in _NAMED_KINDS and stem_key(e.name) not in grams]
        return list(dict.fromkeys(by_alias))
    return []


async def neighbourhood_first(graph: GraphStore, user_id: str, seeds: Sequence[Entity],
                              statuses: Sequence[Status], limit: int) -> list[ScoredFact]:
    """Records about the seeds (score 1) and about what they are directly related to (less),
    best first."""
    return await graph.neighbourhood(user_id, [e.id for e in seeds], hops=1, limit=limit,
                                     statuses=statuses)


def entity_first(scores: Mapping[str, float], about: Sequence[ScoredFact],
                 rest: Sequence[str]) -> list[str]:
    """The records directly about the entity (score >= 1) first, in recall's order (by its
    final ``scores``; records recall did not score follow, most recent first), then ``rest``
    (recall's own choice)."""
    direct = [s.fact.id for s in about if s.score >= 1.0]
    direct.sort(key=lambda fid: -scores.get(fid, float("-inf")))
    return list(dict.fromkeys([*direct, *rest]))


__all__ = ["asks_about", "entities_asked", "entity_first", "neighbourhood_first"]
