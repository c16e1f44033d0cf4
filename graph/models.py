"""Plain data for the graph layer: facts, entities, relations, proposals, conflicts.

These are the system-of-record shapes (DESIGN section 3). Pure data: no driver, no I/O.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from enum import StrEnum

MAX_FACT_CHARS = 2_000  # one record; a longer text is stored as pieces of it (``part_of``)
MAX_TEXT_CHARS = 40_000  # one text (a message, a forwarded article); longer ones are refused


_clock: Callable[[], datetime] | None = None


def use_clock(clock: Callable[[], datetime] | None) -> None:
    """Read the present from ``clock`` (aware, UTC) instead of the system: the agent installs its
    one clock (``wave_agent.infra.clock``, ``WAVE_NOW``) so a replayed history stamps proposals,
    conflicts and entities at the replayed time. The graph layer never imports the agent."""
    global _clock
    _clock = clock


def utcnow() -> datetime:
    """The present moment, aware, in UTC: the installed clock's, else the system's."""
    return _clock() if _clock is not None else datetime.now(UTC)


def new_id(prefix: str) -> str:
    """Short, readable, collision-resistant ids: ``f-7k2m9q4x`` (40 random bits)."""
    alphabet = "23456789abcdefghjkmnpqrstuvwxyz"
    return prefix + "-" + "".join(secrets.choice(alphabet) for _ in range(8))


class FactType(StrEnum):
    IDENTITY = "identity"
    PREFERENCE = "preference"
    RELATIONSHIP = "relationship"
    DECISION = "decision"
    EVENT = "event"
    COMMITMENT = "commitment"
    STATE = "state"


class Tier(StrEnum):
    OBSERVATION = "observation"
    FACT = "fact"
    CORE = "core"
    ARCHIVE = "archive"


class Status(StrEnum):
    ACTIVE = "active"
    SUPERSEDED = "superseded"
    ARCHIVED = "archived"
    QUARANTINED = "quarantined"


class Veracity(StrEnum):
    STATED = "stated"      # the person said it: 1.0
    INFERRED = "inferred"  # the agent inferred it: 0.7
    TOOL = "tool"          # produced by a tool: 0.5
    IMPORTED = "imported"  # imported or forwarded: 0.6

    @property
    def weight(self) -> float:
        return VERACITY_WEIGHT[self]


VERACITY_WEIGHT: dict[Veracity, float] = {
    Veracity.STATED: 1.0,
    Veracity.INFERRED: 0.7,
    Veracity.TOOL: 0.5,
    Veracity.IMPORTED: 0.6,
}


class EntityType(StrEnum):
    PERSON = "person"
    ORGANISATION = "organisation"
    PROJECT = "project"
    PLACE = "place"
    TOPIC = "topic"
    TOOL = "tool"
    EVENT = "event"
    # the person's world, read from everyday statements (``wave_agent.world``)
    PET = "pet"
    DEVICE = "device"
    VEHICLE = "vehicle"
    ILLNESS = "illness"
    HOBBY = "hobby"
    THING = "thing"
    OCCUPATION = "occupation"  # what someone works as ("водитель"): the end of a WORKS_AS


class RelationType(StrEnum):
    """Entity-to-entity relation types; the only names ever interpolated into Cypher."""

    KNOWS = "KNOWS"
    WORKS_AT = "WORKS_AT"
    WORKS_ON = "WORKS_ON"
    LIVES_IN = "LIVES_IN"
    PART_OF = "PART_OF"
    USES = "USES"
    RELATED_TO = "RELATED_TO"
    FAMILY_OF = "FAMILY_OF"
    MENTIONED_WITH = "MENTIONED_WITH"
    # typed relations read from statements (``wave_agent.world``); KIN carries its ``role``
    KIN = "KIN"
    WORKS_AS = "WORKS_AS"
    STUDIES_AT = "STUDIES_AT"
    MEMBER_OF = "MEMBER_OF"
    FRIEND_OF = "FRIEND_OF"
    OWNS = "OWNS"
    PET_OF = "PET_OF"
    HAS_CONDITION = "HAS_CONDITION"
    DOES = "DOES"


# A person has one of these at a time: a new one ends the old (which stays, with ``ended_at``).
EXCLUSIVE_RELATIONS = frozenset({RelationType.LIVES_IN, RelationType.WORKS_AT})


class ProposalKind(StrEnum):
    SUPERSEDE = "supersede"
    MERGE = "merge"
    GENERALISE = "generalise"
    DEMOTE = "demote"
    DELETE = "delete"


class ProposalStatus(StrEnum):
    PENDING = "pending"
    APPROVED = "approved"
    REJECTED = "rejected"


@dataclass(frozen=True, slots=True)
class Fact:
    id: str
    user_id: str
    text: str
    type: FactType
    tier: Tier
    status: Status
    veracity: Veracity
    confidence: float
    created_at: datetime
    last_confirmed_at: datetime
    mention_count: int = 1
    recall_count: int = 0
    valid_until: datetime | None = None
    supersedes: str | None = None
    superseded_by: str | None = None
    source_message_ids: tuple[str, ...] = ()
    episode_date: str | None = None
    quarantine_reason: str | None = None
    speaker: str | None = None
    pinned: bool = False
    # ids of the exchanges that stated or confirmed it (promotion needs two different ones)
    exchange_ids: tuple[str, ...] = ()
    # the archive missed this record's last change (it was locked or down): `wave reindex`
    # and maintenance drift repair re-send it and clear the flag
    needs_index: bool = False
    # A text longer than MAX_FACT_CHARS is stored as pieces said at the same moment: each
    # piece carries the id of the whole (``part_of``, shared by the pieces), its place in it
    # (``part``, 1-based) and how many pieces there are (``parts``); 0 when it is whole.
    part_of: str | None = None
    part: int = 0
    parts: int = 0
    # The attribute values the record states, "entity|attribute|value|op" (``wave_agent.world.
    # attributes``): a new value of a single-valued attribute supersedes the record holding the
    # old one; a negation of a held value raises a conflict.
    attributes: tuple[str, ...] = ()

    @property
    def in_prompt_path(self) -> bool:
        return self.status is Status.ACTIVE and self.tier is not Tier.ARCHIVE


@dataclass(frozen=True, slots=True)
class ScoredFact:
    fact: Fact
    score: float


@dataclass(frozen=True, slots=True)
class FactCount:
    """One row of ``GraphStore.count_facts``: how many facts a user has of a type/tier/status."""

    user_id: str
    type: FactType
    tier: Tier
    status: Status
    count: int


@dataclass(frozen=True, slots=True)
class Entity:
    id: str
    user_id: str
    name: str
    type: EntityType
    aliases: tuple[str, ...] = ()
    created_at: datetime = field(default_factory=utcnow)


@dataclass(frozen=True, slots=True)
class Relation:
    user_id: str
    source_id: str
    target_id: str
    type: RelationType
    provenance: tuple[str, ...] = ()  # fact ids / message ids
    created_at: datetime = field(default_factory=utcnow)
    weight: int = 1  # how many times it was stated (a keyed repeat counts once)
    role: str | None = None  # KIN: "husband", "mother_in_law" ... (what target is to source)
    ended_at: datetime | None = None  # an exclusive relation replaced by a newer one
    ended_by: str | None = None       # the record that replaced it


@dataclass(frozen=True, slots=True)
class Proposal:
    id: str
    user_id: str
    kind: ProposalKind
    target_ids: tuple[str, ...]
    reason: str
    text: str | None = None           # the proposed new text, where there is one
    status: ProposalStatus = ProposalStatus.PENDING
    similarity: float | None = None
    created_at: datetime = field(default_factory=utcnow)


@dataclass(frozen=True, slots=True)
class Conflict:
    id: str
    user_id: str
    fact_ids: tuple[str, str]
    subject: str
    reason: str
    resolved: bool = False
    created_at: datetime = field(default_factory=utcnow)
    # the first fact was already replaced when the second denied it for the whole past
    # ("курю", "бросила", then "никогда в жизни не курила"): open while the denial is active
    against_past: bool = False
