"""The context stage (``RecallConfig.context_stage``): over a chat between people, a second small
model reorders the learned order's first ``POOL`` candidates by what surrounds each turn.

Round thirty-three (h/recall33, ``scripts/locomo_context_rerank.py``) found, replaying a LoCoMo
run, that a turn answering the other speaker's question goes up and a turn that is itself a
question goes down, and that the neighbours' scores help. Per candidate, over the learned
model's log-odds (``lo``, less the search's best) and its place (``lr``, log(1 + place)):

- ``nb_max`` / ``nb_top``: the best ``lo`` of its two neighbours either side in its session
  (``FLOOR`` when none is a candidate), and how many of them are within the first 30;
- ``prev_q`` / ``prev_lo``: the turn before is the other speaker's and holds "?"; its ``lo``;
- ``is_q`` / ``next_lo``: the turn holds "?"; the other speaker's reply's ``lo``.

A session is a record's exchange; its turns are the records of that exchange the search read
(candidates and the context windows ``read_around`` loaded), in time order. The trees
(``context.json``, ``learned.Tree``'s format) are fitted on LoCoMo's five tuning conversations
by ``scripts/train_context_stage.py --engine-rows``: the rows this module computed in a LoCoMo
run of them (``Recall``'s ``context_observer``), not a replay over the whole conversation. The stage runs only where the candidates are a chat
between people (``between_people``): notes, a person's chat with the assistant and the memory
sets keep their order exactly.
"""

from __future__ import annotations

import json
from collections import defaultdict
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

from graph.models import Fact
from wave_agent.recall import kind
from wave_agent.recall.learned import Tree

MODEL = Path(__file__).parent / "context.json"
POOL = 40       # the learned order's first POOL candidates are reordered
FLOOR = -12.0   # a neighbour that is not a candidate
TOP = 30        # "near the top" for ``nb_top``
NAMES = ("lo", "lr", "nb_max", "nb_top", "prev_q", "prev_lo", "is_q", "next_lo")
ASSISTANT = "assistant"


class Stage:
    """Gradient-boosted trees over ``NAMES``: ``score`` is their log-odds."""

    def __init__(self, names: tuple[str, ...], intercept: float, trees: tuple[Tree, ...]):
        self.names = names
        self.intercept = intercept
        self.trees = trees

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Stage:
        names = tuple(str(n) for n in data["features"])
        unknown = [n for n in names if n not in NAMES]
        if unknown:
            raise ValueError(f"the context stage uses features this code does not compute: "
                             f"{unknown}")
        trees = tuple(Tree(np.asarray(t["feature"], dtype=np.int64),
                           np.asarray(t["threshold"], dtype=np.float64),
                           np.asarray(t["left"], dtype=np.int64),
                           np.asarray(t["right"], dtype=np.int64),
                           np.asarray(t["value"], dtype=np.float64))
                      for t in data["trees"])
        return cls(names, float(data["intercept"]), trees)

    def score(self, features: dict[str, np.ndarray]) -> np.ndarray:
        z = np.stack([features[n] for n in self.names], axis=1).astype(np.float64)
        out = np.full(len(z), self.intercept)
        for tree in self.trees:
            out += tree.predict(z)
        return out


@lru_cache(maxsize=4)
def load(path: Path = MODEL) -> Stage | None:
    """The stage at ``path`` (the shipped one by default), or None when the file is absent."""
    if not path.exists():
        return None
    return Stage.from_json(json.loads(path.read_text(encoding="utf-8")))


def session_of(fact: Fact) -> str | None:
    return fact.exchange_ids[0] if fact.exchange_ids else None


def between_people(facts: list[Fact], vectors: list[np.ndarray]) -> bool:
    """Whether these candidates (the learned order's first) are a chat between people: each
    said by someone in a session (an exchange), at least two speakers, none the assistant,
    and ``kind`` does not read them as a person's notes."""
    if not facts or any(f.speaker is None or session_of(f) is None for f in facts):
        return False
    speakers = {f.speaker for f in facts}
    if len(speakers) < 2 or any(s is not None and s.lower() == ASSISTANT for s in speakers):
        return False
    return not kind.notes(vectors[: kind.NEAREST])


def features(order: list[str], logit: dict[str, float], facts: dict[str, Fact],
             links: dict[str, tuple[str | None, str | None]] | None = None
             ) -> dict[str, np.ndarray]:
    """Each of ``order[:POOL]``'s features (``NAMES``); ``order``: every candidate, the learned
    order's best first; ``logit``: their learned log-odds; ``facts``: every record the search
    read (the sessions' turns come from these). ``links``, when given, is filled with each
    one's turn before and after in its session as read (ids, or None)."""
    best = max(logit.values()) if logit else 0.0
    rel = {fid: logit[fid] - best for fid in order}
    rank = {fid: n for n, fid in enumerate(order)}
    sessions: dict[str, list[Fact]] = defaultdict(list)
    for fact in facts.values():
        s = session_of(fact)
        if s is not None and fact.speaker is not None:
            sessions[s].append(fact)
    place: dict[str, tuple[str, int]] = {}
    for s, turns in sessions.items():
        turns.sort(key=lambda f: (f.created_at, f.id))
        for n, f in enumerate(turns):
            place[f.id] = (s, n)
    out: dict[str, list[float]] = {n: [] for n in NAMES}
    for fid in order[:POOL]:
        fact = facts[fid]
        out["lo"].append(rel[fid])
        out["lr"].append(float(np.log1p(rank[fid])))
        if fid in place:
            s, n = place[fid]
            turns = sessions[s]
        else:
            turns, n = [fact], 0

        def at(k: int, turns: list[Fact] = turns, n: int = n) -> Fact | None:
            return turns[n + k] if 0 <= n + k < len(turns) else None

        near = [t for t in (at(-2), at(-1), at(1), at(2)) if t is not None]
        near_rel = [rel[t.id] for t in near if t.id in rel]
        out["nb_max"].append(max(near_rel) if near_rel else FLOOR)
        out["nb_top"].append(float(sum(1 for t in near if rank.get(t.id, POOL) < TOP)))
        prev, nxt = at(-1), at(1)
        if links is not None:
            links[fid] = (prev.id if prev is not None else None,
                          nxt.id if nxt is not None else None)
        prev_ok = prev is not None and prev.speaker != fact.speaker
        out["prev_q"].append(1.0 if prev is not None and prev_ok and "?" in prev.text else 0.0)
        out["prev_lo"].append(rel.get(prev.id, FLOOR) if prev is not None and prev_ok else FLOOR)
        out["is_q"].append(1.0 if "?" in fact.text else 0.0)
        next_ok = nxt is not None and nxt.speaker != fact.speaker
        out["next_lo"].append(rel.get(nxt.id, FLOOR) if nxt is not None and next_ok else FLOOR)
    return {k: np.asarray(v, dtype=np.float64) for k, v in out.items()}


def reorder(order: list[str], final: dict[str, float], scores: np.ndarray) -> dict[str, float]:
    """The pool's values handed out in the stage's order (its best gets the pool's highest
    value): the records past the pool and the values' scale are unchanged."""
    pool = order[: len(scores)]
    values = sorted((final[fid] for fid in pool), reverse=True)
    ranked = [pool[i] for i in np.argsort(-scores, kind="stable")]
    return dict(zip(ranked, values, strict=True))
