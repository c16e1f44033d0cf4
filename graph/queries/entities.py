"""Entities: resolution (exact, alias, stem), spotting in text, ABOUT links, relations, and the
ranked neighbourhood of a set of entities.

Relation types are the only names ever interpolated into Cypher, and only after they were
validated as ``RelationType`` members.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Literal, overload

from graph.entities import clean_name, name_key, stem_key, text_grams
from graph.errors import EntityNotFound, FactNotFound, InvalidInput
from graph.models import (
    EXCLUSIVE_RELATIONS,
    Entity,
    EntityType,
    Fact,
    Relation,
    RelationType,
    ScoredFact,
    Status,
    new_id,
    utcnow,
)
from graph.queries.base import Executor
from graph.queries.facts import ACTIVE_ONLY, enum_values
from graph.records import (
    entity_from,
    entity_out,
    entity_props,
    fact_from,
    fact_out,
    relation_from,
    to_neo4j_datetime,
)

# Every entity-to-entity relation type, for traversals (fixed set, from the enum).
_ALL_RELATIONS = "|".join(t.value for t in RelationType)
MAX_HOPS = 3
# Neighbour entities kept per traversal before their facts are ranked (bounds fan-out):
# the ``limit`` strongest (a linked entity usually has a fact), at least 20, at most 100.
NEIGHBOUR_CAP = 100
NEIGHBOUR_MIN = 20
_PROVENANCE_KEPT = 50


# Brings entity ``e``'s EntityKey nodes in line with its stems and exact keys (idempotent).
_SYNC_KEYS = """
CALL (e) {
  UNWIND e.stems + [x IN e.keys | '=' + x] AS key
  MERGE (k:EntityKey {user_id: e.user_id, key: key})
  MERGE (k)-[:NAMES]->(e)
}
"""


def relation_type(value: RelationType | str) -> RelationType:
    try:
        return RelationType(value)
    except ValueError as exc:
        allowed = ", ".join(t.value for t in RelationType)
        raise InvalidInput(f"unknown relation type {value!r}",
                           next_step=f"use one of: {allowed}") from exc


class EntityQueries(Executor):
    @overload
    async def resolve_entity(
        self, user_id: str, name: str, type: EntityType | str | None = None, *,
        create: Literal[True] = True, aliases: Sequence[str] = (),
    ) -> Entity: ...

    @overload
    async def resolve_entity(
        self, user_id: str, name: str, type: EntityType | str | None = None, *,
        create: bool, aliases: Sequence[str] = (),
    ) -> Entity | None: ...

    async def resolve_entity(
        self,
        user_id: str,
        name: str,
        type: EntityType | str | None = None,
        *,
        create: bool = True,
        aliases: Sequence[str] = (),
    ) -> Entity | None:
        """The user's entity called ``name`` (exact name, then alias, then stem match).

        "Игорь", "Игорем" and "с Игорем" resolve to one entity. An entity of ``type`` is
        preferred, but a match of another type is still returned (extractors mistype). When
        nothing matches: a new entity (type ``topic`` when none given), or None if not
        ``create``.
        """
        wanted_type = EntityType(type).value if type is not None else None
        key, skey = name_key(name), stem_key(name)
        if not key:
            raise InvalidInput(f"entity name {name!r} has no letters or digits",
                               next_step="give the entity a name with at least one word")
        records = await self._read(
            """
            MATCH (k:EntityKey)-[:NAMES]->(e:Entity)
            WHERE k.user_id = $user_id AND k.key IN $lookup AND e.user_id = $user_id
            WITH DISTINCT e
            RETURN """ + entity_out("e") + """ AS entity,
                   CASE WHEN e.name_key = $key THEN 0 WHEN $key IN e.keys THEN 1 ELSE 2 END AS how,
                   CASE WHEN e.type = $type THEN 0 ELSE 1 END AS other_type
            ORDER BY other_type, how, e.created_at, e.id LIMIT 1
            """,
            user_id=user_id, key=key, type=wanted_type,
            lookup=["=" + key] + ([skey] if skey else []),
        )
        if records:
            return entity_from(records[0]["entity"])
        if not create:
            return None
        entity = Entity(
            id=new_id("e"), user_id=user_id, name=clean_name(name),
            type=EntityType(wanted_type or EntityType.TOPIC), aliases=tuple(aliases),
            created_at=utcnow(),
        )
        props = entity_props(entity)
        # MERGE on the unique (user, stem key, type): a concurrent resolve gets the same node.
        records = await self._write(
            """
            MERGE (e:Entity {user_id: $user_id, stem_key: $props.stem_key, type: $props.type})
            ON CREATE SET e = $props
            WITH e
            """ + _SYNC_KEYS + """
            RETURN """ + entity_out("e") + """ AS entity
            """,
            user_id=user_id, props=props,
        )
        return entity_from(records[0]["entity"])

    async def get_entity(self, user_id: str, id: str) -> Entity | None:
        records = await self._read(
            "MATCH (e:Entity {id: $id}) WHERE e.user_id = $user_id "
            "RETURN " + entity_out("e") + " AS entity",
            id=id, user_id=user_id,
        )
        return entity_from(records[0]["entity"]) if records else None

    async def list_entities(self, user_id: str, *, limit: int | None = None) -> list[Entity]:
        records = await self._read(
            "MATCH (e:Entity) WHERE e.user_id = $user_id "
            "RETURN " + entity_out("e") + " AS entity ORDER BY e.name, e.id"
            + (" LIMIT $limit" if limit is not None else ""),
            user_id=user_id, limit=limit,
        )
        return [entity_from(r["entity"]) for r in records]

    async def entity_key_index(self, user_id: str) -> list[tuple[str, Entity, str, list[str]]]:
        """Every lookup key of the person's entities, with the entity it names and that
        entity's exact keys (its name's first), as ``resolve_entity`` matches and orders them:
        one read, so an import resolves its names from memory instead of one query a name."""
        records = await self._read(
            "MATCH (k:EntityKey)-[:NAMES]->(e:Entity) "
            "WHERE k.user_id = $user_id AND e.user_id = $user_id "
            "RETURN k.key AS key, " + entity_out("e") + " AS entity",
            user_id=user_id,
        )
        return [(r["key"], entity_from(r["entity"]), r["entity"].get("name_key") or "",
                 list(r["entity"].get("keys") or ())) for r in records]

    async def add_aliases(self, user_id: str, id: str, aliases: Iterable[str]) -> Entity:
        """Teach an entity more names; its exact and stem keys are recomputed."""
        current = await self.get_entity(user_id, id)
        if current is None:
            raise EntityNotFound(user_id, id)
        merged = tuple(dict.fromkeys((*current.aliases, *[a for a in aliases if name_key(a)])))
        props = entity_props(Entity(current.id, user_id, current.name, current.type,
                                    merged, current.created_at))
        records = await self._write(
            """
            MATCH (e:Entity {id: $id}) WHERE e.user_id = $user_id
            SET e.aliases = $props.aliases, e.keys = $props.keys, e.stems = $props.stems
            WITH e
            """ + _SYNC_KEYS + """
            RETURN """ + entity_out("e") + """ AS entity
            """,
            id=id, user_id=user_id, props=props,
        )
        return entity_from(records[0]["entity"])

    async def entities_in_text(self, user_id: str, text: str) -> list[Entity]:
        """The user's known entities whose name or alias (stemmed) occurs in ``text``,
        in order of first appearance."""
        grams = text_grams(text)
        if not grams:
            return []
        records = await self._read(
            """
            UNWIND $grams AS gram
            MATCH (k:EntityKey {user_id: $user_id, key: gram})-[:NAMES]->(e:Entity)
            WHERE e.user_id = $user_id
            RETURN """ + entity_out("e") + """ AS entity, collect(gram) AS hits
            """,
            user_id=user_id, grams=list(grams),
        )
        found = [(min(grams[s] for s in r["hits"]), entity_from(r["entity"])) for r in records]
        found.sort(key=lambda item: (item[0], item[1].name))
        return [entity for _, entity in found]

    async def link_about(self, user_id: str, fact_id: str, entity_ids: Iterable[str]) -> int:
        """Link a fact ``ABOUT`` entities of the same user; all or nothing. Returns how many."""
        ids = list(dict.fromkeys(entity_ids))
        records = await self._write(
            """
            OPTIONAL MATCH (f:Fact {id: $fact_id}) WHERE f.user_id = $user_id
            CALL (f) {
              UNWIND $ids AS eid
              MATCH (e:Entity {id: eid}) WHERE e.user_id = $user_id
              RETURN collect(e) AS es
            }
            FOREACH (e IN CASE WHEN f IS NOT NULL AND size(es) = size($ids) THEN es ELSE [] END |
              MERGE (f)-[:ABOUT]->(e))
            RETURN f IS NOT NULL AS fact_found, [e IN es | e.id] AS found
            """,
            fact_id=fact_id, user_id=user_id, ids=ids,
        )
        if not records[0]["fact_found"]:
            raise FactNotFound(user_id, fact_id)
        missing = [i for i in ids if i not in set(records[0]["found"])]
        if missing:
            raise EntityNotFound(user_id, missing[0])
        return len(ids)

    async def about(self, user_id: str, fact_id: str) -> list[Entity]:
        """The entities a fact is about."""
        records = await self._read(
            """
            MATCH (f:Fact {id: $fact_id})-[:ABOUT]->(e:Entity)
            WHERE f.user_id = $user_id AND e.user_id = $user_id
            RETURN """ + entity_out("e") + """ AS entity ORDER BY e.name
            """,
            fact_id=fact_id, user_id=user_id,
        )
        return [entity_from(r["entity"]) for r in records]

    async def relate(
        self,
        user_id: str,
        source_id: str,
        target_id: str,
        type: RelationType | str,
        provenance: Iterable[str] | str = (),
        *,
        key: str | None = None,
        role: str | None = None,
    ) -> Relation:
        """Relate two entities of the user (merged: repeating it adds weight and provenance).

        ``key`` makes a repeat idempotent: a relation that already counted this key (one of
        its last 200) gains no weight (the post-processor's retry after a kill). ``role``: a
        KIN relation's role (part of what is merged: a brother and a husband are two edges).
        An exclusive type (``EXCLUSIVE_RELATIONS``: lives in, works at) ends the source's other
        current edges of that type (``ended_at``, ``ended_by`` = the first provenance record;
        they stay, as history); restating an ended one makes it current again."""
        rel = relation_type(type)
        if (role is not None) != (rel is RelationType.KIN):
            raise InvalidInput(f"a {rel.value} relation {'needs' if role is None else 'has no'} "
                               "role", next_step="give a role exactly for KIN relations")
        pattern = "{role: $role}" if role is not None else ""
        ending = """
              WITH a, b, r
              CALL (a, b, r) {
                OPTIONAL MATCH (a)-[old:""" + rel.value + """]->(other:Entity)
                WHERE other <> b AND old.ended_at IS NULL AND old.user_id = $user_id
                SET old.ended_at = $now, old.ended_by = $ended_by
                RETURN count(old) AS ended
              }
        """ if rel in EXCLUSIVE_RELATIONS else ""
        if source_id == target_id:
            raise InvalidInput(f"entity {source_id} cannot be related to itself",
                               next_step="relate two different entities")
        sources = [provenance] if isinstance(provenance, str) else list(provenance)
        records = await self._write(
            f"""
            OPTIONAL MATCH (a:Entity {{id: $source_id}}) WHERE a.user_id = $user_id
            OPTIONAL MATCH (b:Entity {{id: $target_id}}) WHERE b.user_id = $user_id
            CALL (a, b) {{
              WITH a, b WHERE a IS NOT NULL AND b IS NOT NULL
              MERGE (a)-[r:{rel.value} {pattern}]->(b)
              ON CREATE SET r.user_id = $user_id, r.created_at = $now, r.provenance = [],
                            r.weight = 0
              WITH a, b, r, ($key IS NOT NULL AND $key IN coalesce(r.keys, [])) AS counted
              SET r.weight = r.weight + CASE WHEN counted THEN 0 ELSE 1 END,
                  r.keys = CASE WHEN $key IS NULL OR counted THEN r.keys
                                ELSE (coalesce(r.keys, []) + [$key])[-200..] END,
                  r.provenance = (r.provenance
                                  + [p IN $provenance WHERE NOT p IN r.provenance])[-$kept..],
                  r.ended_at = null, r.ended_by = null
              {ending}
              RETURN r
            }}
            RETURN a IS NOT NULL AS a_found, b IS NOT NULL AS b_found, r
            """,
            source_id=source_id, target_id=target_id, user_id=user_id, now=utcnow(),
            provenance=[str(p) for p in sources], kept=_PROVENANCE_KEPT, key=key, role=role,
            ended_by=str(sources[0]) if sources else None,
        )
        if not records:
            raise EntityNotFound(user_id, source_id)
        row = records[0]
        if not row["a_found"]:
            raise EntityNotFound(user_id, source_id)
        if not row["b_found"]:
            raise EntityNotFound(user_id, target_id)
        return relation_from(user_id, source_id, target_id, rel.value, row["r"])

    async def create_entities(self, entities: Sequence[Entity]) -> list[Entity]:
        """Store many entities in one statement (imports): each is merged on its user, stem key
        and type like ``resolve_entity`` would, so an existing one is returned, not doubled."""
        rows = [entity_props(e) for e in entities]
        if not rows:
            return []
        records = await self._write(
            """
            UNWIND $rows AS props
            MERGE (e:Entity {user_id: props.user_id, stem_key: props.stem_key, type: props.type})
            ON CREATE SET e = props
            WITH e
            """ + _SYNC_KEYS + """
            RETURN """ + entity_out("e") + """ AS entity
            """,
            rows=rows,
        )
        return [entity_from(r["entity"]) for r in records]

    async def relate_many(self, relations: Iterable[Relation]) -> int:
        """``relate`` for many relations (imports): one statement per relation type.

        Relations whose entities are missing or belong to another user are skipped; returns
        how many were stored. Exclusive types end nothing here: an import that moves someone
        relates those one by one (``relate``), in the order they were told."""
        by_type: dict[RelationType, list[dict[str, object]]] = {}
        for rel in relations:
            if rel.source_id == rel.target_id:
                continue
            kind = relation_type(rel.type)
            if (rel.role is not None) != (kind is RelationType.KIN):
                raise InvalidInput(f"a {kind.value} relation with role {rel.role!r}",
                                   next_step="give a role exactly for KIN relations")
            by_type.setdefault(kind, []).append({
                "user_id": rel.user_id, "source_id": rel.source_id, "target_id": rel.target_id,
                "provenance": [str(p) for p in rel.provenance], "role": rel.role,
                "created_at": to_neo4j_datetime(rel.created_at, "created_at"),
            })
        stored = 0
        for rel_type, rows in by_type.items():
            pattern = "{role: row.role}" if rel_type is RelationType.KIN else ""
            records = await self._write(
                f"""
                UNWIND $rows AS row
                MATCH (a:Entity {{id: row.source_id}}) WHERE a.user_id = row.user_id
                MATCH (b:Entity {{id: row.target_id}}) WHERE b.user_id = row.user_id
                MERGE (a)-[r:{rel_type.value} {pattern}]->(b)
                ON CREATE SET r.user_id = row.user_id, r.created_at = row.created_at,
                              r.provenance = [], r.weight = 0
                SET r.weight = r.weight + 1,
                    r.provenance = (r.provenance
                                    + [p IN row.provenance WHERE NOT p IN r.provenance])[-$kept..]
                RETURN count(r) AS stored
                """,
                rows=rows, kept=_PROVENANCE_KEPT,
            )
            stored += int(records[0]["stored"])
        return stored

    async def facts_unread(self, user_id: str, *, limit: int = 500) -> list[Fact]:
        """Active records linked to no entity and not yet read for the person's world (written
        before entities were read from every record), oldest first: maintenance's backfill."""
        records = await self._read(
            """
            MATCH (f:Fact) WHERE f.user_id = $user_id AND f.status = 'active'
              AND f.world_read IS NULL AND NOT EXISTS { MATCH (f)-[:ABOUT]->(:Entity) }
            RETURN """ + fact_out("f") + """ AS fact ORDER BY f.created_at, f.id LIMIT $limit
            """,
            user_id=user_id, limit=int(limit),
        )
        return [fact_from(r["fact"]) for r in records]

    async def mark_world_read(self, user_id: str, fact_ids: Sequence[str]) -> int:
        """Remember that these records were read for the person's world (the backfill moves on)."""
        records = await self._write(
            """
            UNWIND $ids AS fid
            MATCH (f:Fact {id: fid}) WHERE f.user_id = $user_id
            SET f.world_read = true
            RETURN count(f) AS marked
            """,
            ids=list(fact_ids), user_id=user_id,
        )
        return int(records[0]["marked"]) if records else 0

    async def relations(self, user_id: str, entity_id: str) -> list[Relation]:
        """Relations from or to an entity (either direction), as stored."""
        records = await self._read(
            f"""
            MATCH (a:Entity)-[r:{_ALL_RELATIONS}]->(b:Entity)
            WHERE (a.id = $id OR b.id = $id) AND a.user_id = $user_id AND b.user_id = $user_id
            RETURN a.id AS source, b.id AS target, type(r) AS type, properties(r) AS props
            ORDER BY type, source, target
            """,
            id=entity_id, user_id=user_id,
        )
        return [relation_from(user_id, r["source"], r["target"], r["type"], r["props"])
                for r in records]

    async def neighbourhood(
        self,
        user_id: str,
        entity_ids: Iterable[str],
        *,
        hops: int = 2,
        limit: int = 50,
        statuses: Iterable[Status | str] | None = ACTIVE_ONLY,
    ) -> list[ScoredFact]:
        """Facts about the given entities and about entities up to ``hops`` relations away.

        Entity weight: a seed is 1.0; each relation hop multiplies by 0.5 x w/(w+1), where w
        is how often the relation was stated (a one-off link 0.25, a strong one nearly 0.5);
        an entity reached several ways keeps its best path. An entity named only by function
        words (the person's own entity, "я", with an empty stem key) is a hub every relation
        of theirs meets at: never walked through, or every record would be two hops away. A fact scores the sum of the
        weights of the entities it is about, so facts about seeds come first, facts linking
        two seeds before those about one. Ties: most recently confirmed first, then by text (never
        by random id: a replayed history ranks the same).
        """
        if not isinstance(hops, int) or not 0 <= hops <= MAX_HOPS:
            raise InvalidInput(f"hops must be an integer 0..{MAX_HOPS}, got {hops!r}")
        seeds = list(dict.fromkeys(entity_ids))
        if not seeds or limit <= 0:
            return []
        walk = ""
        if hops:
            walk = f"""
            CALL (seeds) {{
              UNWIND seeds AS s
              MATCH p = (s)-[:{_ALL_RELATIONS}*1..{hops}]-(n:Entity)
              WHERE n.user_id = $user_id AND NOT n IN seeds
                AND all(x IN nodes(p) WHERE x.user_id = $user_id)
                AND all(x IN nodes(p)[1..] WHERE x.stem_key <> '')
              WITH n, max(reduce(acc = 1.0, r IN relationships(p) |
                         acc * 0.5 * coalesce(r.weight, 1) / (coalesce(r.weight, 1) + 1.0))) AS w
              WITH n, w ORDER BY w DESC, n.name, n.id LIMIT $cap
              RETURN collect({{e: n, w: w}}) AS near
            }}
            """
        else:
            walk = "WITH seeds, [] AS near\n"
        records = await self._read(
            """
            MATCH (s:Entity) WHERE s.id IN $seed_ids AND s.user_id = $user_id
            WITH collect(s) AS seeds
            """
            + walk
            + """
            UNWIND [s IN seeds | {e: s, w: 1.0}] + near AS item
            WITH item.e AS e, item.w AS w
            MATCH (f:Fact)-[:ABOUT]->(e)
            WHERE f.user_id = $user_id AND ($statuses IS NULL OR f.status IN $statuses)
            WITH f, sum(w) AS score
            RETURN """ + fact_out("f") + """ AS fact, score
            ORDER BY score DESC, f.last_confirmed_at DESC, f.text, f.id LIMIT $limit
            """,
            seed_ids=seeds, user_id=user_id, cap=min(NEIGHBOUR_CAP, max(NEIGHBOUR_MIN, int(limit))),
            limit=int(limit),
            statuses=enum_values(Status, statuses),
        )
        return [ScoredFact(fact_from(r["fact"]), float(r["score"])) for r in records]
