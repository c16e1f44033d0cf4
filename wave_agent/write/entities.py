"""Which people and things a new record is about: the entities the writer links it to.

Given entities (from extraction) are resolved or created; the person's known entities named in
the text are found; relatives named with their role ("Сыну Игорю девять лет") become person
entities carrying the role as an alias (``graph.kin``). Only reads and entity writes: no fact
is written here (the writer links the record it creates).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from graph import kin
from graph.models import EntityType, Fact, Status

if TYPE_CHECKING:
    from graph.store import GraphStore


class EntityLinks:
    """Resolves the entities a record names, for the one graph the writer writes to."""

    def __init__(self, graph: GraphStore) -> None:
        self.graph = graph

    async def relatives(self, fact: Fact) -> list[str]:
        """The person's relatives the record names with their role: each a person entity
        carrying the role as an alias, so recall reads "что я обещал сыну?" as a question
        about Igor too. A held record teaches nothing: an injected "my son is X" must not
        rewire who the son is."""
        if fact.status is not Status.ACTIVE:
            return []
        ids: list[str] = []
        for relative in kin.relatives(fact.text):
            entity = await self.graph.resolve_entity(fact.user_id, relative.name, EntityType.PERSON)
            if relative.alias not in entity.aliases:
                entity = await self.graph.add_aliases(fact.user_id, entity.id, [relative.alias])
            if entity.id not in ids:
                ids.append(entity.id)
        return ids

    async def named(
        self, user_id: str, text: str, entities: Sequence[tuple[str, EntityType]]
    ) -> list[str]:
        """Given entities (resolved or created) and the person's known ones named in the text."""
        ids: list[str] = []
        for name, kind in entities:
            entity = await self.graph.resolve_entity(user_id, name, kind)
            if entity is not None and entity.id not in ids:
                ids.append(entity.id)
        for entity in await self.graph.entities_in_text(user_id, text):
            if entity.id not in ids:
                ids.append(entity.id)
        return ids


__all__ = ["EntityLinks"]
