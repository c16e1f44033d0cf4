"""Word classes over natasha's navec vectors, for the relation model (``world.pairs``): the
tree's words between two ends can be read by their class beside the words themselves, so a verb
or noun no labelled set used ("приобрели") is read as the words of its class the sets taught
("купили"). The classes are k-means centroids of navec lemmas, no labels read
(``scripts/train_pair_clusters.py``), kept in ``pair_clusters.npy``; with no table in the tree
(not shipped: docs/benchmarks.md, round twenty-three) no word has a class and the pairs are
read as before.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Iterable
from functools import lru_cache
from pathlib import Path
from typing import Any

CLUSTERS_PATH = Path(__file__).with_name("pair_clusters.npy")
_lock = threading.Lock()
_centroids: list[Any] = []  # [array] once loaded; [None] when no table is in the tree


def _centroid_matrix() -> Any:
    with _lock:
        if not _centroids:
            import numpy as np

            _centroids.append(np.load(CLUSTERS_PATH).astype("float32")
                              if CLUSTERS_PATH.exists() else None)
        return _centroids[0]


@lru_cache(maxsize=65_536)
def word_class(lemma: str) -> int | None:
    """The navec word class of a Russian lemma, None for a word navec does not know, a
    non-Russian word, or no table in the tree."""
    word = lemma.lower().replace("ё", "е")
    if not re.fullmatch(r"[а-я]{3,}", word):
        return None
    centroids = _centroid_matrix()
    if centroids is None:
        return None
    from wave_agent.world.morphology import Models

    vector = Models.get().embedding.get(word)
    if vector is None:
        return None
    return int((centroids @ vector).argmax())


def classes(prefix: str, lemmas: Iterable[str]) -> list[str]:
    """The pair features ``cl:<prefix>:<class>`` of the lemmas that have a class."""
    return [f"cl:{prefix}:{c}" for w in lemmas if (c := word_class(w)) is not None]


def target_classes(target: str, head: str | None, case: str) -> list[str]:
    """The target's class (a town beside the towns) and its head's with the target's
    preposition and case ("prep|Case")."""
    return classes("t", [target]) + [f"{c}|{case}" for c in classes(
        "thead_case", [head] if head else [])]


def path_classes(lca: str, between: list[str], fall: str) -> list[str]:
    """The class of the word both ends hang on (alone and with the labels down to the
    target, "obj>nmod") and of the words on the tree path between them."""
    return [*classes("lca", [lca]), *classes("pw", between),
            *(f"{c}|{fall}" for c in classes("lca_fall", [lca]))]


__all__ = ["CLUSTERS_PATH", "classes", "path_classes", "target_classes", "word_class"]
