"""Which people and things a new record is about, and how they connect: the entities the
writer links it to and the typed relations it states.

Every write path reads the record the same way (``wave_agent.world.read``: natasha for
Russian, patterns for English and Polish) and resolves what it names against the person's
graph (``Resolver``): one entity per real thing across inflection (stem keys), diminutives
("Игорёк" is the Игорь already known) and roles ("муж" is Олег once a record said so). Given
entities (an LLM's extraction) go through the same resolution. Relations carry the record
they came from (provenance), so erasure trims them and an exclusive one (lives in, works at)
is ended, not overwritten, by a newer record. Only reads and entity writes: no fact is
written here (the writer links the record it creates).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING

from graph import kin
from graph.entities import entity_keys, name_key, normalise, stem_key, text_grams
from graph.models import (
    EXCLUSIVE_RELATIONS,
    Entity,
    EntityType,
    Fact,
    Relation,
    RelationType,
    Status,
)
from wave_agent.world import USER, Link, Mention, Reading, illness, read_many
from wave_agent.world.names import full_form
from wave_agent.world.reading import ROLE_PREFIX, kin_link

if TYPE_CHECKING:
    from graph.store import GraphStore, GraphTransaction

SELF_NAME = "я"  # the person's own entity: the source of "lives in", "owns", kin ...
_NOT_SPOTTED = frozenset({EntityType.OCCUPATION})

LINK_RELATIONS: dict[str, RelationType] = {
    "lives_in": RelationType.LIVES_IN, "works_at": RelationType.WORKS_AT,
    "works_as": RelationType.WORKS_AS, "studies_at": RelationType.STUDIES_AT,
    "member_of": RelationType.MEMBER_OF, "friend_of": RelationType.FRIEND_OF,
    "owns": RelationType.OWNS, "pet_of": RelationType.PET_OF, "part_of": RelationType.PART_OF,
    "has_condition": RelationType.HAS_CONDITION, "does": RelationType.DOES,
}
# Russian diminutive endings: "Игорёк" / "Игорька" is the Игорь the person already has.
_DIMINUTIVE = ("ек", "ок", "ик", "ка", "ша", "ня", "енька", "ечка", "очка", "уля", "юша", "уша",
               "юля", "ик", "чик", "ня")


def relation_of(link_type: str) -> tuple[RelationType, str | None] | None:
    """The graph relation (and kin role) of a link type ("kin:husband" -> KIN, "husband")."""
    if link_type.startswith("kin:"):
        return RelationType.KIN, link_type[4:]
    kind = LINK_RELATIONS.get(link_type)
    return (kind, None) if kind is not None else None


def link_type_of(relation: Relation) -> str:
    """The inverse of ``relation_of``: how the entity set and the page name a relation."""
    if relation.type is RelationType.KIN:
        return f"kin:{relation.role}"
    inverse = {v: k for k, v in LINK_RELATIONS.items()}
    return inverse.get(relation.type, relation.type.value.lower())


def diminutive_of(name: str, known: str) -> bool:
    """Whether ``name`` is a diminutive of ``known`` ("Игорёк" of "Игорь", "Сашенька" of
    "Саша"): a one-word name that starts with the other's root and ends like a diminutive."""
    new, old = normalise(name), normalise(known)
    if " " in new or new == old or len(old) < 3:
        return False
    root = old[:-1] if old[-1] in "аяьйоеиы" else old
    if len(root) < 3 or not new.startswith(root):
        return False
    return any(new.endswith(end) for end in _DIMINUTIVE) and len(new) > len(root)


@dataclass(frozen=True, slots=True)
class Resolved:
    """A record's entities (ids to link it ``ABOUT``) and the relations it states."""

    entity_ids: tuple[str, ...] = ()
    relations: tuple[Relation, ...] = ()
    named_roles: tuple[str, ...] = ()  # the reading's (``Reading.named_roles``)


class Resolver:
    """Finds or creates the person's entities for one record or one import (a cache per
    import: each distinct name is looked up once)."""

    def __init__(self, graph: GraphStore | GraphTransaction, user_id: str) -> None:
        self.graph = graph
        self.user_id = user_id
        self._cache: dict[tuple[str, str], Entity] = {}
        self._people: list[Entity] | None = None
        self._self: Entity | None = None
        self._index: dict[str, Entity] | None = None  # stem key -> entity (imports)
        # an import's lookup keys (EntityKey.key -> entity ids) and each entity with its
        # exact keys, name's first: ``resolve_entity``'s match, answered from memory
        self._keys: dict[str, set[str]] | None = None
        self._known: dict[str, tuple[Entity, str, list[str]]] = {}

    async def me(self) -> Entity:
        if self._self is None:
            self._self = await self.graph.resolve_entity(self.user_id, SELF_NAME,
                                                         EntityType.PERSON)
            self._learnt(self._self)
        return self._self

    async def _known_people(self) -> list[Entity]:
        if self._people is None:
            self._people = [e for e in await self.graph.list_entities(self.user_id)
                            if e.type is EntityType.PERSON and e.name != SELF_NAME]
        return self._people

    async def index(self) -> None:
        """Spot the person's known entities in each record of an import from memory (one read
        of the entities for the whole import, not one query a record): "Жужу выгуливает
        соседка" is about the Жужа an earlier record named."""
        self._index = {}
        for entity in await self.graph.list_entities(self.user_id):
            self._indexed(entity)
        self._keys = {}
        for key, entity, first, exact in await self.graph.entity_key_index(self.user_id):
            self._keys.setdefault(key, set()).add(entity.id)
            self._known[entity.id] = (entity, first, exact)

    def _learnt(self, entity: Entity) -> None:
        """An entity this import created or taught: its keys join the import's (they are
        what ``resolve_entity`` wrote as its ``EntityKey`` nodes)."""
        if self._keys is None:
            return
        exact, stems = entity_keys(entity.name, entity.aliases)
        known = self._known.get(entity.id)
        first = known[1] if known is not None else (exact[0] if exact else "")
        for key in (*stems, *("=" + k for k in exact)):
            self._keys.setdefault(key, set()).add(entity.id)
        self._known[entity.id] = (entity, first, exact)

    async def _find(self, name: str, type: EntityType) -> Entity | None:
        """The person's entity called ``name`` if one exists (``resolve_entity`` without
        creating), from the import's keys when they were read."""
        key, skey = name_key(name), stem_key(name)
        if self._keys is None or not key:
            return await self.graph.resolve_entity(self.user_id, name, type, create=False)
        ids = self._keys.get("=" + key, set()) | (self._keys.get(skey, set()) if skey else set())
        if not ids:
            return None

        def order(entity_id: str) -> tuple[int, int, datetime, str]:
            entity, first, exact = self._known[entity_id]
            how = 0 if first == key else 1 if key in exact else 2
            return (0 if entity.type is type else 1, how, entity.created_at, entity.id)

        return self._known[min(ids, key=order)][0]

    def _indexed(self, entity: Entity) -> None:
        if self._index is None or entity.name == SELF_NAME or entity.type in _NOT_SPOTTED:
            return
        for key in entity_keys(entity.name, entity.aliases)[1]:
            self._index.setdefault(key, entity)

    def known_in(self, text: str, named_roles: Sequence[str] = ()) -> list[Entity]:
        """The indexed entities whose name or alias (stemmed) the text contains; a role word
        the reading says names someone else ("с мужем Сергеем", "её сестрой") spots nobody."""
        if not self._index:
            return []
        skip = {stem_key(w) for w in named_roles}
        found = [self._index[g] for g in text_grams(text) if g in self._index and g not in skip]
        return list({e.id: e for e in found}.values())

    async def entity(self, mention: Mention) -> Entity:
        """The person's entity for ``mention`` (created when new; aliases learnt)."""
        key = (name_key(mention.name), mention.type.value)
        cached = self._cache.get(key)
        if cached is not None:
            return await self._teach(cached, mention.aliases)
        found = await self._find(mention.name, mention.type)
        full = full_form(mention.name, mention.type)  # "Катя" once "Екатерина" was said
        if found is None and full is not None:
            found = await self._find(full, mention.type)
            found = found if found is not None and found.type is mention.type else None
            if found is not None:  # "Челны" is then an alias of Набережные Челны
                found = await self._teach(found, (mention.name,))
        if found is None and mention.type is EntityType.PERSON:
            people = await self._known_people()
            found = next((p for p in people if diminutive_of(mention.name, p.name)), None)
            if found is None and " " not in mention.name.strip():
                # "Дима" once "Дима Соколов" was said: the one known person of that first name
                first = [p for p in people if " " in p.name
                         and normalise(p.name.split()[0]) in {normalise(mention.name),
                                                               normalise(full or "")}]
                found = first[0] if len(first) == 1 else None
            if found is None:
                found = await self._named_now(mention)
            if found is not None:
                found = await self._teach(found, (mention.name,))
        if found is None:
            found = await self.graph.resolve_entity(self.user_id, mention.name, mention.type,
                                                    aliases=mention.aliases)
            self._learnt(found)
            if found.type is EntityType.PERSON and self._people is not None:
                self._people.append(found)
        found = await self._teach(found, mention.aliases)
        self._cache[key] = found
        self._indexed(found)
        return found

    async def _teach(self, entity: Entity, aliases: Sequence[str]) -> Entity:
        known = {normalise(a) for a in (entity.name, *entity.aliases)}
        new = [a for a in aliases if normalise(a) not in known and name_key(a)]
        if not new:
            return entity
        taught = await self.graph.add_aliases(self.user_id, entity.id, new)
        self._cache[(name_key(taught.name), taught.type.value)] = taught
        self._learnt(taught)
        return taught

    async def by_role(self, role: str) -> Entity | None:
        """The relative the person named with this role before ("муж" -> Олег)."""
        words = {w.lower() for w in kin.role_words(role)}
        for entity in await self.graph.entities_in_text(self.user_id, " ".join(sorted(words))):
            if entity.type is EntityType.PERSON and words & {a.lower() for a in entity.aliases}:
                return entity
        return None

    async def _named_now(self, mention: Mention) -> Entity | None:
        """"Мужа зовут Олег" after "Муж работает в «Волга-Транс»": the relative known only by
        the role is the one now named (the name becomes its alias), not a second husband."""
        if mention.name.lower() in {a.lower() for a in mention.aliases}:
            return None
        for alias in mention.aliases:
            role = kin.role_of(alias)
            known = await self.by_role(role) if role is not None else None
            if known is not None and kin.role_of(known.name) == role:
                return known
        return None

    async def unnamed(self, role: str, text: str) -> Entity:
        """A relative the person has named only by the role ("Мама живёт в Туле", no name said
        yet): one entity called by the role word as the record writes it, in the nominative
        ("мама", "батя", "свёкор"), the role's words its aliases, so that the next record's
        role finds it (``by_role``) instead of dropping what it says."""
        said = next((w for w in re.findall(r"[^\W\d_]+", text.lower())
                     if kin.role_of(w) == role), kin.role_words(role)[0])
        cyrillic = bool(re.search(r"[а-яё]", said))
        if cyrillic:
            from wave_agent.world.morphology import lemma

            said = lemma(said, "NOUN")
        # the role's other words of that script ("батя": папа, отец) name the same person
        others = [w for w in kin.role_words(role) if bool(re.search(r"[а-яё]", w)) == cyrillic]
        return await self.entity(Mention(said, EntityType.PERSON, tuple(dict.fromkeys(
            (said, *others)))))

    async def resolve(self, fact: Fact, reading: Reading,
                      given: Sequence[tuple[str, EntityType]] = ()) -> Resolved:
        """The entities and relations of one record, resolved (entities created as needed)."""
        ids: list[str] = []
        by_name: dict[str, Entity] = {}
        # a mention with no word in it ("😄" read as a name) names nothing: it is left out,
        # and a relation to it with it, rather than refusing the whole record
        mentions = [m for m in reading.mentions if name_key(m.name)]
        mentions += [Mention(n, t) for n, t in given if reading.mention(n) is None and name_key(n)]
        for mention in mentions:
            entity = await self.entity(mention)
            by_name[mention.name] = entity
            if entity.id not in ids:
                ids.append(entity.id)
        relations: list[Relation] = []
        me = await self.me() if reading.links else None
        links = list(reading.links)
        for link in reading.links:
            for end in (link.source, link.target):
                if not end.startswith(ROLE_PREFIX) or end in by_name:
                    continue
                role = end[len(ROLE_PREFIX):].replace("_", "-")
                try:
                    kin.role_words(role)
                except KeyError:
                    continue  # not a role the kin table knows
                found = await self.by_role(role)
                if found is None:
                    # the relative named only by the role: an entity of its own, the person's
                    found = await self.unnamed(role, fact.text)
                    links.append(Link(USER, kin_link(role), end))
                if found is not None:
                    by_name[end] = found
        for link in dict.fromkeys(links):
            if link.type == "has_condition" and (reading.language or "ru") == "ru" and (
                    illness.said_over(reading, link.target)):
                # "цистит прошёл": the record ends the illness (the attribute reader's
                # "remove" reads the link); it states no one holds it (round forty)
                continue
            relation = await self._relation(fact, link, by_name)
            if relation is not None and relation not in relations:
                relations.append(relation)
                # "У мамы диабет": the record is about the mother the role names
                ids += [end for end in (relation.source_id, relation.target_id)
                        if end not in ids and (me is None or end != me.id)]
        # a known entity spotted by name, unless the words that name it are part of a longer
        # name the record was read to say ("с Сашей Мельниковой" is not the son Саша)
        longer = [set(stem_key(m.name).split()) for m in mentions if " " in m.name.strip()]
        ids += [e.id for e in self.known_in(fact.text, reading.named_roles) if e.id not in ids
                and not any(set(stem_key(e.name).split()) < words for words in longer)]
        return Resolved(tuple(ids), tuple(relations), reading.named_roles)

    async def _end(self, name: str, by_name: dict[str, Entity]) -> Entity | None:
        if name == USER:
            return await self.me()
        if name.startswith(ROLE_PREFIX) and name not in by_name:
            return await self.by_role(name[len(ROLE_PREFIX):])
        return by_name.get(name)

    async def _relation(self, fact: Fact, link: Link,
                        by_name: dict[str, Entity]) -> Relation | None:
        kind = relation_of(link.type)
        source, target = await self._end(link.source, by_name), await self._end(
            link.target, by_name)
        if kind is None or source is None or target is None or source.id == target.id:
            return None
        return Relation(user_id=self.user_id, source_id=source.id, target_id=target.id,
                        type=kind[0], provenance=(fact.id,), role=kind[1],
                        created_at=fact.created_at)


class EntityLinks:
    """Resolves the entities a record names, for the one graph the writer writes to."""

    def __init__(self, graph: GraphStore) -> None:
        self.graph = graph

    async def read(self, facts: Sequence[Fact],
                   given: Sequence[Sequence[tuple[str, EntityType]]] | None = None,
                   ) -> dict[str, Resolved]:
        """Read and resolve records (one import, or one new record): fact id -> what it is
        about and states. A held record teaches nothing (an injected "my son is X" must not
        rewire who the son is): only its given entities are linked."""
        readings = await read_many([f.text if f.status is Status.ACTIVE else "" for f in facts])
        resolver = Resolver(self.graph, facts[0].user_id) if facts else None
        if resolver is not None and len(facts) > 1:
            await resolver.index()  # one record alone: the writer's ``named`` spots them
        found: dict[str, Resolved] = {}
        for i, (fact, reading) in enumerate(zip(facts, readings, strict=True)):
            assert resolver is not None
            found[fact.id] = await resolver.resolve(fact, reading, given[i] if given else ())
        return found

    async def relate(self, relations: Sequence[Relation], key: str | None = None) -> None:
        """Store a record's (or an import's) relations: exclusive ones one by one, in order
        (each ends the one before), the rest in one statement per type."""
        plain = [r for r in relations if r.type not in EXCLUSIVE_RELATIONS]
        if plain:
            await self.graph.relate_many(plain)
        for rel in relations:
            if rel.type in EXCLUSIVE_RELATIONS:
                await self.graph.relate(rel.user_id, rel.source_id, rel.target_id, rel.type,
                                        rel.provenance, key=key or rel.provenance[0],
                                        role=rel.role)

    async def named(
        self, user_id: str, text: str, entities: Sequence[tuple[str, EntityType]],
        named_roles: Sequence[str] = (),
    ) -> list[str]:
        """Given entities (resolved or created) and the person's known ones named in the text
        (a role word that names someone else, ``named_roles``, spots nobody)."""
        ids: list[str] = []
        for name, kind in entities:
            entity = await self.graph.resolve_entity(user_id, name, kind)
            if entity is not None and entity.id not in ids:
                ids.append(entity.id)
        for word in named_roles:
            text = re.sub(rf"(?<!\w){re.escape(word)}(?!\w)", " ", text)
        for entity in await self.graph.entities_in_text(user_id, text):
            if entity.id not in ids and entity.name != SELF_NAME:
                ids.append(entity.id)
        return ids


__all__ = ["SELF_NAME", "EntityLinks", "Resolved", "Resolver", "diminutive_of", "link_type_of",
           "relation_of"]
