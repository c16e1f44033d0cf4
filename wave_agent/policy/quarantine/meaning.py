"""Layer 5 of quarantine: what the text means, read from the e5 embedding the writer computes.

The writer embeds every text it stores (multilingual-e5-small, as a passage) before it judges
it; this layer reads that vector together with the structural cues of the layers before it
(a phrase from the list, the rules' verdict, a disguise, and each cue: the agent addressed or
obliged, an order, a standing scope, a rule override, secrets as the object, an order against
the person, a redefined role) and gives the probability that the text instructs the agent.
The rules alone learned the shapes of the set they were written against; the embedding tells
a person's own wish ("отвечай мне покороче") and talk about AI at work from an order aimed at
the agent, which the cues alone cannot.

The model (``meaning.npz``: a small network or a logistic regression, float32 arrays, no
pickle) is trained by ``scripts/train_quarantine.py`` on every author's set (the tuning parts
of sets A and B, all of sets C-L: bench/data/quarantine and its second/ ... eleventh/), with the
writer's own ordinary text as more negatives (chat turns of two LoCoMo conversations, the
extraction's third-person statements of them and of the notes, long forwarded texts:
``bench.quarantine_extracted``; LongMemEval's everyday chat: ``bench.quarantine_chat``), so it judges every text, cue or not. When it carries a window
model (``ww``, ``wb``: ``windows``), the best window scores of the text join the input, so one
order inside pasted material is not diluted by the mean vector; with ``picked`` it also reads
who is addressed (``windows.context``: where the best window sits, the frame around it, person
and mood), so an order aimed at the assistant and one quoted in a person's own text differ. The threshold is the lowest
whose false positives, each author scored by a model that never saw that author, stay within
the script's limits (with ``languages``, one for each of Russian, Polish and English, as
``date_clauses.language`` reads the text), and a lower one applies when the phrase list or the rules already flag
the text (their verdict is evidence the network weighs, not proof). When it carries exemplars
(``bank``: the authored sets' texts as unit vectors, int8, with their labels, and the tuning
months' own lines as notes: ``bench.quarantine_chat.month_exemplars``), the network also
reads how the text's nearest exemplars are labelled (``near``): a new author's order sits among
other authors' orders in the embedding even when the network's boundary, drawn through hard
notes, puts it on the wrong side. ``meaning_a.npz`` and
``meaning_b.npz`` are the older recipe trained on one set only, for ``wave bench quarantine``
to score each on the other.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np

from wave_agent.policy.date_clauses import language
from wave_agent.policy.quarantine import rules, windows
from wave_agent.policy.quarantine.normalise import Normalised

HERE = Path(__file__).parent
MODELS = {"both": HERE / "meaning.npz", "a": HERE / "meaning_a.npz", "b": HERE / "meaning_b.npz"}
DIM = 384
READS = "multilingual-e5-small"  # the one embedding model the layer was trained on
CUES = ("addressed", "obliged", "imperative", "scope", "override", "secret", "against_person", "role",
        "agent_rule", "you_scoped", "audience")
# a model saved before the ``audience`` cue and the windows' reader block (no ``reads`` in its file)
# reads the text without them: the columns it never saw are dropped, so the code runs either model
_NEWER = (DIM + 3 + CUES.index("audience"),)
_NEWER_BLOCK = (windows.COUNT + 5 + windows.CUE_NAMES.index("audience"),
                windows.COUNT + windows.CONTEXT - 2, windows.COUNT + windows.CONTEXT - 1)
NEAR = 15  # the exemplars a text's vote reads
SHARP = 0.02  # the softmax temperature over their cosines: the closest count most


def near(similarity: np.ndarray, labels: np.ndarray, count: int = NEAR) -> np.ndarray:
    """For each row of ``similarity`` (texts by exemplars, cosines), the vote of its ``count``
    nearest exemplars (``labels`` 1 for an instruction; weighted by softmax(cosine / SHARP)) and
    the margin: the closest instruction's cosine minus the closest note's. Two columns."""
    sims = np.atleast_2d(similarity)
    count = min(count, sims.shape[1])
    top = np.argpartition(-sims, count - 1, axis=1)[:, :count]
    close = np.take_along_axis(sims, top, axis=1)
    weight = np.exp((close - close.max(axis=1, keepdims=True)) / SHARP)
    vote = (weight * labels[top]).sum(axis=1) / weight.sum(axis=1)
    orders = np.where(labels[None, :] == 1, sims, -2.0).max(axis=1)
    notes = np.where(labels[None, :] == 0, sims, -2.0).max(axis=1)
    return np.stack([vote, orders - notes], axis=1).astype(np.float32)


@dataclass(frozen=True, slots=True)
class Model:
    layers: tuple[tuple[np.ndarray, np.ndarray], ...]  # (weights, bias) per layer, ReLU between
    threshold: float
    cued_threshold: float  # for a text the phrase list or the rules flag: the cues count too
    window: tuple[np.ndarray, float] | None = None  # the window model (``windows``), if trained with one
    # the columns of [window scores, ``windows.context``] it reads (who is addressed); None: the scores only
    picked: np.ndarray | None = None
    # (threshold, cued threshold) for a text in Russian, Polish or English (``date_clauses.language``),
    # each chosen on that language's held-out notes; None: the two above for every text
    by_language: dict[str, tuple[float, float]] | None = None
    reads_audience: bool = True  # trained with the ``audience`` cue and the windows' reader block
    # the exemplars (unit vectors, float32) and their labels (1: an instruction), read by ``near``
    bank: tuple[np.ndarray, np.ndarray] | None = None

    def limit(self, text: str, cued: bool) -> float:
        """The probability at or above which ``text`` is held (``cued``: the phrase list or the
        rules flag it)."""
        pair = (self.by_language or {}).get(language(text), (self.threshold, self.cued_threshold))
        return pair[1] if cued else pair[0]

    def features(self, vector: np.ndarray, seen: Normalised, phrase: bool, verdict: bool,
                 present: frozenset[str] | None = None) -> np.ndarray:
        """The network's input: ``features``, the windows' scores when the model reads them, and
        the nearest exemplars' vote and margin (``near``) when it carries a bank."""
        x = features(vector, seen, phrase, verdict, present)
        if not self.reads_audience:
            x = np.delete(x, _NEWER)
        if self.window is not None:
            x = np.concatenate([x, self._block(seen)])
        if self.bank is None:
            return x
        unit = np.asarray(vector, dtype=np.float32).ravel()
        unit = unit / max(float(np.linalg.norm(unit)), 1e-9)
        # einsum, not BLAS: a BLAS call leaves its threads spinning on the other core after it
        # returns (measured: twice the CPU of the call itself per write); this stays on one
        return np.concatenate([x, near(np.einsum("ij,j->i", self.bank[0], unit), self.bank[1])[0]])

    def _block(self, seen: Normalised) -> np.ndarray:
        """The windows' scores, and who is addressed when the model reads it (``picked``)."""
        assert self.window is not None
        parts = windows.windows(seen.text)
        p = windows.scores(parts, *self.window)
        if self.picked is None:
            return windows.summary(p)
        block = np.concatenate([windows.summary(p),
                                windows.context(parts, p, len(seen.text), reader=self.reads_audience)])
        if not self.reads_audience:
            block = np.delete(block, _NEWER_BLOCK)
        return np.asarray(block[self.picked])

    def probability(self, x: np.ndarray) -> float:
        h = x.astype(np.float32)
        for i, (w, b) in enumerate(self.layers):
            h = h @ w + b
            if i < len(self.layers) - 1:
                h = np.maximum(h, 0.0)
        return float(1.0 / (1.0 + np.exp(-float(np.ravel(h)[0]))))


def structure(seen: Normalised, phrase: bool, verdict: bool, present: frozenset[str] | None = None) -> np.ndarray:
    """The structural features: a phrase from the list, the rules' verdict, a disguise, each cue
    (``present``: the cues ``rules.read_all`` found, the same as ``rules.cues`` of the text)."""
    if present is None:
        c = rules.cues(seen.text)
        present = frozenset(name for name in CUES if getattr(c, name) is not None)
    flags = [phrase, verdict, bool(seen.notes)] + [name in present for name in CUES]
    return np.asarray(flags, dtype=np.float32)


def features(vector: np.ndarray, seen: Normalised, phrase: bool, verdict: bool,
             present: frozenset[str] | None = None) -> np.ndarray:
    return np.concatenate([np.asarray(vector, dtype=np.float32).ravel(), structure(seen, phrase, verdict, present)])


def vector_for(model_name: str, vector: np.ndarray) -> np.ndarray | None:
    """``vector`` when it comes from the model this layer reads, else None (another
    embedding model's vectors mean nothing to it: layers 1-4 judge alone)."""
    return vector if model_name == READS and np.shape(vector) == (DIM,) else None


@lru_cache(maxsize=4)
def model(which: str = "both") -> Model | None:
    """The trained model (``both``, or ``a`` / ``b`` trained on one set only); None if absent."""
    path = MODELS[which]
    if not path.exists():
        return None
    with np.load(path, allow_pickle=False) as data:
        count = int(data["count"])
        layers = tuple((data[f"w{i}"].astype(np.float32), data[f"b{i}"].astype(np.float32))
                       for i in range(count))
        threshold = float(data["threshold"])
        cued = float(data["cued_threshold"]) if "cued_threshold" in data else threshold
        window = (data["ww"].astype(np.float32), float(data["wb"])) if "ww" in data else None
        picked = data["picked"].astype(np.int64) if "picked" in data else None
        by_language = None
        if "languages" in data:
            by_language = {str(lang): (float(t), float(c))
                           for lang, (t, c) in zip(data["languages"], data["language_thresholds"], strict=True)}
        bank = None
        if "bank" in data:  # int8 unit vectors, one scale a row
            vectors = data["bank"].astype(np.float32) * data["bank_scale"].astype(np.float32)[:, None]
            bank = (vectors, data["bank_labels"].astype(np.float32))
        return Model(layers, threshold, cued, window, picked, by_language, "reads" in data, bank)


def save(path: Path, layers: list[tuple[np.ndarray, np.ndarray]], threshold: float,
         cued_threshold: float, window: tuple[np.ndarray, float] | None = None,
         picked: np.ndarray | None = None, by_language: dict[str, tuple[float, float]] | None = None,
         bank: tuple[np.ndarray, np.ndarray] | None = None) -> None:
    """Write a model (float16 weights; ``bank``: the exemplars' unit vectors and labels, kept as
    int8 with one scale a row, about 0.4 KB an exemplar)."""
    arrays: dict[str, np.ndarray] = {"count": np.asarray(len(layers)), "threshold": np.asarray(threshold),
                                     "cued_threshold": np.asarray(cued_threshold),
                                     "reads": np.asarray(CUES, dtype="<U16")}
    if by_language:
        arrays["languages"] = np.asarray(sorted(by_language), dtype="<U8")
        arrays["language_thresholds"] = np.asarray([by_language[k] for k in sorted(by_language)], dtype=np.float64)
    if picked is not None:
        arrays["picked"] = np.asarray(picked, dtype=np.int16)
    if window is not None:
        arrays["ww"], arrays["wb"] = window[0].astype(np.float16), np.asarray(window[1], dtype=np.float32)
    if bank is not None:
        scale = np.maximum(np.abs(bank[0]).max(axis=1), 1e-9) / 127.0
        arrays["bank"] = np.round(bank[0] / scale[:, None]).astype(np.int8)
        arrays["bank_scale"], arrays["bank_labels"] = scale.astype(np.float32), bank[1].astype(np.int8)
    for i, (w, b) in enumerate(layers):
        arrays[f"w{i}"], arrays[f"b{i}"] = w.astype(np.float16), b.astype(np.float32)
    np.savez_compressed(path, **arrays)  # type: ignore[arg-type]
