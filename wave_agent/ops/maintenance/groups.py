"""Which of a person's records say the same thing: near-duplicates, paraphrases, opposites.

One pass per person: the records are embedded together (one batch), each pair gets the
writer's combined similarity (cosine + stemmed-word Jaccard, ``policy.judge``), and linked
pairs form groups (connected components). Used by the near-duplicate, generalisation and
health reports, so the three agree.

Thresholds: a near-duplicate is what the writer itself would have confirmed instead of
adding (``judge`` says DUPLICATE); a paraphrase is looser (the same thing in other words:
"Igor always pays in advance" / "With Igor we work on prepayment" score 0.56-0.85 on
all-MiniLM-L6-v2, unrelated sentences at most 0.47; measured in docs/benchmarks.md) and never
joins records naming different people, carrying different numbers or opposite claims.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from graph.models import Fact
from wave_agent.policy import calibration, judge, numbers, similarity
from wave_agent.policy.calibration import Calibration

if TYPE_CHECKING:
    from archive.embedder import Embedder
    from archive.store import ArchiveStore

log = logging.getLogger("wave.maintenance.groups")

# Paraphrase thresholds are per model (``policy.calibration``; MiniLM's: 0.55 EN, 0.45 RU).
# Pairs below this combined score are not examined further (cheap pre-filter).
EXAMINE_MIN = 0.4


def verdict_min(cal: Calibration) -> float:
    """The lowest score at which ``judge`` can call a pair DUPLICATE or OPPOSITE."""
    return min(cal.duplicate_min_en, cal.duplicate_min_ru, cal.opposite_min_en,
               cal.opposite_min_ru)


@dataclass(frozen=True, slots=True)
class Pair:
    a: Fact
    b: Fact
    score: float
    relation: judge.Relation


class Similarities:
    """Pairwise similarities of one person's records (computed once, asked many times).

    Vectorised: cosines from one matrix product, stemmed-word Jaccard from a word-incidence
    matrix product, the writer's ``combined`` score on the whole matrix; ``judge`` (stemming,
    polarity) runs only on pairs close enough for its verdict to matter."""

    def __init__(self, facts: Sequence[Fact], vectors: np.ndarray,
                 cal: Calibration = calibration.DEFAULT) -> None:
        """``vectors``: the records' passage embeddings by the model ``cal`` was measured on."""
        self.cal = cal
        self._verdict_min = verdict_min(cal)
        self.facts = list(facts)
        n = len(self.facts)
        self._norm = [similarity.normalise(f.text) for f in self.facts]
        self._russian = np.array([similarity.is_cyrillic(f.text) for f in self.facts], dtype=bool)
        self.cosine = (vectors @ vectors.T) if n else np.zeros((0, 0), dtype=np.float32)
        scores = self._combined(cal.rescale_array(self.cosine))
        same_text = np.zeros((n, n), dtype=bool)
        by_text: dict[str, list[int]] = {}
        for i, key in enumerate(self._norm):
            by_text.setdefault(key, []).append(i)
        for members in by_text.values():
            for a in members:
                same_text[a, members] = True
        upper = np.triu(np.ones((n, n), dtype=bool), k=1)
        rows, cols = np.nonzero(upper & ((scores >= EXAMINE_MIN) | same_text))
        self._pairs = [(int(i), int(j), round(float(scores[i, j]), 4))
                       for i, j in zip(rows, cols, strict=True)]
        self._relations: dict[tuple[int, int], judge.Relation] = {}
        self._residual: dict[tuple[int, int], float] = {}

    def _combined(self, cosine: np.ndarray) -> np.ndarray:
        """``similarity.combined`` for every pair at once (of rescaled cosines)."""
        n = len(self.facts)
        if n == 0:
            return np.zeros((0, 0))
        stems = [similarity.content_stems(f.text) for f in self.facts]
        vocabulary = {w: k for k, w in enumerate(sorted(set().union(*stems)))}
        incidence = np.zeros((n, max(1, len(vocabulary))), dtype=np.float32)
        for i, words in enumerate(stems):
            incidence[i, [vocabulary[w] for w in words]] = 1.0
        inter = incidence @ incidence.T
        sizes = incidence.sum(axis=1)
        union = sizes[:, None] + sizes[None, :] - inter
        lexical = np.where(union > 0, inter / np.maximum(union, 1), 1.0)
        russian = self._russian[:, None] | self._russian[None, :]
        english = np.maximum(cosine, 0.7 * cosine + 0.3 * lexical)
        cyrillic = np.maximum(lexical, 0.5 * cosine + 0.5 * lexical)
        return np.where(russian, cyrillic, english)

    @classmethod
    async def of(cls, embedder: Embedder, facts: Sequence[Fact], *, archive: ArchiveStore | None = None
                 ) -> Similarities:
        """Vectors from the archive where it has them (same model: its collection is keyed by
        the model), the rest embedded now; an archive that fails is simply not used."""
        if not facts:
            return cls([], np.zeros((0, 1), dtype=np.float32))
        stored: dict[str, np.ndarray] = {}
        if archive is not None:
            try:
                stored = await archive.vectors(facts[0].user_id, [f.id for f in facts])
            except Exception as exc:
                log.info("similarities: archive vectors unavailable (%s); embedding", exc)
        missing = [f for f in facts if f.id not in stored]
        if missing:
            fresh = await embedder.embed([f.text for f in missing])
            stored.update({f.id: np.asarray(v, dtype=np.float32)
                           for f, v in zip(missing, fresh, strict=True)})
        vectors = np.stack([stored[f.id] for f in facts]).astype(np.float32)
        found = cls(facts, vectors, calibration.of(embedder))
        await found._embed_residuals(embedder)
        return found

    async def _embed_residuals(self, embedder: Embedder) -> None:
        """The cosine of each close pair's own words, as the writer's judge gets it: without
        it "likes Berlin" and "visited Berlin" would be one record here (one batch)."""
        wanted: dict[tuple[int, int], tuple[str, str]] = {}
        for i, j, score in self._pairs:
            a, b = self.facts[i].text, self.facts[j].text
            if self._verdict_matters(i, j, score) and judge.needs_residual(a, b):
                wanted[(i, j)] = judge.residuals(a, b)
        if not wanted:
            return
        texts = list(dict.fromkeys(t for pair in wanted.values() for t in pair))
        embed = embedder.embed_query if self.cal.residual_as_query else embedder.embed
        vectors = dict(zip(texts, await embed(texts), strict=True))
        for key, (left, right) in wanted.items():
            self._residual[key] = float(np.dot(vectors[left], vectors[right]))

    def relation(self, i: int, j: int) -> judge.Relation:
        key = (i, j)
        if key not in self._relations:
            if self._norm[i] == self._norm[j]:
                self._relations[key] = judge.Relation.DUPLICATE
            else:
                a, b = self.facts[i].text, self.facts[j].text
                self._relations[key] = judge.judge(
                    a, b, float(self.cosine[i, j]), self._residual.get(key), self.cal).relation
        return self._relations[key]

    def _verdict_matters(self, i: int, j: int, score: float) -> bool:
        """Below every duplicate/opposite threshold ``judge`` can only say UNRELATED or
        SAME_FRAME; skip the (slow) call."""
        return score >= self._verdict_min or self._norm[i] == self._norm[j]

    def duplicate_pairs(self) -> list[Pair]:
        return self._select(lambda i, j, s: self._verdict_matters(i, j, s)
                            and self.relation(i, j) is judge.Relation.DUPLICATE)

    def opposite_pairs(self) -> list[Pair]:
        return self._select(lambda i, j, s: self._verdict_matters(i, j, s)
                            and self.relation(i, j) is judge.Relation.OPPOSITE)

    def paraphrase_pairs(self) -> list[Pair]:
        def linked(i: int, j: int, score: float) -> bool:
            matters = self._verdict_matters(i, j, score)
            if matters and self.relation(i, j) is judge.Relation.DUPLICATE:
                return True
            russian = self._russian[i] or self._russian[j]
            least = self.cal.paraphrase_min_ru if russian else self.cal.paraphrase_min_en
            if score < least:
                return False
            a, b = self.facts[i].text, self.facts[j].text
            if different_subjects(a, b) or numbers.numbers_differ(a, b):
                return False
            # "pays upfront" / "never asks for an invoice" are not opposites
            return not (matters and self.relation(i, j) is judge.Relation.OPPOSITE)
        return self._select(linked)

    def _select(self, linked: Callable[[int, int, float], bool]) -> list[Pair]:
        out = []
        for i, j, score in self._pairs:
            if linked(i, j, score):
                out.append(Pair(self.facts[i], self.facts[j], score, self.relation(i, j)
                                if self._verdict_matters(i, j, score)
                                else judge.Relation.UNRELATED))
        return out


_CAPITALISED = re.compile(r"[A-ZА-ЯЁ][^\W\d_]*")
_FIRST_WORD = re.compile(r"^\W*([^\W\d_]+)")


def _initial(text: str) -> str | None:
    """The stem of the sentence's first word when it is capitalised and not a stopword."""
    match = _FIRST_WORD.match(text)
    if not match or not _CAPITALISED.fullmatch(match.group(1)):
        return None
    stems = similarity.content_stems(match.group(1))
    return next(iter(stems)) if stems else None


def _inner_names(text: str) -> frozenset[str]:
    """Stems of capitalised words past the first one (names; a first word is capitalised
    anyway)."""
    match = _FIRST_WORD.match(text)
    rest = text[match.end():] if match else text
    return similarity.names(rest)


def different_subjects(a: str, b: str) -> bool:
    """Two texts about different people or things ("Anna works at Google" / "Igor works at
    Google"), without reading an ordinary first word as a name ("Счета Игорь не просит" /
    "Игорь платит по предоплате" are both about Igor).

    A name inside one text that the other lacks differs; two capitalised first words differ
    when neither appears anywhere in the other text (both read as names swapped)."""
    stems_a, stems_b = similarity.content_stems(a), similarity.content_stems(b)
    if (_inner_names(a) - stems_b) or (_inner_names(b) - stems_a):
        return True
    first_a, first_b = _initial(a), _initial(b)
    return (first_a is not None and first_b is not None and first_a != first_b
            and first_a not in stems_b and first_b not in stems_a)


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
