"""How a new text relates to one existing record: the writer's decision, as a pure function.

Checked in this order, because each later test would misread the earlier cases:
1. different names ("Igor" vs "Anna"): different subjects, never a duplicate;
2. same words, other numbers: a supersession candidate;
3. opposite polarity ("I drink coffee" / "I don't drink coffee"): a contradiction;
4. combined similarity over the threshold: a near-duplicate (confirm, don't add), unless
   the words that differ are unrelated ("Igor likes Berlin" / "Igor moved to Berlin": the
   embedding of the two leftover words, "likes" / "moved", is far apart), or the new text has
   several words of its own (it says more than the record). A false merge loses
   the new statement; a false split only costs a second record that maintenance can merge,
   so the doubt goes to the split.

The thresholds were measured on RU/EN paraphrase and non-paraphrase pairs
(``tests/unit/policy/hygiene_pairs.py``; figures in docs/benchmarks.md, "write path").
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from wave_agent.policy import numbers, polarity, similarity
from wave_agent.policy.calibration import DEFAULT as DEFAULT_CALIBRATION
from wave_agent.policy.calibration import Calibration
from wave_agent.policy.quantities import canonical

# all-MiniLM-L6-v2's thresholds; each model's own are in ``policy.calibration`` (these are
# MiniLM's entry there).
# Combined similarity at or above which a text is the same statement in other words.
DUPLICATE_MIN_EN = 0.80
DUPLICATE_MIN_RU = 0.72
# A negated text this close to a record contradicts it (same subject, opposite claim).
OPPOSITE_MIN_EN = 0.78
OPPOSITE_MIN_RU = 0.72
# "Same frame": the words without names and numbers overlap this much ("I live in Moscow" /
# "I now live in Kazan"); only used when the person said outright that something changed.
SAME_FRAME_MIN = 0.5
# ...and the texts this similar overall ("Я живу в Москве" / "Теперь я живу в Казани": 0.51).
EXPLICIT_SAME_FRAME_MIN = 0.45
# Cosine the leftover words of a near-duplicate must reach: synonyms ("developer" /
# "engineer" 0.56, "использовать" / "взять" 0.62) pass; swapped facts ("likes" / "moved"
# 0.35, "gym" / "pool" 0.38) do not. One word against one word needs more.
RESIDUAL_MIN = 0.42
RESIDUAL_MIN_ONE_WORD = 0.5
# A new text with this many content words the record lacks says more than the record: it is
# stored, not folded into it (paraphrases measured at most 2 such words).
NEW_WORDS_MAX = 4


class Relation(StrEnum):
    DUPLICATE = "duplicate"
    NUMBER_CHANGE = "number_change"
    OPPOSITE = "opposite"
    SAME_FRAME = "same_frame"
    UNRELATED = "unrelated"


@dataclass(frozen=True, slots=True)
class Verdict:
    relation: Relation
    similarity: float
    detail: str = ""


def similarity_of(
    old: str, new: str, cosine: float, cal: Calibration = DEFAULT_CALIBRATION
) -> float:
    """The combined score of a raw model cosine (rescaled by the model's calibration)."""
    russian = similarity.is_cyrillic(new) or similarity.is_cyrillic(old)
    return round(similarity.combined(cal.rescale(cosine), similarity.lexical(old, new),
                                     russian=russian), 4)


def _frame(text: str) -> frozenset[str]:
    return similarity.content_stems(text, numbers=False) - similarity.names(text)


def residuals(old: str, new: str) -> tuple[str, str]:
    """The content words of each text that the other lacks (by stem), in order."""
    def leftover(a: str, b: str) -> str:
        others = similarity.content_stems(b)
        language = similarity.language_of(a)
        return " ".join(w for w in similarity.words(canonical(a))
                        if w not in similarity.STOPWORDS
                        and similarity.concept_stem(w, language) not in others)
    return leftover(old, new), leftover(new, old)


def needs_residual(old: str, new: str) -> bool:
    """Both texts have words of their own: ``judge`` wants ``residual_cosine`` for them."""
    left, right = residuals(old, new)
    return bool(left and right)


def judge(
    old: str, new: str, cosine: float, residual_cosine: float | None = None,
    cal: Calibration = DEFAULT_CALIBRATION,
) -> Verdict:
    """``cosine``: the model's raw cosine of the two texts (as passages); ``residual_cosine``:
    raw cosine of the embeddings of ``residuals(old, new)`` (as queries when
    ``cal.residual_as_query``); without it a pair over the threshold is a duplicate whatever
    its leftover words. ``cal``: the calibration of the model that made the cosines."""
    score = similarity_of(old, new, cosine, cal)
    russian = similarity.is_cyrillic(new) or similarity.is_cyrillic(old)
    duplicate_min = cal.duplicate_min_ru if russian else cal.duplicate_min_en
    opposite_min = cal.opposite_min_ru if russian else cal.opposite_min_en
    same_frame = similarity.jaccard(_frame(old), _frame(new)) >= SAME_FRAME_MIN
    if similarity.different_names(old, new):
        if same_frame:
            return Verdict(Relation.SAME_FRAME, score, "other names")
        return Verdict(Relation.UNRELATED, score)
    if numbers.same_words_other_numbers(old, new):
        return Verdict(Relation.NUMBER_CHANGE, score,
                       f"{', '.join(numbers.written(old))} -> {', '.join(numbers.written(new))}")
    left, right = residuals(old, new)
    close_words = max(len(left.split()), len(right.split())) < NEW_WORDS_MAX
    if polarity.opposite(old, new) and score >= opposite_min and close_words:
        # a negation somewhere in two long, loosely similar texts ("can't wait") is not a
        # contradiction: the two must say nearly the same words
        return Verdict(Relation.OPPOSITE, score, "one says the opposite of the other")
    if numbers.numbers_differ(old, new):
        return Verdict(Relation.SAME_FRAME if same_frame else Relation.UNRELATED, score)
    if score >= duplicate_min:
        if len(right.split()) >= NEW_WORDS_MAX:
            return Verdict(Relation.SAME_FRAME if same_frame else Relation.UNRELATED, score,
                           f"the new text says more: {right!r}")
        if residual_cosine is not None:
            one_word = len(left.split()) == 1 and len(right.split()) == 1
            floor = cal.residual_min_one_word if one_word else cal.residual_min
            if cal.rescale(residual_cosine) < floor:
                return Verdict(Relation.SAME_FRAME if same_frame else Relation.UNRELATED, score,
                               f"other words: {left!r} / {right!r}")
        return Verdict(Relation.DUPLICATE, score)
    if same_frame:
        return Verdict(Relation.SAME_FRAME, score)
    return Verdict(Relation.UNRELATED, score)


def stated_change(old: str, new: str, verdict: Verdict, *, told: bool = False) -> str | None:
    """Why ``new`` replaces ``old`` when the person said a change, or None.

    ``told``: the caller said outright that it is a replacement (``explicit_supersede``).
    Otherwise the new text must carry a change marker ("теперь", "больше не", "już nie",
    "no longer"): with it, a contradiction ("Я пью кофе" / "Я больше не пью кофе") or a
    record in the same frame ("Я живу в Москве" / "Теперь я живу в Казани") is a change,
    not a second truth. A marker does not move a record about someone else: when the old
    text opens with a name the new one lacks ("Анна живёт в Берлине" / "Игорь теперь живёт
    в Берлине"), it is not a change of that record.
    """
    marker = numbers.has_change_marker(new)
    if not told and marker is None:
        return None
    if verdict.relation is Relation.NUMBER_CHANGE:
        return marker or "told"
    if verdict.relation is Relation.OPPOSITE:
        return marker or "told"
    if verdict.relation is not Relation.SAME_FRAME or verdict.similarity < EXPLICIT_SAME_FRAME_MIN:
        return None
    if not told:
        first = similarity.words(old)[:1]
        subject = {similarity.concept_stem(w, similarity.language_of(old)) for w in first}
        if subject & (similarity.names(old) - similarity.content_stems(new)):
            return None
    return marker or "told"
