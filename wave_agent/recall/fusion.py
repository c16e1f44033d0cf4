"""Rank fusion (weighted RRF) and diversification (MMR). Pure functions over ids.

RRF uses ranks, not raw scores, so voices with incomparable scores (Lucene BM25, cosine,
recency, graph path counts) fuse without calibration. MMR then picks the final list greedily:
relevance minus redundancy with what is already picked, so five paraphrases of one record do
not push out four different ones.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence

import numpy as np

RRF_K = 60  # the usual constant (Cormack et al.); recall passes its own

_WORD = re.compile(r"\w+", re.UNICODE)


def weighted_rrf(
    rankings: Mapping[str, Sequence[str]],
    weights: Mapping[str, float],
    rrf_k: int = RRF_K,
    scale: Mapping[str, Mapping[str, float]] | None = None,
) -> tuple[dict[str, float], dict[str, dict[str, int]]]:
    """Fused score per id and each id's 1-based rank in each voice that returned it.

    ``scale``: per voice, a multiplier per id (missing ids count 1): how much of the voice's
    vote an item deserves beyond its rank."""
    scores: dict[str, float] = {}
    ranks: dict[str, dict[str, int]] = {}
    for voice, ranking in rankings.items():
        weight = weights.get(voice, 0.0)
        factors = (scale or {}).get(voice, {})
        for position, item in enumerate(ranking):
            ranks.setdefault(item, {}).setdefault(voice, position + 1)
            if weight > 0:
                scores[item] = scores.get(item, 0.0) + (
                    weight * factors.get(item, 1.0) / (rrf_k + position + 1))
            else:
                scores.setdefault(item, 0.0)
    return scores, ranks


def token_similarity(a: str, b: str) -> float:
    ta = {w.lower() for w in _WORD.findall(a)}
    tb = {w.lower() for w in _WORD.findall(b)}
    if not ta or not tb:
        return 0.0
    return len(ta & tb) / len(ta | tb)


def vector_similarity(vectors: Mapping[str, np.ndarray]) -> Callable[[str, str], float | None]:
    def similarity(a: str, b: str) -> float | None:
        va, vb = vectors.get(a), vectors.get(b)
        if va is None or vb is None:
            return None
        return float(np.dot(va, vb))

    return similarity


def mmr(
    scores: Mapping[str, float],
    k: int,
    similarity: Callable[[str, str], float],
    lam: float = 0.75,
    pool: int = 50,
    duplicate: float = 0.8,
    distinct: Callable[[str, str], bool] | None = None,
) -> list[str]:
    """Maximal marginal relevance over the ``pool`` best ids; relevance normalised to [0, 1].

    A candidate at least ``duplicate`` similar to one already picked is a paraphrase of it
    (the write path's duplicate threshold): it comes only once nothing else is left, so a tight
    spread of relevance cannot carry a second copy past a different record. ``distinct``:
    pairs that are never copies however alike (e.g. two prices: one is a change of the other)."""
    ordered = sorted(scores, key=lambda i: -scores[i])[:pool]
    if not ordered:
        return []
    top = scores[ordered[0]] or 1.0
    chosen: list[str] = []
    redundancy = {i: 0.0 for i in ordered}
    remaining = list(ordered)
    copies: set[str] = set()
    while remaining and len(chosen) < k:
        fresh = [i for i in remaining if i not in copies] or remaining
        best = max(fresh, key=lambda i: lam * scores[i] / top - (1.0 - lam) * redundancy[i])
        chosen.append(best)
        remaining.remove(best)
        for other in remaining:
            alike = similarity(best, other)
            redundancy[other] = max(redundancy[other], alike)
            if alike >= duplicate and not (distinct is not None and distinct(best, other)):
                copies.add(other)
    return chosen
