"""Which of a person's records say the same thing: near-duplicates, paraphrases, opposites.

One pass per person: the records are embedded together (one batch), each pair gets the
writer's combined similarity (cosine + stemmed-word Jaccard, ``hygiene.judge``), and linked
pairs form groups (connected components). Used by the near-duplicate, generalisation and
health reports, so the three agree.

Thresholds: a near-duplicate is what the writer itself would have confirmed instead of
adding (``judge`` says DUPLICATE); a paraphrase is looser (the same thing in other words:
"Igor always pays in advance" / "With Igor we work on prepayment" score 0.56-0.85 on
all-MiniLM-L6-v2, unrelated sentences at most 0.47; measured in docs/benchmarks.md) and never
joins records naming different people, carrying different numbers or opposite claims.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from graph.models import Fact
from wave_agent.hygiene import judge, numbers, similarity

PARAPHRASE_MIN_EN = 0.55
PARAPHRASE_MIN_RU = 0.45
# Pairs below this combined score are not examined further (cheap pre-filter).
EXAMINE_MIN = 0.4


@dataclass(frozen=True, slots=True)
class Pair:
    a: Fact
    b: Fact
    score: float
    relation: judge.Relation


class Similarities:
    """Pairwise similarities of one person's records (computed once, asked many times)."""

    def __init__(self, facts: Sequence[Fact], vectors: np.ndarray) -> None:
        self.facts = list(facts)
        self._stems = [similarity.content_stems(f.text) for f in self.facts]
        self._russian = [similarity.is_cyrillic(f.text) for f in self.facts]
        self._norm = [similarity.normalise(f.text) for f in self.facts]
        self.cosine = (vectors @ vectors.T) if len(self.facts) else np.zeros((0, 0))
        self._pairs: list[tuple[int, int, float]] = []
        n = len(self.facts)
        for i in range(n):
            for j in range(i + 1, n):
                score = self._score(i, j)
                if score >= EXAMINE_MIN or self._norm[i] == self._norm[j]:
                    self._pairs.append((i, j, score))
        self._relations: dict[tuple[int, int], judge.Relation] = {}

    @classmethod
    async def of(cls, embedder: Any, facts: Sequence[Fact]) -> Similarities:
        if not facts:
            return cls([], np.zeros((0, 1), dtype=np.float32))
        vectors = await embedder.embed([f.text for f in facts])
        return cls(facts, np.asarray(vectors, dtype=np.float32))

    def _score(self, i: int, j: int) -> float:
        cos = float(self.cosine[i, j])
        lexical = similarity.jaccard(self._stems[i], self._stems[j])
        russian = self._russian[i] or self._russian[j]
        return round(similarity.combined(cos, lexical, russian=russian), 4)

    def relation(self, i: int, j: int) -> judge.Relation:
        key = (i, j)
        if key not in self._relations:
            if self._norm[i] == self._norm[j]:
                self._relations[key] = judge.Relation.DUPLICATE
            else:
                a, b = self.facts[i].text, self.facts[j].text
                self._relations[key] = judge.judge(a, b, float(self.cosine[i, j])).relation
        return self._relations[key]

    def duplicate_pairs(self) -> list[Pair]:
        return self._select(lambda i, j, s: self.relation(i, j) is judge.Relation.DUPLICATE)

    def opposite_pairs(self) -> list[Pair]:
        return self._select(lambda i, j, s: self.relation(i, j) is judge.Relation.OPPOSITE)

    def paraphrase_pairs(self) -> list[Pair]:
        def linked(i: int, j: int, score: float) -> bool:
            if self.relation(i, j) is judge.Relation.DUPLICATE:
                return True
            a, b = self.facts[i].text, self.facts[j].text
            if similarity.different_names(a, b) or numbers.numbers_differ(a, b):
                return False
            if self.relation(i, j) is judge.Relation.OPPOSITE:
                return False  # "pays upfront" / "never asks for an invoice" are not opposites
            least = PARAPHRASE_MIN_RU if self._russian[i] or self._russian[j] else PARAPHRASE_MIN_EN
            return score >= least
        return self._select(linked)

    def _select(self, linked: Callable[[int, int, float], bool]) -> list[Pair]:
        out = []
        for i, j, score in self._pairs:
            if linked(i, j, score):
                out.append(Pair(self.facts[i], self.facts[j], score, self.relation(i, j)))
        return out


def components(pairs: Sequence[Pair]) -> list[list[Fact]]:
    """Groups of records joined by the pairs (2 or more), oldest first within a group."""
    parent: dict[str, str] = {}
    by_id: dict[str, Fact] = {}

    def find(x: str) -> str:
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for pair in pairs:
        for fact in (pair.a, pair.b):
            by_id[fact.id] = fact
            parent.setdefault(fact.id, fact.id)
        ra, rb = find(pair.a.id), find(pair.b.id)
        if ra != rb:
            parent[rb] = ra
    groups: dict[str, list[Fact]] = {}
    for fid, fact in by_id.items():
        groups.setdefault(find(fid), []).append(fact)
    out = [sorted(g, key=lambda f: (f.created_at, f.id)) for g in groups.values() if len(g) > 1]
    out.sort(key=lambda g: (g[0].created_at, g[0].id))
    return out


def best_score(pairs: Sequence[Pair], group: Sequence[Fact]) -> float:
    ids = {f.id for f in group}
    scores = [p.score for p in pairs if p.a.id in ids and p.b.id in ids]
    return max(scores) if scores else 0.0


def medoid(pairs: Sequence[Pair], group: Sequence[Fact]) -> Fact:
    """The member most similar to the rest (the best single wording of the group)."""
    ids = {f.id for f in group}
    total = {f.id: 0.0 for f in group}
    for p in pairs:
        if p.a.id in ids and p.b.id in ids:
            total[p.a.id] += p.score
            total[p.b.id] += p.score
    return max(group, key=lambda f: (total[f.id], f.mention_count, f.created_at))
