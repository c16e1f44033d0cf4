"""Layer 4 of quarantine: a small learned check for instruction-like sentences.

Hashed character n-grams (2-4, within words, lower case) and word unigrams, L2-normalised,
into logistic regression trained on the tuning part of bench/data/quarantine (never on the
kept-aside part). The weights (``model.npz``, float16, 2^15 buckets) ship in the repo; no
download. It is asked only when a sentence carries a cue of an order (an imperative, a
standing scope, the agent named, secrets as the object, or a disguise; a question needs more
than an imperative), so the words a person uses innocently cannot trip it alone.

    python -m wave_agent.policy.quarantine.classifier   # retrains model.npz from tuning.json
"""

from __future__ import annotations

import itertools
import json
import re
import sys
import zlib
from functools import lru_cache
from pathlib import Path

import numpy as np

from wave_agent.policy.quarantine import rules

BUCKETS = 1 << 15
THRESHOLD = 0.8  # the lowest with no false positive out of fold (5-fold CV on the tuning part, gated)
MODEL = Path(__file__).with_name("model.npz")
_TOKEN = re.compile(r"\w+", re.UNICODE)


def _buckets(text: str) -> tuple[np.ndarray, np.ndarray]:
    """The hashed feature indices of ``text`` and their L2-normalised counts."""
    words = _TOKEN.findall(text.casefold())
    keys: list[str] = []
    for word in words:
        padded = f" {word} "
        keys.append("w:" + word)
        for n in (2, 3, 4):
            keys.extend(padded[i:i + n] for i in range(len(padded) - n + 1))
    keys.extend("b:" + a + " " + b for a, b in itertools.pairwise(words))
    if not keys:
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.float32)
    index, counts = np.unique(np.fromiter((zlib.crc32(k.encode()) & (BUCKETS - 1) for k in keys),
                                          dtype=np.int64, count=len(keys)), return_counts=True)
    values = counts.astype(np.float32)
    return index, values / float(np.sqrt((values * values).sum()))


def features(text: str) -> np.ndarray:
    vec = np.zeros(BUCKETS, dtype=np.float32)
    index, values = _buckets(text)
    vec[index] = values
    return vec


@lru_cache(maxsize=1)
def _model() -> tuple[np.ndarray, float] | None:
    if not MODEL.exists():
        return None
    with np.load(MODEL) as data:
        return data["w"].astype(np.float32), float(data["b"])


def probability(text: str) -> float:
    model = _model()
    if model is None:
        return 0.0
    w, b = model
    index, values = _buckets(text)
    return float(1.0 / (1.0 + np.exp(-(float(w[index] @ values) + b))))


def flag(read: list[rules.Cues], disguise: tuple[str, ...] = ()) -> tuple[str, float] | None:
    """(the sentence, its probability) when a sentence with a cue of an order scores high.

    ``read`` holds the sentences the rules read with their cues; a disguise opens every one.
    """
    best: tuple[str, float] | None = None
    for c in read:
        if not (disguise or c.imperative or c.addressed or c.obliged):
            continue
        sentence = c.sentence.strip()
        if sentence.endswith("?") and not (c.scope or c.secret or c.addressed or c.obliged):
            continue  # "could you tell me more?": a question in a conversation, not a standing order
        p = probability(sentence)
        if p >= THRESHOLD and (best is None or p > best[1]):
            best = (sentence, p)
    return best


def train(texts: list[str], labels: list[int], *, epochs: int = 400, l2: float = 1e-4,
          rate: float = 2.0) -> tuple[np.ndarray, float]:
    x = np.stack([features(t) for t in texts])
    y = np.asarray(labels, dtype=np.float32)
    w = np.zeros(BUCKETS, dtype=np.float32)
    b = 0.0
    for _ in range(epochs):
        p = 1.0 / (1.0 + np.exp(-(x @ w + b)))
        grad = p - y
        w -= rate * (x.T @ grad / len(y) + l2 * w)
        b -= rate * float(grad.mean())
    return w, b


def main() -> None:  # pragma: no cover - a maintenance script
    from wave_agent.policy.quarantine.normalise import normalise

    root = Path(__file__).resolve().parents[3] / "bench" / "data" / "quarantine"
    items = json.loads((root / "tuning.json").read_text(encoding="utf-8"))
    texts, labels = [], []
    for item in items:
        seen = normalise(item["text"]).text
        positive = int(item["label"] == "instruction")
        texts.append(seen)
        labels.append(positive)
        if not positive:  # sentences of notes are notes too
            for sentence in rules.sentences(seen)[1:]:
                texts.append(sentence)
                labels.append(0)
    w, b = train(texts, labels)
    np.savez_compressed(MODEL, w=w.astype(np.float16), b=np.float32(b))
    sys.stdout.write(f"trained on {len(texts)} texts from {root / 'tuning.json'} -> {MODEL}\n")


if __name__ == "__main__":  # pragma: no cover
    main()
