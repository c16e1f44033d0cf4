"""Quarantine: text that reads like an instruction to the agent is held back for the person.

A fact is read into the prompt on every turn it is recalled, and a core-block line is in
every prompt; text from a web page or an e-mail that says "ignore previous instructions" must
not become a standing order. The check runs in layers, each measured by
``wave bench quarantine`` (docs/benchmarks.md):

1. ``normalise``: the text as an agent would read it (NFKC, zero-width characters removed,
   homoglyphs folded, leetspeak, spaced letters, base64 decoded, comment bodies as text);
2. ``phrases``: the phrase list (chat-template markup, "ignore previous instructions", …);
3. ``rules``: structure — who is addressed, imperative or obligation mood, standing scope,
   rule override, secrets as the object, orders against the person;
4. ``classifier``: hashed character n-grams and logistic regression trained on the tuning
   part of bench/data/quarantine (weights in ``model.npz``), asked only when a cue of an
   order is present;
5. ``meaning``: with the text's e5 embedding (the writer computes it for every text it
   stores), a model over the embedding and the structural cues of layers 1-3 decides, trained
   on the quarantine sets of ten writers, reading the text window by window too
   (``windows``: and who is addressed, the frame around the best window); it replaces the verdict of layers 3-4, which learned one set's shapes. An unmistakable hit of the phrase list (chat markup, a system role tag,
   "ignore previous instructions" said rather than quoted: ``floor``) holds whatever the model says.

When ``normalise`` undid a disguise (spaced letters, leetspeak, …: its ``notes``), the e5 vector
of the text as written means little; the caller embeds the undone text too (``undone``: what
to embed, None for almost every text) and passes it as ``undone_vector``, and the text is held
when either reading is held (docs/benchmarks.md, round thirty-nine, h/quar39).

Without a vector (the chat reply, before anything is embedded) layers 1-4 judge.
``detect`` names the phrase that looked like an instruction, so the person can judge it.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass

import numpy as np

from wave_agent.policy.quarantine import classifier, meaning, phrases, rules
from wave_agent.policy.quarantine.normalise import Normalised, normalise


@dataclass(frozen=True, slots=True)
class Suspicion:
    phrase: str
    why: str
    layer: str = "phrases"  # phrases | rules | classifier | meaning
    disguise: tuple[str, ...] = ()

    @property
    def reason(self) -> str:
        hidden = f"; hidden by {', '.join(self.disguise)}" if self.disguise else ""
        return f'looks like an instruction to the assistant: "{self.phrase}" ({self.why}{hidden})'

    @property
    def message_reason(self) -> str:
        """The reason of a part held because the message it came in reads as an instruction."""
        return "came in one message with an instruction; the message " + self.reason


# phrase-list hits that hold whatever the meaning layer says: chat markup, a prompt's section
# header, a system role tag, "new instructions", which no author's note in bench/data/quarantine
# carries, and "ignore previous instructions" said, not quoted. Quoted, it is what people who
# write about attacks do: 39 of the fourteen authors' 41 notes with it quote it, 26 of their 30
# orders do not; a jailbreak's name is a topic in notes (22) more often than an order's (15).
# Those are left to the layer, which reads the hit as an input and holds at a lower threshold:
# as a floor they took the Russian notes flagged from 3.2% to 7.8% in the held-out-author CV,
# which never counted the floor, and caught no order the model missed (docs/benchmarks.md, "The
# floor of the phrase list"). A standing order ("always answer …") was never here: a person's
# own wish has its words.
UNMISTAKABLE = frozenset({"chat-template markup", "a prompt section header", "a system role tag",
                          "new instructions for the assistant"})
UNLESS_QUOTED = frozenset({"an order to drop the assistant's instructions"})
_PAIRS = (("«", "»"), ("„", "“"), ("„", "”"), ("“", "”"), ("‘", "’"))
_OPEN_APOSTROPHE = re.compile(r"(?:^|(?<=[\s(\[:—–-]))'")


def quoted(text: str, phrase: str) -> bool:
    """Whether ``phrase`` sits inside quotation marks in ``text`` (an opening mark before it, not
    closed before it, and a closing one after it)."""
    at = text.find(phrase)
    if at < 0:
        return False
    before, after = text[:at], text[at + len(phrase):]
    if any(before.rfind(o) > before.rfind(c) and c in after for o, c in _PAIRS):
        return True
    if before.count('"') % 2 == 1 and '"' in after:
        return True
    opening = [m.start() for m in _OPEN_APOSTROPHE.finditer(before)]
    return bool(opening) and "'" not in before[opening[-1] + 1:] and "'" in after


def floor(found: phrases.Suspicion | None, text: str) -> bool:
    """Whether the phrase list's hit holds ``text`` whatever the meaning layer says."""
    if found is None:
        return False
    return found.why in UNMISTAKABLE or (found.why in UNLESS_QUOTED and not quoted(text, found.phrase))


def _shorten(phrase: str, limit: int = 90) -> str:
    phrase = " ".join(phrase.split())
    return phrase if len(phrase) <= limit else phrase[: limit - 1].rstrip() + "…"


def undone(text: str) -> str | None:
    """The text as ``normalise`` reads it when it undid a disguise, for the caller to embed as
    ``detect``'s ``undone_vector``; None when nothing was undone (almost every text)."""
    seen = normalise(text)
    return seen.text if seen.notes and seen.text != text else None


async def undone_vector(text: str, embed: Callable[[Sequence[str]], Awaitable[np.ndarray]],
                        model_name: str) -> np.ndarray | None:
    """The e5 vector of ``undone(text)`` from the caller's embedder (``embed``: its passage
    embedding, ``model_name``: its model), or None when nothing was undone or the embedder is not
    the one the meaning layer reads: one more embedding, only for a disguised text."""
    again = undone(text)
    if again is None or model_name != meaning.READS:
        return None
    return meaning.vector_for(model_name, np.asarray((await embed([again]))[0], dtype=np.float32))


def detect(text: str, *, vector: np.ndarray | None = None, layers: int = 5,
           model: str = "both", undone_vector: np.ndarray | None = None) -> Suspicion | None:
    """The first instruction-like phrase in ``text``, or None for an ordinary statement.

    ``vector``: the text's e5 passage embedding; with it (and ``layers`` 5) the meaning layer
    decides. ``layers`` (1-5) stops after that many layers; the benchmark measures each.
    ``model`` picks the meaning model (``a`` / ``b``: trained on one set, for the benchmark).
    ``undone_vector``: the e5 passage embedding of ``undone(text)``, when there is one; the
    meaning layer reads it too, and the text is held if either reading is.
    """
    seen: Normalised = normalise(text) if layers >= 2 else Normalised(text, ())
    found = phrases.detect(seen.text)
    learned = meaning.model(model) if vector is not None and layers >= 5 else None
    if found is not None and (learned is None or floor(found, seen.text)):
        return Suspicion(_shorten(found.phrase), found.why, "phrases", seen.notes)
    if learned is not None and vector is not None:
        hit, _, present = rules.read_all(seen.text)
        x = learned.features(vector, seen, found is not None, hit is not None, present)
        p = learned.probability(x)  # trained with the extraction's "The user feels exhausted" as a note
        if undone_vector is not None and seen.notes:  # the disguise undone, read by its meaning too
            again = learned.features(undone_vector, seen, found is not None, hit is not None, present)
            p = max(p, learned.probability(again))
        if p < learned.limit(seen.text, found is not None or hit is not None):
            return None
        why = f"reads as an instruction to the agent, p={p:.2f}"
        if found is not None:
            return Suspicion(_shorten(found.phrase), f"{found.why}; {why}", "meaning", seen.notes)
        if hit is not None:
            return Suspicion(_shorten(hit[0]), f"{hit[1]}; {why}", "meaning", seen.notes)
        first = rules.sentences(seen.text)[:1] or [seen.text]
        return Suspicion(_shorten(first[0], 60), why, "meaning", seen.notes)
    if layers < 3:
        return None
    hit, read = rules.analyse(seen.text)
    if hit is not None:
        return Suspicion(_shorten(hit[0]), hit[1], "rules", seen.notes)
    if layers >= 4:
        if seen.notes and not read:  # a disguise opens every sentence to the classifier
            read = [rules.cues(s) for s in rules.sentences(seen.text)[:20]]
        scored = classifier.flag(read, seen.notes)
        if scored is not None:
            sentence, p = scored
            return Suspicion(_shorten(sentence), f"reads like the instructions it was trained on, p={p:.2f}",
                             "classifier", seen.notes)
    return None


__all__ = ["Normalised", "Suspicion", "detect", "normalise", "undone", "undone_vector"]
