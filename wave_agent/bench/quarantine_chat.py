"""Everyday chat with an assistant as ordinary text for the quarantine: LongMemEval's turns.

Importing LongMemEval histories (English chat between a person and an assistant, none of it
aimed at the agent) held about 6-7% of the turns; the authored sets and LoCoMo do not show
that. ``scripts/train_quarantine.py`` takes turns only from the histories of the ``tune``
questions (``bench.longmemeval.split_of``) as more negatives, and ``wave bench quarantine``
measures the turns of the ``held`` questions' histories as a check, never trained on. A session
that appears in both splits' histories belongs to neither. Each turn is cut as the writer
stores it (``edge_input.pieces``: a turn over ``MAX_FACT_CHARS`` is stored, and judged, in
pieces) and the pieces are sampled by a fixed hash, half from the person's turns, half from the
assistant's.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from graph.models import MAX_FACT_CHARS
from wave_agent.bench.longmemeval import load
from wave_agent.policy.edge_input import pieces

if TYPE_CHECKING:
    from wave_agent.bench.quarantine_vectors import VectorCache

# the shared data folder beside the project (../shared/data/longmemeval from the repo root)
LONGMEMEVAL = Path(__file__).resolve().parents[3] / "shared" / "data" / "longmemeval" / "longmemeval_s_dev60.json"


def chat_turns(path: Path, split: str, count: int) -> list[str]:
    """Up to ``count`` pieces of turns (half the person's, half the assistant's) from the
    sessions found only in the histories of ``split``'s questions (``tune`` or ``held``)."""
    items = load(path)
    sessions: dict[str, set[str]] = {}
    for item in items:
        for turn in item.turns:
            sessions.setdefault(turn.session, set()).add(item.split)
    by_role: dict[str, dict[str, str]] = {"user": {}, "assistant": {}}
    for item in items:
        for turn in item.turns:
            if sessions[turn.session] != {split} or turn.role not in by_role:
                continue
            for piece in pieces(turn.text, MAX_FACT_CHARS):
                if piece.strip():
                    by_role[turn.role].setdefault(hashlib.sha1(f"{turn.id}|{piece}".encode()).hexdigest(), piece)
    out: list[str] = []
    for role, found in by_role.items():
        share = count // 2 if role == "user" else count - count // 2
        out += [found[k] for k in sorted(found)[:share]]
    return list(dict.fromkeys(out))


# the tuning months of issue 30 (bench/data/month/tuning*.json); the kept-aside month is never read
MONTHS = Path(__file__).resolve().parents[2] / "bench" / "data" / "month"
OWN_KINDS = ("statement", "small_talk", "question")  # a person's own words; never the pasted texts


def month_lines(root: Path = MONTHS) -> list[tuple[str, str, str]]:
    """A person's own chat lines from the tuning months, each (text, the month's writer, kind):
    every message the month labels a statement, small talk or a question, and each statement the
    offline extractor keeps of it, as the post-processor judges both (the whole message, then
    each piece). The months' pasted instructions are left out: they are what the check must hold."""
    from wave_agent.llm.offline_extract import extract_heuristic

    out: dict[str, tuple[str, str, str]] = {}
    for path in sorted(root.glob("tuning*.json")):
        month = json.loads(path.read_text(encoding="utf-8"))
        for message in month["messages"]:
            if message["kind"] not in OWN_KINDS:
                continue
            text = message["text"]
            for said in [text, *(f.text for f in extract_heuristic(text, max_facts=8))]:
                out.setdefault(said, (said, str(month["user"]), message["kind"]))
    return list(out.values())


def month_exemplars(cache: VectorCache, against: tuple[np.ndarray, np.ndarray] | None = None,
                    *, root: Path = MONTHS) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The months' own lines (``month_lines``) as exemplars of the meaning layer's bank
    (``meaning.near``): unit vectors, their labels (every one a note, 0) and each line's month
    writer. A person dictating their own new number then finds people's own lines among its
    nearest exemplars, not only the authored sets' orders to note a number (issue 30, round
    twenty-eight). ``against``: a bank (unit vectors, labels); only the lines whose vote in it
    reads as an order (``near`` >= 0.5) are kept, the ones that bank would get wrong (the rest
    would change few votes and cost the vote's time)."""
    from wave_agent.policy.quarantine.meaning import near

    lines = month_lines(root)
    vectors = cache.vectors([text for text, _, _ in lines])
    unit = (vectors / np.maximum(np.linalg.norm(vectors, axis=1, keepdims=True), 1e-9)).astype(np.float32)
    writers = np.asarray([writer for _, writer, _ in lines])
    if against is not None and len(unit):
        keep = near(unit @ against[0].T, against[1])[:, 0] >= 0.5
        unit, writers = unit[keep], writers[keep]
    return unit, np.zeros(len(unit), dtype=np.float32), writers
