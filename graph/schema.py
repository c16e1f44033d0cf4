"""The graph schema: constraints, lookup indexes and full-text indexes (idempotent).

Full-text: one Lucene index has one analyzer, so fact text is indexed twice, with the
``russian`` and the ``english`` analyzers (snowball stemming: "Москве" finds "Москва",
"meetings" finds "meeting"); a search queries both and keeps each fact's best score. Each
full-text index also holds the fact's ``scope`` token (see ``graph.entities.scope_token``)
and ``status``, so a query is narrowed to one user's active facts inside Lucene, before its
limit applies. ``eventually_consistent`` is off: a fact is findable once its write commits.
"""

from __future__ import annotations

FACT_TEXT_INDEXES: dict[str, str] = {"fact_text_ru": "russian", "fact_text_en": "english"}
# The script each analyzer stems: a query without words of that script skips the index
# (the other analyzer still matches such words exactly, lower-cased).
FACT_TEXT_SCRIPTS: dict[str, str] = {"fact_text_ru": "cyrillic", "fact_text_en": "latin"}

CONSTRAINTS: tuple[str, ...] = (
    "CREATE CONSTRAINT fact_id IF NOT EXISTS FOR (n:Fact) REQUIRE n.id IS UNIQUE",
    "CREATE CONSTRAINT entity_id IF NOT EXISTS FOR (n:Entity) REQUIRE n.id IS UNIQUE",
    "CREATE CONSTRAINT proposal_id IF NOT EXISTS FOR (n:Proposal) REQUIRE n.id IS UNIQUE",
    "CREATE CONSTRAINT conflict_id IF NOT EXISTS FOR (n:Conflict) REQUIRE n.id IS UNIQUE",
    "CREATE CONSTRAINT commitment_id IF NOT EXISTS FOR (n:Commitment) REQUIRE n.id IS UNIQUE",
    # One entity per (user, stem key, type): concurrent resolve_entity calls cannot duplicate.
    "CREATE CONSTRAINT entity_user_stem_type IF NOT EXISTS FOR (n:Entity) "
    "REQUIRE (n.user_id, n.stem_key, n.type) IS UNIQUE",
    # Name lookup keys (stem keys, and "=" + exact keys) -[:NAMES]-> entities; the constraint's
    # index makes entities_in_text one index seek per word run of the message.
    "CREATE CONSTRAINT entity_key_user_key IF NOT EXISTS FOR (n:EntityKey) "
    "REQUIRE (n.user_id, n.key) IS UNIQUE",
)

INDEXES: tuple[str, ...] = (
    "CREATE INDEX fact_user IF NOT EXISTS FOR (n:Fact) ON (n.user_id)",
    "CREATE INDEX fact_user_status IF NOT EXISTS FOR (n:Fact) ON (n.user_id, n.status)",
    "CREATE INDEX fact_user_tier IF NOT EXISTS FOR (n:Fact) ON (n.user_id, n.tier)",
    "CREATE INDEX fact_user_type IF NOT EXISTS FOR (n:Fact) ON (n.user_id, n.type)",
    "CREATE INDEX fact_created IF NOT EXISTS FOR (n:Fact) ON (n.created_at)",
    # A person's newest records in index order (the temporal voice, the notes, a page of
    # records): with the user in the ORDER BY too, the planner reads the first rows of these
    # instead of sorting every fact of the person (90 -> 6 ms at 100k facts, PROFILE: Top over
    # 85k rows -> NodeIndexSeek of 73).
    "CREATE INDEX fact_user_confirmed IF NOT EXISTS FOR (n:Fact) ON (n.user_id, n.last_confirmed_at)",
    "CREATE INDEX fact_user_created IF NOT EXISTS FOR (n:Fact) ON (n.user_id, n.created_at)",
    "CREATE INDEX fact_confirmed IF NOT EXISTS FOR (n:Fact) ON (n.last_confirmed_at)",
    "CREATE INDEX entity_user IF NOT EXISTS FOR (n:Entity) ON (n.user_id)",
    "CREATE INDEX commitment_user_state IF NOT EXISTS FOR (n:Commitment) ON (n.user_id, n.state)",
    "CREATE INDEX commitment_state_due IF NOT EXISTS FOR (n:Commitment) ON (n.state, n.due_at)",
    "CREATE INDEX reminder_prefs_user IF NOT EXISTS FOR (n:ReminderPrefs) ON (n.user_id)",
    "CREATE INDEX proposal_user_status IF NOT EXISTS FOR (n:Proposal) ON (n.user_id, n.status)",
    "CREATE INDEX conflict_user_resolved IF NOT EXISTS FOR (n:Conflict) "
    "ON (n.user_id, n.resolved)",
)

# Neo4j allows one index per (label, property list), analyzers aside; listing the same
# properties in another order makes the second index a different schema.
_FULLTEXT_PROPERTIES = {"fact_text_ru": "n.text, n.scope, n.status",
                        "fact_text_en": "n.scope, n.status, n.text"}

FULLTEXT_INDEXES: tuple[str, ...] = tuple(
    f"CREATE FULLTEXT INDEX {name} IF NOT EXISTS FOR (n:Fact) "
    f"ON EACH [{_FULLTEXT_PROPERTIES[name]}] "
    f"OPTIONS {{indexConfig: {{`fulltext.analyzer`: '{analyzer}', "
    "`fulltext.eventually_consistent`: false}}"
    for name, analyzer in FACT_TEXT_INDEXES.items()
)

STATEMENTS: tuple[str, ...] = CONSTRAINTS + INDEXES + FULLTEXT_INDEXES

# Raised when another process created the same rule between our check and our create.
ALREADY_EXISTS_CODES = frozenset({
    "Neo.ClientError.Schema.EquivalentSchemaRuleAlreadyExists",
    "Neo.ClientError.Schema.IndexAlreadyExists",
    "Neo.ClientError.Schema.ConstraintAlreadyExists",
})

AWAIT_INDEXES = "CALL db.awaitIndexes($timeout)"

# Data migration: entities stored before EntityKey nodes existed get theirs (in batches).
BACKFILL_ENTITY_KEYS = """
MATCH (e:Entity) WHERE NOT EXISTS { (e)<-[:NAMES]-(:EntityKey) }
WITH e LIMIT $batch
CALL (e) {
  UNWIND coalesce(e.stems, []) + [x IN coalesce(e.keys, []) | '=' + x] AS key
  MERGE (k:EntityKey {user_id: e.user_id, key: key})
  MERGE (k)-[:NAMES]->(e)
}
RETURN count(e) AS done
"""
