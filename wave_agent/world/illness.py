"""An illness named as fully as the person says it, from natasha's parse (round forty, issue 29).

The rules first kept an illness by the adjectives the tree hangs on its noun and the genitive
nouns after it ("диабет второго типа"). The older authors' labels name it more fully than that
in four ways the tree loses, counted in docs/benchmarks.md ("h/cond40"):

- an adjective right before the noun that agrees with it but that the parser hung elsewhere
  ("МРТ: межпозвоночная грыжа", where it takes the adjective for a clause of its own);
- a name in the genitive ("болезнь Паркинсона");
- a number before the genitive ("диабет 2 типа", "гипертония 2 степени");
- the code of a spinal disc written after it ("грыжа L5-S1", which the tokenizer cuts into
  "L", "5-S", "1").

The fuller name keeps the shorter ones a label may use as aliases: the noun, the adjectives
with the noun, the noun with what follows ("сахарный диабет второго типа" is also "сахарный
диабет" and "диабет второго типа"), so a later statement's "диабет" still finds it.
"""

from __future__ import annotations

import re

from wave_agent.world.attribute_words import ENDED_PHRASES
from wave_agent.world.reading import Reading
from wave_agent.world.sentence import Sentence, Token

# "L5-S1", "l5 s1", "L4-L5", "C5-C6": a disc between two vertebrae, as written
_DISC = re.compile(r"[A-Za-z]\d{1,2}(?:\s?[-–]\s?|\s)[A-Za-z]?\d{1,2}")


def agrees(adjective: Token, noun: Token) -> bool:
    """An adjective right before a noun in its case and number (and gender, singular)."""
    if adjective.pos != "ADJ" or not adjective.text.islower() or adjective.case != noun.case:
        return False
    if adjective.number and noun.number and adjective.number != noun.number:
        return False
    return not (noun.number != "Plur" and adjective.gender and noun.gender
                and adjective.gender != noun.gender)


def numbered_genitive(s: Sentence, noun: Token) -> list[Token]:
    """"диабет 2 типа", "гипертония 2 степени": a number and a genitive noun right after the
    illness, the noun hung on the illness or on the number; else nothing."""
    at = s.position[noun.id]
    after = s.tokens[at + 1:at + 3]
    if len(after) == 2 and after[0].pos == "NUM" and after[0].text.isdigit() and (
            after[1].pos == "NOUN" and after[1].case == "Gen"
            and after[1].head in (noun.id, after[0].id) and not s.preposition(after[1])):
        return after
    return []


def named_genitive(s: Sentence, noun: Token) -> list[Token]:
    """"болезнь Паркинсона": a capitalised name in the genitive hung on the illness."""
    at = s.position[noun.id]
    if at + 1 < len(s.tokens):
        t = s.tokens[at + 1]
        if t.pos == "PROPN" and t.case == "Gen" and t.head == noun.id and t.text[:1].isupper():
            return [t]
    return []


def disc(text: str, s: Sentence, noun: Token, at: int) -> str:
    """The disc code written right after the noun or what follows it (``at``: its last
    token), upper-cased ("l5-s1" -> "L5-S1"); else ""."""
    stop = s.tokens[at].stop
    found = _DISC.match(text, stop + 1) if text[stop:stop + 1] == " " else None
    if found is None:
        return ""
    code = found.group(0)
    return re.sub(r"\s?[-–]\s?", "-", code).upper() if ("-" in code or "–" in code) else (
        code.replace(" ", "-").upper())


# the verbs an illness is said to be over by, as its subject or object ("цистит прошёл",
# "гастрит отпустил", "грыжа рассосалась", "гастрит вылечил", "мочекаменную сняли")
_OVER = frozenset({"пройти", "отпустить", "зажить", "рассосаться", "вылечить", "вылечиться",
                   "излечиться", "победить", "снять"})


def said_over(reading: Reading, illness: str) -> bool:
    """The statement says the illness is over (round forty): a word of its name hangs on a
    verb of passing or cure no "не" denies ("цистит прошёл", "рекса вылечили от
    дирофиляриоза"), or its clause says it is no more ("цистита больше нет"). The older
    authors' labels give no one a cured illness (27 of 29 statements that say one over)."""
    words = reading.words
    names = {w for n in (illness, *next((m.aliases for m in reading.mentions
                                          if m.name == illness), ())) for w in n.lower().split()}
    for i, w in enumerate(words):
        if w.lemma not in names or w.pos not in ("NOUN", "PROPN"):
            continue
        head = words[w.head] if 0 <= w.head < len(words) else None
        if head is not None and head.lemma in _OVER and not any(
                u.head == w.head and u.lemma == "не" for u in words):
            return True
        clause = []
        for u in words[i + 1:]:
            if u.sentence != w.sentence or u.pos == "PUNCT":
                break
            clause.append(u.text)
        if ENDED_PHRASES.search(" ".join(clause)):
            return True
    return False


def aliases(head: str, before: list[str], tail: str) -> tuple[str, ...]:
    """The shorter names of "<before> <head> <tail>" a label may use: the noun, the
    adjectives with it, the noun with its tail."""
    out = [head]
    if before and tail:
        out += [" ".join([*before, head]), f"{head} {tail}"]
    return tuple(out)


__all__ = ["agrees", "aliases", "disc", "named_genitive", "numbered_genitive", "said_over"]
