"""Whether a statement brings news of someone else's city (round thirty-eight): ``decide``'s
``moved``, which stands for ``news`` there."""

from __future__ import annotations

import re

_SINCE_YESTERDAY = re.compile(r"\b(?:od\s+wczoraj|со?\s+вчерашнего\s+дня|since\s+yesterday)\b", re.I)
_CLAUSE = re.compile(r"[^,.;!?—–\n]+")
_PLACE_SAID = re.compile(r"(?<![\w-])(?:в|во|w|we|in|to|do)\s+[A-ZА-ЯЁŁŚŻŹĆ]")
_NOT = frozenset({"не", "nie", "not", "never", "никогда"})


def tells_move(text: str) -> bool:
    """Whether a statement brings news of someone else's city (``decide``'s ``moved``): a verb
    of moving said as done or doing, not as an infinitive or denied ("переехала в Уфу",
    "przeprowadziła się", not "переезжать наотрез отказывается", "ни разу никуда не
    переезжала"); a date it holds from ("с этой недели", "od wczoraj"); or a change word
    ("теперь", "уже не") in the clause that names the place. A change word of another clause
    ("а теперь жалуется", "начала ходить на йогу") or "again" ("znowu narzeka na deszcz w
    Gdańsku") is not news of the city: over the tuning months each labelled change of another
    person's city is said so, and the three contradictions said with another word of news
    are not (round thirty-eight)."""
    from wave_agent.world import attribute_words as W
    from wave_agent.world.morphology import _morph

    if W.SINCE.search(text) or _SINCE_YESTERDAY.search(text):
        return True
    words = re.findall(r"\w+", text.lower())
    for i, w in enumerate(words):
        if i and (words[i - 1] in _NOT or (i > 1 and words[i - 2] in _NOT)):
            continue
        if not re.fullmatch(r"[а-яё]+", w):
            if w in W.MOVE:  # "przeprowadziła", "moved"
                return True
            continue
        parses = _morph().parse(w)
        if parses and parses[0].tag.POS in ("VERB", "GRND", "PRTS") and (
                parses[0].normal_form in W.MOVE):
            return True  # (not "переезжать" as an infinitive)
    return any(W.CHANGE.search(clause.group()) and _PLACE_SAID.search(clause.group())
               for clause in _CLAUSE.finditer(text))


__all__ = ["tells_move"]
