"""What every surface shows of a record: the JSON of a fact or proposal, and which voices found it.

The CLI's ``--json``, the MCP server and the memory page print the same shapes from here.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from graph.models import Fact, Proposal

VOICE_COLUMNS = ("lexical", "semantic", "temporal", "graph", "dated")


def found_by(ranks: dict[str, int | None],
             name: Callable[[str], str] = lambda voice: voice) -> str:
    """Each voice that returned the record, with its rank: why it came up (the voice as
    ``name`` says it: the page names it in its language)."""
    found = [f"{name(voice)} {ranks[voice]}" for voice in VOICE_COLUMNS
             if ranks.get(voice) is not None]
    return ", ".join(found) or "-"


def fact_json(f: Fact) -> dict[str, Any]:
    return {
        "id": f.id, "text": f.text, "type": f.type.value, "tier": f.tier.value,
        "status": f.status.value, "supersedes": f.supersedes, "superseded_by": f.superseded_by,
        "mention_count": f.mention_count, "created_at": f.created_at.isoformat(),
        "last_confirmed_at": f.last_confirmed_at.isoformat(), "confidence": f.confidence,
        "pinned": f.pinned, "quarantine_reason": f.quarantine_reason,
        "needs_index": f.needs_index,
    }


def proposal_json(p: Proposal, targets: dict[str, Fact]) -> dict[str, Any]:
    return {
        "id": p.id, "kind": p.kind.value,
        "target": p.target_ids[0] if len(p.target_ids) == 1 else list(p.target_ids),
        "target_texts": [targets[t].text for t in p.target_ids if t in targets],
        "text": p.text, "reason": p.reason, "similarity": p.similarity,
        "status": p.status.value, "created_at": p.created_at.isoformat(),
    }
