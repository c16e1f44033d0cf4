"""Per-model calibration of cosine similarity: one scale for every threshold in Wave.

The writer's near-duplicate and contradiction thresholds, maintenance's paraphrase groups,
recall's MMR and the reflection's relevance were measured on all-MiniLM-L6-v2 cosines, where
unrelated English sentences score ~0.1 and paraphrases 0.87-0.97. multilingual-e5-small squeezes
everything into the top of the range (unrelated 0.80, paraphrases 0.94-0.99), so its raw cosines
cannot be read against those thresholds. ``rescale`` maps a model's raw cosine onto the MiniLM-like
scale: ``(cosine - floor) / (1 - floor)``; MiniLM's floor is 0 (identity, nothing changes for it).

The thresholds that still differ per model are in ``Calibration``; the figures they come from
are in docs/benchmarks.md ("Multilingual embedding model"), on the pairs in
``tests/unit/policy/hygiene_pairs.py``.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True, slots=True)
class Calibration:
    model: str
    # Raw cosine mapped to 0 (around the median of unrelated sentences).
    floor: float = 0.0
    # Combined (cosine + lexical) score at which a text repeats a record.
    duplicate_min_en: float = 0.80
    duplicate_min_ru: float = 0.72
    opposite_min_en: float = 0.78
    opposite_min_ru: float = 0.72
    # Rescaled cosine the leftover words of a near-duplicate must reach.
    residual_min: float = 0.42
    residual_min_one_word: float = 0.5
    # Embed leftover words as queries (e5's advice for symmetric similarity): as passages,
    # e5 puts "likes"/"moved" as close as "developer"/"engineer".
    residual_as_query: bool = False
    # Maintenance's paraphrase groups (looser than a duplicate).
    paraphrase_min_en: float = 0.55
    paraphrase_min_ru: float = 0.45
    # Recall's MMR: a candidate this similar to one already picked is a copy.
    mmr_duplicate: float = 0.8
    # The reflection's "bears on the question on its own" (query against passage).
    relevant: float = 0.3

    def rescale(self, cosine: float) -> float:
        if self.floor == 0.0:
            return cosine
        return (cosine - self.floor) / (1.0 - self.floor)

    def rescale_array(self, cosines: np.ndarray) -> np.ndarray:
        if self.floor == 0.0:
            return cosines
        return (cosines - self.floor) / (1.0 - self.floor)


MINILM = Calibration("all-MiniLM-L6-v2")
E5_SMALL = Calibration(
    "multilingual-e5-small",
    floor=0.75,
    duplicate_min_en=0.765,
    duplicate_min_ru=0.6,
    opposite_min_en=0.65,
    opposite_min_ru=0.6,
    residual_min=0.42,
    residual_min_one_word=0.54,
    residual_as_query=True,
    # Paraphrase sets (seed 002's Igor-prepays, EN and RU; green tea) against unrelated
    # records: EN paraphrases link at 0.55-0.80 (one member at 0.435-0.545), unrelated at most
    # 0.42; RU links at 0.443 and 0.656, unrelated at most 0.436 (a thin margin: the groups
    # are connected components, so each member needs one link).
    paraphrase_min_en=0.5,
    paraphrase_min_ru=0.44,
    # "I love green tea more than any other drink" / "My favourite drink is green tea" 0.76,
    # different drinks at most 0.54 (rescaled); MiniLM's 0.8 let two paraphrases through.
    mmr_duplicate=0.7,
    # Reflection material by meaning alone (no shared stem): "What does the user think about
    # volcanoes?" reaches 0.31 against the work-history records of the reflect tests, a
    # question about the same records 0.26; 0.4 keeps the unrelated question empty.
    relevant=0.4,
)
_KNOWN = {MINILM.model: MINILM, E5_SMALL.model: E5_SMALL}
DEFAULT = E5_SMALL


def for_model(model_name: str) -> Calibration:
    """The calibration measured for this model; any other model gets MiniLM's (a
    sentence-transformers model with a MiniLM-like spread of cosines)."""
    from archive.embedder import canonical_model_name

    return _KNOWN.get(canonical_model_name(model_name), MINILM)


def of(embedder: object) -> Calibration:
    """The calibration of an embedder (anything with ``model_name``)."""
    name = getattr(embedder, "model_name", None)
    return for_model(name) if isinstance(name, str) else DEFAULT
