"""The windows of a text for the meaning layer: one order inside pasted material.

The e5 vector of a long text is a mean over all of it, so one injected sentence in a pasted
e-mail, chat log, invoice or CV moves it little. The meaning layer therefore also reads the
text window by window (each line, each sentence of a line): a small linear model over hashed
character n-grams (``classifier._buckets``, the same features as layer 4) scores every window,
and the highest scores, with how many windows there are, go to the network beside the vector.
The window model is trained multiple-instance style by ``scripts/train_quarantine.py``: every
window of a note is ordinary, and a text labelled instruction needs only one window to fire
(its best window is its positive, re-chosen each round); the network, which also sees the
whole text's vector, learns when a quoted attack in notes about AI work is only quoted.
Weights ship inside ``meaning.npz`` (``ww``, ``wb``); no vector beyond the writer's one is
computed, so the cost is a few n-gram look-ups a window.
"""

from __future__ import annotations

import itertools
import zlib
from functools import lru_cache

import numpy as np

from wave_agent.policy.quarantine import classifier, rules

MAX_WINDOWS = 48  # a long paste: its first 48 lines and sentences
COUNT = 4  # the features: best window, second best, share of windows above 0.5, log of the count


def windows(text: str) -> list[str]:
    """Each line of ``text`` and each sentence of a line with more than one (the normalised
    text, as the rules read it)."""
    out: list[str] = []
    for line in text.splitlines():
        line = line.strip()
        if not line:
            continue
        out.append(line)
        parts = rules.sentences(line)
        if len(parts) > 1:
            out.extend(parts)
        if len(out) >= MAX_WINDOWS:
            break
    return out[:MAX_WINDOWS] or [text]


@lru_cache(maxsize=65536)
def _word(word: str) -> np.ndarray:
    """The buckets of one (case-folded) word's keys: the word and its padded 2-4 grams."""
    padded = f" {word} "
    keys = ["w:" + word] + [padded[i:i + n] for n in (2, 3, 4) for i in range(len(padded) - n + 1)]
    return np.fromiter((zlib.crc32(k.encode()) & (classifier.BUCKETS - 1) for k in keys), dtype=np.int64,
                       count=len(keys))


def buckets(text: str) -> tuple[np.ndarray, np.ndarray]:
    """``classifier._buckets`` (the same indices and values), each word's keys hashed once."""
    words = classifier._TOKEN.findall(text.casefold())
    if not words:
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.float32)
    pairs = np.fromiter((zlib.crc32(("b:" + a + " " + b).encode()) & (classifier.BUCKETS - 1)
                         for a, b in itertools.pairwise(words)), dtype=np.int64, count=len(words) - 1)
    index, counts = np.unique(np.concatenate([*(_word(w) for w in words), pairs]), return_counts=True)
    values = counts.astype(np.float32)
    return index, values / float(np.sqrt((values * values).sum()))


def _ids(text: str) -> np.ndarray:
    words = classifier._TOKEN.findall(text.casefold())
    pairs = np.fromiter((zlib.crc32(("b:" + a + " " + b).encode()) & (classifier.BUCKETS - 1)
                         for a, b in itertools.pairwise(words)), dtype=np.int64, count=max(len(words) - 1, 0))
    return np.concatenate([*(_word(w) for w in words), pairs])


def scores(parts: list[str], w: np.ndarray, b: float) -> np.ndarray:
    """The window model's probability for each window (all windows' n-grams in one pass)."""
    ids = [_ids(part) for part in parts]
    owner = np.repeat(np.arange(len(parts)), [len(i) for i in ids])
    keys, counts = np.unique(owner * classifier.BUCKETS + np.concatenate(ids), return_counts=True)
    rows, values = keys // classifier.BUCKETS, counts.astype(np.float64)
    norms = np.sqrt(np.bincount(rows, weights=values * values, minlength=len(parts)))
    dots = np.bincount(rows, weights=w[keys % classifier.BUCKETS] * values, minlength=len(parts))
    logits = np.where(norms > 0, dots / np.maximum(norms, 1e-12), 0.0) + b
    return 1.0 / (1.0 + np.exp(-logits))


def summary(p: np.ndarray) -> np.ndarray:
    """The network's window features from the windows' probabilities."""
    ranked = np.sort(p)[::-1]
    second = ranked[1] if len(ranked) > 1 else 0.0
    return np.asarray([ranked[0], second, float(np.mean(p > 0.5)), np.log1p(len(p)) / 4], dtype=np.float32)
