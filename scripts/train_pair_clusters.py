"""Group natasha's navec word vectors into word classes for the relation model
(``wave_agent/world/pair_clusters.npy``, read by ``world.word_classes``): k-means over a seeded sample of the Russian lemmas
navec knows, with no labels and no entity set read, so an unseen author's verb or noun
("тружусь", "пашу", "дислокация") falls in the class of the words the labelled sets taught
("работать", "жить"). The pair model reads the class of the words on the tree between two
ends beside the words themselves (``pairs._syntax``). Not shipped (docs/benchmarks.md, round
twenty-three): run it to try the classes again.

    PYTHONPATH=$PWD HF_HUB_OFFLINE=1 python scripts/train_pair_clusters.py [--k 256]
"""

from __future__ import annotations

import argparse
import re
import sys

import numpy as np

from wave_agent.world import word_classes
from wave_agent.world.morphology import Models


def lemmas(sample: int, seed: int) -> list[str]:
    import pymorphy3

    morph = pymorphy3.MorphAnalyzer(lang="ru")
    words = [w for w in Models.get().embedding.vocab.words if re.fullmatch(r"[а-я]{3,}", w)]
    rng = np.random.default_rng(seed)
    picked = rng.choice(len(words), size=min(sample, len(words)), replace=False)
    return sorted({w for i in picked if (w := words[int(i)])
                   == morph.parse(w)[0].normal_form.replace("ё", "е")})


def kmeans(x: np.ndarray, k: int, seed: int, rounds: int = 20) -> np.ndarray:
    """Spherical k-means: unit centroids, each word to the nearest by cosine."""
    rng = np.random.default_rng(seed)
    centroids = x[rng.choice(len(x), size=k, replace=False)]
    for _ in range(rounds):
        nearest = np.argmax(x @ centroids.T, axis=1)
        for j in range(k):
            members = x[nearest == j]
            if len(members):
                c = members.sum(axis=0)
                centroids[j] = c / np.linalg.norm(c)
    return centroids


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--k", type=int, default=256)
    parser.add_argument("--sample", type=int, default=60_000)
    parser.add_argument("--seed", type=int, default=23)
    args = parser.parse_args()
    embedding = Models.get().embedding
    words = lemmas(args.sample, args.seed)
    x = np.array([embedding.get(w) for w in words], dtype="float32")
    x /= np.linalg.norm(x, axis=1, keepdims=True)
    centroids = kmeans(x, args.k, args.seed)
    np.save(word_classes.CLUSTERS_PATH, centroids.astype("float16"))
    print(f"saved {word_classes.CLUSTERS_PATH}: {args.k} classes from {len(words)} lemmas",
          file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
