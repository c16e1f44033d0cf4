"""The writer's own kinds of ordinary text, made from a set of texts, for the quarantine's
meaning layer to learn as notes and for ``wave bench quarantine`` to count false positives on.

The writer stores more than what people type: the extraction's statements about the person,
in the third person ("The user feels exhausted", "Пользователь живёт в Берлине",
"Użytkownik pracuje w Google"), the person's own first-person sentences kept as said, and
long forwarded texts. A layer trained only on what people write reads "the user ..." as talk
about the agent. This module makes those kinds from any texts:

- ``extracted``: the offline extractor's facts of each text (``extract_heuristic``), each
  moved to the third person the way the extraction prompt writes them (``third_person``);
  first-person facts are kept beside, as the writer stores them when the extraction keeps a
  sentence as said;
- ``forwarded``: consecutive turns of a conversation joined into one long text.

The person shift is grammar, not a phrase list: English pronouns and the verb's third person,
Russian pronouns and the verb inflected by pymorphy3, Polish pronouns and the first person's
endings (-em / -am / -ę, -łem / -łam).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from functools import lru_cache
from typing import Any

from wave_agent.llm.offline_extract import extract_heuristic, language

_EN_FIXED = {"i'm": "the user is", "i am": "the user is", "i've": "the user has", "i'd": "the user would",
             "i'll": "the user will", "i was": "the user was", "i have": "the user has", "i do": "the user does",
             "i don't": "the user doesn't", "i didn't": "the user didn't", "i can't": "the user can't",
             "i can": "the user can", "i will": "the user will", "i would": "the user would",
             "i could": "the user could", "i should": "the user should", "i must": "the user must",
             "i did": "the user did", "i had": "the user had", "i might": "the user might"}
_EN_SUBJECT = re.compile(r"\b(?:i(?:'m|'ve|'d|'ll| am| was| have| do| don't| didn't| can't| can| will| would| could"
                         r"| should| must| did| had| might)?)\b(?:\s+(?:also|even|just|still|really|never|always|"
                         r"usually|often|sometimes|totally|finally|recently|actually|\w+ly))?(?:\s+([a-z]+))?",
                         re.IGNORECASE)
_EN_PRONOUN = {"my": "the user's", "me": "the user", "myself": "themselves", "mine": "the user's"}
_EN_PRONOUNS = re.compile(r"\b(?:my|me|myself|mine)\b", re.IGNORECASE)
_EN_NO_S = frozenset({"to", "a", "an", "the", "and", "or", "but", "not", "so", "too", "it", "this", "that", "in",
                      "on", "at", "for", "with", "about", "as"})

_RU_POSSESSIVE = re.compile(r"\b(?:мой|моя|моё|мое|мои|моего|моей|моему|моим|моих|моими|мою|моём|моем)\s+(\w+)",
                            re.IGNORECASE)
_RU_PRONOUN = {"я": "пользователь", "меня": "пользователя", "мне": "пользователю", "мной": "пользователем",
               "мною": "пользователем"}
_PL_POSSESSIVE = re.compile(r"\b(?:mój|moja|moje|moi|mojego|mojej|mojemu|moim|moją|moich|moimi)\s+(\w+)",
                            re.IGNORECASE)
_PL_PRONOUN = {"ja": "użytkownik", "mnie": "użytkownika", "mi": "użytkownikowi", "mną": "użytkownikiem"}
_WORD = re.compile(r"\w+", re.UNICODE)


def _en_third(verb: str) -> str:
    low = verb.lower()
    if low in _EN_NO_S or low.endswith(("ed", "ing", "s")):
        return verb
    if re.search(r"[^aeiou]y$", low):
        return verb[:-1] + "ies"
    if low.endswith(("sh", "ch", "x", "o", "z")):
        return verb + "es"
    return verb + "s"


def _english(text: str) -> str:
    def subject(m: re.Match[str]) -> str:
        whole = m.group(0)
        verb = m.group(1)
        head = whole[: m.start(1) - m.start(0)] if verb else whole
        parts = head.split(None, 1)
        first = parts[0].lower()
        key = first if first in _EN_FIXED else " ".join(head.lower().split()[:2])
        if key in _EN_FIXED:
            rest = head[len(head.split()[0]):] if first in _EN_FIXED else " ".join(head.split()[2:])
            lead = _EN_FIXED[key] + (" " + rest.strip() if rest.strip() else "")
            return lead + (" " + verb if verb else "")
        if first != "i":
            return whole
        rest = " ".join(head.split()[1:])
        lead = "the user" + (" " + rest if rest else "")
        return lead + (" " + _en_third(verb) if verb else "")

    out = _EN_SUBJECT.sub(subject, text)
    out = _EN_PRONOUNS.sub(lambda m: _EN_PRONOUN[m.group(0).lower()], out)
    return out


@lru_cache(maxsize=1)
def _morph() -> Any:
    import pymorphy3

    return pymorphy3.MorphAnalyzer()


def _russian(text: str) -> str:
    out = _RU_POSSESSIVE.sub(lambda m: f"{m.group(1)} пользователя", text)
    morph = _morph()

    def word(m: re.Match[str]) -> str:
        w = m.group(0)
        low = w.lower()
        if low in _RU_PRONOUN:
            return _RU_PRONOUN[low]
        parse = morph.parse(low)[0]
        if "VERB" in parse.tag and "1per" in parse.tag and "sing" in parse.tag:
            shifted = parse.inflect({"3per"})
            if shifted is not None:
                return str(shifted.word)
        return w

    out = _WORD.sub(word, out)
    if "пользовател" not in out.lower():
        out = "Пользователь: " + out[:1].lower() + out[1:]
    return out


def _polish(text: str) -> str:
    out = _PL_POSSESSIVE.sub(lambda m: f"{m.group(1)} użytkownika", text)
    shifted = False

    def word(m: re.Match[str]) -> str:
        nonlocal shifted
        w = m.group(0)
        low = w.lower()
        if low in _PL_PRONOUN:
            shifted = True
            return _PL_PRONOUN[low]
        for ending, third in (("jestem", "jest"), ("łem", "ł"), ("łam", "ła"), ("uję", "uje"), ("iję", "ije")):
            if low.endswith(ending) and len(low) > len(ending) + (0 if ending == "jestem" else 1):
                shifted = True
                return w[: len(w) - len(ending)] + third
        if low == "mam":
            shifted = True
            return "ma"
        return w

    out = _WORD.sub(word, out)
    if not shifted:
        # the verb's first person ("lubię", "czytam", "wiem") is read off the sentence's first word
        first = _WORD.search(out)
        if first is not None and re.fullmatch(r"\w{2,}(?:ę|am|em)", first.group(0).lower()):
            w = first.group(0)
            low = w.lower()
            third = w[:-1] if low.endswith(("ię", "am", "em")) else w[:-1] + "e"
            out = out[: first.start()] + third.lower() + out[first.end():]
            shifted = True
    if "użytkownik" not in out.lower():
        out = "Użytkownik " + out[:1].lower() + out[1:]
    return out


def third_person(text: str) -> str:
    """``text`` as the extraction writes a fact: about "the user" in the third person."""
    lang = language(text)
    if lang == "ru":
        out = _russian(text)
    elif lang == "pl":
        out = _polish(text)
    else:
        out = _english(text)
        if not re.search(r"\bthe user\b", out, re.IGNORECASE):
            out = "The user: " + out
    return out[:1].upper() + out[1:]


def is_third_person(text: str) -> bool:
    """Whether ``text`` is a statement about "the user" as the extraction writes one."""
    return bool(re.search(r"\b(?:the user|пользовател\w*|użytkownik\w*)\b", text, re.IGNORECASE))


def extracted(texts: Iterable[str], *, max_facts: int = 6) -> list[str]:
    """The facts the offline extractor finds in ``texts``, each as said and in the third
    person, without repeats and without the texts themselves."""
    given = set(texts := list(texts))
    out: dict[str, None] = {}
    for text in texts:
        for fact in extract_heuristic(text, max_facts=max_facts):
            for form in (fact.text, third_person(fact.text)):
                if form not in given and len(form.split()) >= 2:
                    out.setdefault(form, None)
    return list(out)


def forwarded(turns: Sequence[str], *, size: int = 8) -> list[str]:
    """Consecutive turns joined into long texts, as a forwarded conversation is pasted."""
    return ["\n".join(turns[i:i + size]) for i in range(0, max(len(turns) - size + 1, 0), size)]
