"""A first guess at a fact's type when the caller gives none (``wave remember TEXT``).

The post-processor's extractor types what it extracts; this covers a person typing a note.
Cheap keyword cues in Russian and English; ``event`` when nothing matches.
"""

from __future__ import annotations

import re

from graph.models import FactType

_CUES: tuple[tuple[FactType, str], ...] = (
    (FactType.IDENTITY, r"\b(?:my name is|i am called|i live in|i was born|i work (?:as|at|for)|"
     r"i'm an? |меня зовут|я живу в|живу в|я родил|я работаю|работаю (?:в|на|как))"),
    (FactType.STATE, r"\b(?:i feel|i'm feeling|i am tired|i'm tired|i'm sick|currently|right now|"
     r"this week|я устал|чувствую|сейчас я|на этой неделе|болею)"),
    (FactType.COMMITMENT, r"\b(?:i will|i'll|i promised|deadline|by (?:monday|tuesday|wednesday|"
     r"thursday|friday|tomorrow)|remind me|обещал|пообещал|надо|нужно|до (?:понедельника|вторника|"
     r"среды|четверга|пятницы|завтра)|напомни|дедлайн|срок)"),
    (FactType.DECISION, r"\b(?:we decided|i decided|decided to|we chose|we agreed|решили|решил|"
     r"решила|договорились|выбрали)"),
    (FactType.RELATIONSHIP, r"\b(?:my (?:wife|husband|sister|brother|mother|mom|father|dad|son|"
     r"daughter|friend|boss|partner|colleague)|моя? (?:жена|муж|сестра|брат|мама|мать|папа|отец|"
     r"сын|дочь|друг|подруга|начальник|партн[её]р|коллега))"),
    (FactType.PREFERENCE, r"\b(?:i like|i love|i prefer|i hate|i don't like|i enjoy|favourite|"
     r"favorite|люблю|нравится|предпочитаю|не люблю|ненавижу|любим)"),
)
_COMPILED = tuple((kind, re.compile(cue, re.IGNORECASE)) for kind, cue in _CUES)


def guess_type(text: str) -> FactType:
    for kind, pattern in _COMPILED:
        if pattern.search(text):
            return kind
    return FactType.EVENT
