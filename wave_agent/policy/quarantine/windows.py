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

Who is addressed (``context``): an order is aimed at the assistant reading it, a quote is framed
by the person's own text. Beside the scores the network can read where the best window sits
and how much of the text it is, how the rest of the text (the frame: every window that does not
overlap the best one) scores, the rules' cues of the best window alone, and person and mood:
for Russian from pymorphy3's tags (an imperative, a second-person verb or pronoun, a first-person
one, a past tense), for English and Polish from their pronouns, in the best window and in the
frame. The network learns what they mean from the authors' sets; no rule reads them.
"""

from __future__ import annotations

import itertools
import re
import zlib
from functools import lru_cache
from typing import Any

import numpy as np

from wave_agent.policy.quarantine import classifier, rules

MAX_WINDOWS = 48  # a long paste: its first 48 lines and sentences
COUNT = 4  # the features: best window, second best, share of windows above 0.5, log of the count
CUE_NAMES = ("addressed", "obliged", "imperative", "scope", "override", "secret", "against_person", "role",
             "agent_rule", "you_scoped", "audience")
_AGENT_CUES = (CUE_NAMES.index("addressed"), CUE_NAMES.index("audience"))
PERSON = ("mood_imperative", "second_person", "first_person", "past")
# ``context``: position, share of the text, the frame's best and mean score, the gap; the best
# window's cues and person; the frame's person; the best score of a window that names an agent as
# its reader (``rules`` cues ``addressed``, ``audience``) and whether the frame has one
CONTEXT = 5 + len(CUE_NAMES) + 2 * len(PERSON) + 2
MORPH_WORDS = 40  # words read by pymorphy3 in a window (a long line: its first 40)
_WORD = re.compile(r"[^\W\d_]+", re.UNICODE)
_CYRILLIC = re.compile(r"[а-яё]")
# English and Polish pronouns (no tagger for them here): second person, first person
_SECOND = frozenset(("you", "your", "yours", "yourself", "ty", "cię", "ciebie", "tobie", "ci", "twój", "twoja",
                     "twoje", "twoim", "twojej", "wy", "was", "wam", "wasz", "wasza", "pan", "pani", "panu", "panią"))
_FIRST = frozenset(("i", "me", "my", "mine", "myself", "we", "us", "our", "ja", "mnie", "mi", "mój", "moja", "moje",
                    "moim", "mojej", "nas", "nam", "nasz", "nasza"))


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


@lru_cache(maxsize=1)
def _morph() -> Any:
    import pymorphy3

    return pymorphy3.MorphAnalyzer(lang="ru")


@lru_cache(maxsize=65536)
def _tags(word: str) -> tuple[bool, bool, bool, bool]:
    """(imperative, second person, first person, past) of one lower-cased word."""
    if not _CYRILLIC.search(word):
        return False, word in _SECOND, word in _FIRST, False
    tag = _morph().parse(word)[0].tag
    return "impr" in tag, "2per" in tag, "1per" in tag, "past" in tag


def person(part: str) -> np.ndarray:
    """``PERSON`` of a window: does any of its first words carry each."""
    out = np.zeros(len(PERSON), dtype=np.float32)
    for word in _WORD.findall(part.casefold())[:MORPH_WORDS]:
        out = np.maximum(out, np.asarray(_tags(word), dtype=np.float32))
    return out


def marks(part: str) -> np.ndarray:
    """A window's own cues (``CUE_NAMES``) and ``person``: what ``context`` reads of it."""
    c = rules.cues(part)
    return np.concatenate([np.asarray([getattr(c, n) is not None for n in CUE_NAMES], dtype=np.float32),
                           person(part)])


def agents(parts: list[str]) -> np.ndarray:
    """Whether each window names an agent as its reader (the ``addressed`` or ``audience`` cue)."""
    return np.asarray([rules.names_reader(part) for part in parts], dtype=bool)


def context(parts: list[str], p: np.ndarray, text_len: int, marked: np.ndarray | None = None,
            reader: bool = True) -> np.ndarray:
    """``CONTEXT`` features of who is addressed: where the best window sits and its share of the
    text, the frame's best and mean window score and the gap to the best, the best window's
    ``marks``, the frame's person (``marked``: every window's ``marks``, when known), and where
    an agent is named as the reader: the best such window's score, and whether it is in the frame
    (an order pasted below a header the window model scores higher still names its reader; zeros
    unless ``reader``: a model trained before them does not read them)."""
    best = int(np.argmax(p))
    top = parts[best]
    frame = [i for i, part in enumerate(parts) if top not in part and part not in top]
    rest = p[frame] if frame else np.zeros(1)
    own = marked[best] if marked is not None else marks(top)
    if marked is not None:
        around = marked[frame, len(CUE_NAMES):].max(axis=0) if frame else np.zeros(len(PERSON), dtype=np.float32)
    else:
        around = np.zeros(len(PERSON), dtype=np.float32)
        for i in frame:
            around = np.maximum(around, person(parts[i]))
    where = best / (len(parts) - 1) if len(parts) > 1 else 0.0
    head = [where, min(len(top) / max(text_len, 1), 1.0), float(rest.max()), float(rest.mean()),
            float(p[best] - rest.max())]
    if marked is not None:
        named = marked[:, _AGENT_CUES].max(axis=1) > 0
    else:
        named = agents(parts) if reader else np.zeros(len(parts), dtype=bool)
    read = [float(p[named].max()) if named.any() else 0.0, float(any(named[i] for i in frame))]
    return np.concatenate([np.asarray(head, dtype=np.float32), own, around,
                           np.asarray(read, dtype=np.float32)]).astype(np.float32)


def summary(p: np.ndarray) -> np.ndarray:
    """The network's window features from the windows' probabilities."""
    ranked = np.sort(p)[::-1]
    second = ranked[1] if len(ranked) > 1 else 0.0
    return np.asarray([ranked[0], second, float(np.mean(p > 0.5)), np.log1p(len(p)) / 4], dtype=np.float32)
