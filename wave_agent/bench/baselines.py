"""Plain retrieval baselines over the same turns Wave remembers: BM25, dense, and context RRF.

- ``bm25``: ``bm25s`` over each turn's text, English stop words and a PyStemmer English stemmer.
- ``dense``: cosine over the same embedding model Wave's archive uses (vectors L2-normalised).
- ``context_rrf``: each turn is indexed together with its neighbouring turns in the same
  session (one before, one after); BM25 and dense rankings over those windows fused by RRF.

Each index answers ``search(query, k) -> list[int]`` (document positions, best first).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

import numpy as np

RRF_K = 60


class Encoder(Protocol):
    def encode_sync(self, texts: Sequence[str]) -> np.ndarray: ...


def stopwords_for(language: str) -> list[str]:
    """bm25s's stop words for a Snowball language name; none where it has no list (Polish)."""
    from bm25s import stopwords

    found = getattr(stopwords, f"STOPWORDS_{language.upper()}", None)
    if language == "english":
        found = stopwords.STOPWORDS_EN
    return list(found or ())


class BM25Index:
    """``language``: a Snowball stemmer name (PyStemmer: english, russian, polish...)."""

    def __init__(self, texts: Sequence[str], language: str = "english") -> None:
        import bm25s
        import Stemmer

        self._bm25s = bm25s
        self._stemmer = Stemmer.Stemmer(language)
        self._stopwords = stopwords_for(language)
        self._n = len(texts)
        tokens = bm25s.tokenize(list(texts), stopwords=self._stopwords, stemmer=self._stemmer,
                                show_progress=False)
        self._index = bm25s.BM25()
        self._index.index(tokens, show_progress=False)

    def search(self, query: str, k: int) -> list[int]:
        if not self._n:
            return []
        words = self._bm25s.tokenize(
            [query], stopwords=self._stopwords, stemmer=self._stemmer, show_progress=False,
            return_ids=False,
        )[0]
        known = [w for w in words if w in self._index.vocab_dict]
        if not known:
            return []
        docs, scores = self._index.retrieve([known], k=min(k, self._n), show_progress=False)
        return [int(d) for d, s in zip(docs[0], scores[0], strict=True) if s > 0]


class DenseIndex:
    def __init__(self, vectors: np.ndarray) -> None:
        self._matrix = np.asarray(vectors, dtype=np.float32)

    def search_vector(self, vector: np.ndarray, k: int) -> list[int]:
        if not len(self._matrix):
            return []
        scores = self._matrix @ np.asarray(vector, dtype=np.float32)
        k = min(k, len(scores))
        top = np.argpartition(-scores, k - 1)[:k]
        return [int(i) for i in top[np.argsort(-scores[top])]]


def rrf(rankings: Sequence[Sequence[int]], k: int, rrf_k: int = RRF_K) -> list[int]:
    scores: dict[int, float] = {}
    for ranking in rankings:
        for rank, doc in enumerate(ranking):
            scores[doc] = scores.get(doc, 0.0) + 1.0 / (rrf_k + rank + 1)
    return sorted(scores, key=lambda d: -scores[d])[:k]


def context_windows(texts: Sequence[str], groups: Sequence[object], width: int = 1) -> list[str]:
    """Each text joined with up to ``width`` neighbours on each side within the same group."""
    windows = []
    for i in range(len(texts)):
        parts = [
            texts[j]
            for j in range(max(0, i - width), min(len(texts), i + width + 1))
            if groups[j] == groups[i]
        ]
        windows.append(" ".join(parts))
    return windows


class ContextRRF:
    """BM25 + dense over neighbour windows, fused by reciprocal rank."""

    def __init__(self, windows: Sequence[str], window_vectors: np.ndarray) -> None:
        self._bm25 = BM25Index(windows)
        self._dense = DenseIndex(window_vectors)

    def search(self, query: str, query_vector: np.ndarray, k: int, depth: int = 50) -> list[int]:
        return rrf([self._bm25.search(query, depth), self._dense.search_vector(query_vector, depth)], k)
