"""Facts: create, read, update, delete, list, full-text search, supersession, history, counts.

Every query matches on ``user_id`` and takes user text only as a parameter. Full-text
queries are built from ``\\w+`` words only (``graph.entities.lucene_query``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime
from typing import Any

from graph.entities import lucene_query, lucene_terms, scripts
from graph.errors import FactNotFound, InvalidInput, SupersessionError
from graph.models import Entity, Fact, FactCount, FactType, ScoredFact, Status, Tier, utcnow
from graph.queries.base import Executor
from graph.records import UPDATABLE_FACT_FIELDS, fact_from, fact_out, fact_props, fact_value
from graph.schema import FACT_TEXT_SCRIPTS

ACTIVE_ONLY: tuple[Status, ...] = (Status.ACTIVE,)


def _entity_ids(entities: Iterable[Entity | str]) -> list[str]:
    ids: list[str] = []
    for item in entities:
        eid = item.id if isinstance(item, Entity) else str(item)
        if eid not in ids:
            ids.append(eid)
    return ids


def enum_values(kind: type[Any], values: Iterable[Any] | None) -> list[str] | None:
    """Enum members or their string values as validated strings (None stays None: no filter)."""
    if values is None:
        return None
    if isinstance(values, str):
        values = [values]
    try:
        return [kind(v).value for v in values]
    except ValueError as exc:
        allowed = ", ".join(m.value for m in kind)
        raise InvalidInput(f"{exc}; allowed {kind.__name__} values: {allowed}") from exc


_FILTER_FIELDS = {"tiers": "tier", "statuses": "status", "types": "type"}


def _filters(params: dict[str, list[str] | None]) -> str:
    """``AND f.<field> IN $<param>`` for each filter given (fixed names; values stay params).

    Built per call rather than ``($x IS NULL OR ...)`` so the planner can use the composite
    (user_id, status|tier|type) indexes.
    """
    return "".join(
        f" AND f.{_FILTER_FIELDS[name]} IN ${name}"
        for name, value in params.items() if value is not None
    )


_LINK_ABOUT = """
CALL (f) {
  UNWIND $entity_ids AS eid
  MATCH (e:Entity {id: eid}) WHERE e.user_id = f.user_id
  MERGE (f)-[:ABOUT]->(e)
}
"""

def _fulltext_call(query_text: str) -> str:
    """The full-text part of a search: the indexes whose analyzer stems the query's scripts
    (all of them when it has neither Cyrillic nor Latin words), best score per fact."""
    present = scripts(lucene_terms(query_text))
    names = [n for n, script in FACT_TEXT_SCRIPTS.items() if script in present]
    names = names or list(FACT_TEXT_SCRIPTS)
    calls = "\nUNION ALL\n".join(
        f"CALL db.index.fulltext.queryNodes('{name}', $query, {{limit: $pool}}) "
        "YIELD node, score RETURN node, score"
        for name in names
    )
    return "CALL () {\n" + calls + "\n}\n"


class FactQueries(Executor):
    # -- writes (only wave_agent/write/writer.py calls these) --------------------------------------

    async def create_fact(self, fact: Fact, entities: Iterable[Entity | str] = ()) -> Fact:
        """Store a new fact, linked ``ABOUT`` the given entities (objects or ids) of its user."""
        records = await self._write(
            "CREATE (f:Fact) SET f = $props WITH f" + _LINK_ABOUT + f"RETURN {fact_out('f')} AS fact",
            props=fact_props(fact),
            entity_ids=_entity_ids(entities),
        )
        return fact_from(records[0]["fact"])

    async def create_facts(
        self, facts: Sequence[Fact], about: Mapping[str, Iterable[Entity | str]] | None = None
    ) -> int:
        """Store many facts in one statement (imports, benchmarks); ``about``: fact id -> entities."""
        about = about or {}
        rows = [
            {"props": fact_props(f), "entity_ids": _entity_ids(about.get(f.id, ()))}
            for f in facts
        ]
        if not rows:
            return 0
        records = await self._write(
            """
            UNWIND $rows AS row
            CREATE (f:Fact) SET f = row.props
            WITH f, row
            CALL (f, row) {
              UNWIND row.entity_ids AS eid
              MATCH (e:Entity {id: eid}) WHERE e.user_id = f.user_id
              MERGE (f)-[:ABOUT]->(e)
            }
            RETURN count(f) AS created
            """,
            rows=rows,
        )
        return int(records[0]["created"])

    async def update_fact(self, user_id: str, id: str, **fields: Any) -> Fact:
        """Change named fields of a fact (names checked against ``Fact``); ``None`` clears one."""
        unknown = sorted(set(fields) - UPDATABLE_FACT_FIELDS)
        if unknown:
            raise InvalidInput(
                f"update_fact cannot change {', '.join(unknown)}",
                next_step=f"use fields of graph.models.Fact: {', '.join(sorted(UPDATABLE_FACT_FIELDS))}",
            )
        props = {name: fact_value(name, value) for name, value in fields.items()}
        records = await self._write(
            "MATCH (f:Fact {id: $id}) WHERE f.user_id = $user_id SET f += $props "
            f"RETURN {fact_out('f')} AS fact",
            id=id, user_id=user_id, props=props,
        )
        if not records:
            raise FactNotFound(user_id, id)
        return fact_from(records[0]["fact"])

    async def add_mention(
        self, user_id: str, id: str, *, exchange_ids: Sequence[str] = (),
        source_message_ids: Sequence[str] = (), confirmed_at: datetime,
        confidence_step: float, pin: bool = False,
    ) -> tuple[Fact, bool]:
        """One more mention of a fact, counted in the query (never read, added, written back).

        A mention from exchanges the fact already counts (an outbox retry) changes nothing
        unless ``pin``. Otherwise: ``mention_count + 1``, the new exchange and message ids
        appended, ``confidence + confidence_step`` (at most 1.0), ``last_confirmed_at`` the
        later of the two, ``pinned`` kept or set, ``needs_index`` set. Returns the fact as
        stored and whether the mention counted. The first SET write-locks the node, so two
        transactions confirming it at once are applied one after the other.
        """
        records = await self._write(
            """
            MATCH (f:Fact {id: $id}) WHERE f.user_id = $user_id
            SET f._locked = true REMOVE f._locked
            WITH f, [e IN $exchange_ids WHERE NOT e IN coalesce(f.exchange_ids, [])] AS fresh
            WITH f, fresh, (size($exchange_ids) = 0 OR size(fresh) > 0 OR $pin) AS counts
            CALL (f, fresh, counts) {
              WITH f, fresh, counts WHERE counts
              SET f.mention_count = coalesce(f.mention_count, 1) + 1,
                  f.exchange_ids = coalesce(f.exchange_ids, []) + fresh,
                  f.source_message_ids = coalesce(f.source_message_ids, [])
                    + [m IN $message_ids WHERE NOT m IN coalesce(f.source_message_ids, [])],
                  f.confidence = round(CASE WHEN f.confidence + $step > 1.0 THEN 1.0
                                            ELSE f.confidence + $step END, 4),
                  f.last_confirmed_at = CASE WHEN $confirmed_at > f.last_confirmed_at
                                             THEN $confirmed_at ELSE f.last_confirmed_at END,
                  f.pinned = coalesce(f.pinned, false) OR $pin,
                  f.needs_index = true
            }
            RETURN """ + fact_out("f") + " AS fact, counts",
            id=id, user_id=user_id, exchange_ids=list(dict.fromkeys(exchange_ids)),
            message_ids=list(dict.fromkeys(source_message_ids)), pin=bool(pin),
            step=float(confidence_step),
            confirmed_at=fact_value("last_confirmed_at", confirmed_at),
        )
        if not records:
            raise FactNotFound(user_id, id)
        return fact_from(records[0]["fact"]), bool(records[0]["counts"])

    async def delete_fact(self, user_id: str, id: str) -> bool:
        """Remove a fact and its edges; False when the user has no such fact.

        Facts that named it in ``supersedes``/``superseded_by`` lose that dangling pointer;
        their status is left as it is (whether an old version becomes current again is the
        writer's decision).
        """
        records = await self._write(
            """
            MATCH (f:Fact {id: $id}) WHERE f.user_id = $user_id
            OPTIONAL MATCH (f)-[:SUPERSEDES]-(other:Fact) WHERE other.user_id = $user_id
            WITH f, collect(other) AS others
            // a commitment read from this record quotes it: it (and its reminder) goes too
            OPTIONAL MATCH (c:Commitment)-[:FROM]->(f)
            WITH f, others, collect(c) AS commitments
            FOREACH (c IN commitments | DETACH DELETE c)
            FOREACH (o IN others |
              SET o.superseded_by = CASE WHEN o.superseded_by = f.id THEN null
                                         ELSE o.superseded_by END,
                  o.supersedes = CASE WHEN o.supersedes = f.id THEN null ELSE o.supersedes END)
            DETACH DELETE f
            RETURN count(*) AS deleted
            """,
            id=id, user_id=user_id,
        )
        return bool(records and records[0]["deleted"])

    async def purge_user(self, user_id: str, *, batch: int = 2_000) -> int:
        """Erase everything the graph holds for one user (facts, entities, proposals,
        conflicts) in batches; how many nodes went. For throwaway users (benchmarks) and a
        person's "erase all of me"; only the writer calls it."""
        removed = 0
        while True:
            records = await self._write(
                """
                MATCH (n) WHERE (n:Fact OR n:Entity OR n:EntityKey OR n:Proposal OR n:Conflict
                                  OR n:Commitment OR n:ReminderPrefs)
                  AND n.user_id = $user_id
                WITH n LIMIT $batch DETACH DELETE n RETURN count(*) AS deleted
                """,
                user_id=user_id, batch=int(batch),
            )
            done = int(records[0]["deleted"]) if records else 0
            removed += done
            if done == 0:
                return removed

    async def supersede(self, user_id: str, old_id: str, new_id: str) -> tuple[Fact, Fact]:
        """``new`` replaces ``old``: SUPERSEDES edge, ``superseded_by``/``supersedes``, old status.

        Returns (old, new) as stored. Idempotent for the same pair; refuses a fact replacing
        itself, a replacement that is itself superseded (no cycles), and an old fact already
        replaced by another one.
        """
        if old_id == new_id:
            raise SupersessionError(f"fact {old_id} cannot supersede itself",
                                    next_step="supersede it with a different, newer fact")
        async with self._atomic() as ops:
            records = await ops._write(
                """
                OPTIONAL MATCH (old:Fact {id: $old_id}) WHERE old.user_id = $user_id
                OPTIONAL MATCH (new:Fact {id: $new_id}) WHERE new.user_id = $user_id
                RETURN old, new
                """,
                old_id=old_id, new_id=new_id, user_id=user_id,
            )
            old, new = records[0]["old"], records[0]["new"]
            if old is None:
                raise FactNotFound(user_id, old_id)
            if new is None:
                raise FactNotFound(user_id, new_id)
            replaced_by = old.get("superseded_by")
            if replaced_by and replaced_by != new_id:
                raise SupersessionError(
                    f"fact {old_id} is already superseded by {replaced_by}",
                    next_step=f"supersede {replaced_by} instead (the current version)",
                )
            if new.get("status") == Status.SUPERSEDED.value:
                raise SupersessionError(
                    f"fact {new_id} is itself superseded by {new.get('superseded_by')}",
                    next_step="supersede with the current version of the fact",
                )
            records = await ops._write(
                """
                MATCH (old:Fact {id: $old_id}) WHERE old.user_id = $user_id
                MATCH (new:Fact {id: $new_id}) WHERE new.user_id = $user_id
                MERGE (new)-[:SUPERSEDES]->(old)
                SET old.superseded_by = new.id, old.status = $superseded, new.supersedes = old.id
                RETURN """ + fact_out("old") + " AS old, " + fact_out("new") + """ AS new
                """,
                old_id=old_id, new_id=new_id, user_id=user_id,
                superseded=Status.SUPERSEDED.value,
            )
            return fact_from(records[0]["old"]), fact_from(records[0]["new"])

    # -- reads ---------------------------------------------------------------------------------

    async def attribute_facts(
        self, user_id: str, statuses: Sequence[Status] = (Status.ACTIVE,),
    ) -> list[Fact]:
        """The user's facts that state attribute values (``Fact.attributes``), oldest first:
        by default the active ones, what the person holds now, for the writer to compare a new
        statement with; recall by attribute also asks for the replaced ones (the history)."""
        records = await self._read(
            "MATCH (f:Fact) WHERE f.user_id = $user_id AND f.status IN $statuses "
            "AND size(coalesce(f.attributes, [])) > 0 "
            f"WITH f ORDER BY f.created_at RETURN {fact_out('f')} AS fact",
            user_id=user_id, statuses=[s.value for s in statuses],
        )
        return [fact_from(r["fact"]) for r in records]

    async def end_relations_of(self, user_id: str, fact_id: str, ended_by: str) -> int:
        """End the current relations a record alone stated (a pet that is gone, a hobby given
        up): ``ended_at`` / ``ended_by`` set, the edges kept as history."""
        records = await self._write(
            "MATCH (:Entity)-[r]->(:Entity) WHERE r.user_id = $user_id AND r.ended_at IS NULL "
            "AND r.provenance = [$fact_id] SET r.ended_at = $now, r.ended_by = $ended_by "
            "RETURN count(r) AS ended",
            user_id=user_id, fact_id=fact_id, ended_by=ended_by, now=utcnow(),
        )
        return int(records[0]["ended"]) if records else 0

    async def get_fact(self, user_id: str, id: str) -> Fact | None:
        records = await self._read(
            f"MATCH (f:Fact {{id: $id}}) WHERE f.user_id = $user_id RETURN {fact_out('f')} AS fact",
            id=id, user_id=user_id,
        )
        return fact_from(records[0]["fact"]) if records else None

    async def get_facts(self, user_id: str, ids: Iterable[str]) -> list[Fact]:
        """The user's facts with these ids, in the order asked (missing ids are skipped)."""
        wanted = list(dict.fromkeys(ids))
        records = await self._read(
            "UNWIND $ids AS fid MATCH (f:Fact {id: fid}) WHERE f.user_id = $user_id "
            f"RETURN {fact_out('f')} AS fact",
            ids=wanted, user_id=user_id,
        )
        by_id = {r["fact"]["id"]: fact_from(r["fact"]) for r in records}
        return [by_id[i] for i in wanted if i in by_id]

    async def list_facts(
        self,
        user_id: str,
        *,
        tiers: Iterable[Tier | str] | None = None,
        statuses: Iterable[Status | str] | None = None,
        types: Iterable[FactType | str] | None = None,
        limit: int | None = None,
        offset: int = 0,
    ) -> list[Fact]:
        """The user's facts, newest first (``created_at`` desc); ``None`` filters allow all.
        ``offset`` skips that many (a page of a long list)."""
        params = {"tiers": enum_values(Tier, tiers), "statuses": enum_values(Status, statuses),
                  "types": enum_values(FactType, types)}
        records = await self._read(
            "MATCH (f:Fact) WHERE f.user_id = $user_id AND f.created_at IS NOT NULL"
            + _filters(params)
            # ordered by the (user_id, created_at) index: no sort of all the person's facts
            + " WITH f ORDER BY f.user_id DESC, f.created_at DESC, f.id"
            + (" SKIP $offset" if offset else "")
            + (" LIMIT $limit" if limit is not None else "")
            + f" RETURN {fact_out('f')} AS fact",
            user_id=user_id, limit=max(0, int(limit)) if limit is not None else None,
            offset=max(0, int(offset)),
            **{k: v for k, v in params.items() if v is not None},
        )
        return [fact_from(r["fact"]) for r in records]

    async def recent_facts(
        self, user_id: str, *, limit: int, statuses: Iterable[Status | str] | None = ACTIVE_ONLY
    ) -> list[Fact]:
        """The user's most recently confirmed facts (``last_confirmed_at`` desc). Facts of one
        moment (one message's) come in the order of their text, never of their random ids: the
        same history ranks the same way whenever it is replayed."""
        params = {"statuses": enum_values(Status, statuses)}
        records = await self._read(
            "MATCH (f:Fact) WHERE f.user_id = $user_id AND f.last_confirmed_at IS NOT NULL"
            + _filters(params)
            # ordered by the (user_id, last_confirmed_at) index: the first rows, not a sort
            + f" RETURN {fact_out('f')} AS fact"
            + " ORDER BY f.user_id DESC, f.last_confirmed_at DESC, f.text, f.id LIMIT $limit",
            user_id=user_id, limit=max(0, int(limit)),
            **{k: v for k, v in params.items() if v is not None},
        )
        return [fact_from(r["fact"]) for r in records]

    async def fulltext_search(
        self,
        user_id: str,
        query: str,
        *,
        statuses: Iterable[Status | str] = ACTIVE_ONLY,
        limit: int = 20,
        prefixes: bool = False,
    ) -> list[ScoredFact]:
        """Lucene BM25 over fact text (Russian and English analyzers, best score kept; an
        index is skipped when the query has no words of the script it stems).

        Any user text is safe: only its words reach Lucene. A text without words (or only
        stop words: the user and status clauses weigh 0, so those hits score 0) finds nothing.
        ``prefixes=True`` also matches Russian forms the snowball stemmer splits ("работа"
        finds "работаю"; "Москва" also finds "Москвич"), each such hit adding only 0.3.
        """
        wanted = enum_values(Status, statuses) or []
        lucene = lucene_query(user_id, query, wanted, prefixes=prefixes)
        if lucene is None or limit <= 0:
            return []
        records = await self._read(
            _fulltext_call(query)
            + """
            WITH node, max(score) AS score
            WHERE score > 0 AND node.user_id = $user_id AND node.status IN $statuses
            RETURN """ + fact_out("node") + """ AS fact, score
            ORDER BY score DESC, node.last_confirmed_at DESC LIMIT $limit
            """,
            query=lucene, pool=int(limit) * 2, user_id=user_id, statuses=wanted, limit=int(limit),
        )
        return [ScoredFact(fact_from(r["fact"]), float(r["score"])) for r in records]

    async def history(self, user_id: str, id: str) -> list[Fact]:
        """The supersession chain through this fact, both ways, oldest first (itself included)."""
        records = await self._read(
            """
            MATCH (f:Fact {id: $id}) WHERE f.user_id = $user_id
            OPTIONAL MATCH (f)-[:SUPERSEDES*1..100]-(other:Fact) WHERE other.user_id = $user_id
            WITH f, collect(DISTINCT other) AS others
            UNWIND [f] + others AS x
            WITH DISTINCT x
            RETURN """ + fact_out("x") + """ AS fact ORDER BY x.created_at, x.id
            """,
            id=id, user_id=user_id,
        )
        if not records:
            raise FactNotFound(user_id, id)
        return [fact_from(r["fact"]) for r in records]

    async def count_facts(self, user_id: str | None = None) -> list[FactCount]:
        """Fact counts by user, type, tier and status (one user, or every user when None)."""
        records = await self._read(
            """
            MATCH (f:Fact) WHERE $user_id IS NULL OR f.user_id = $user_id
            RETURN f.user_id AS user_id, f.type AS type, f.tier AS tier, f.status AS status,
                   count(*) AS count
            ORDER BY user_id, type, tier, status
            """,
            user_id=user_id,
        )
        return [
            FactCount(
                user_id=r["user_id"], type=FactType(r["type"]), tier=Tier(r["tier"]),
                status=Status(r["status"]), count=int(r["count"]),
            )
            for r in records
        ]
