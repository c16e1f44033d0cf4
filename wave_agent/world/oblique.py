"""What pymorphy's dictionary says of a word the Russian reader meets after the parse, beyond
``morphology``'s names: the cases it can be in as a noun (the tagger says one, often wrong for a
firm's name: "с Уралтяжстроя" tagged instrumental), whether it counts ("двое"), and the
nominative of a place's or firm's name said after a preposition, and a firm's one-word name
whose case the common noun after it carries ("в Яндекс еде")."""

from __future__ import annotations

import re
from functools import lru_cache

from wave_agent.world.morphology import _capitalised_like, _morph


@lru_cache(maxsize=16_384)
def noun_cases(word: str) -> frozenset[str]:
    """The cases pymorphy reads the word in as a noun, its guesses included ("Уралмаша":
    gent; "Игорем": ablt), whatever the tagger said in the sentence."""
    return frozenset(p.tag.case for p in _morph().parse(word)
                     if p.tag.POS == "NOUN" and p.tag.case)


@lru_cache(maxsize=16_384)
def numeral(word: str) -> bool:
    """Whether pymorphy's first reading of the word is a numeral ("двое", "трое", "пять")."""
    parses = _morph().parse(word)
    return bool(parses) and "NUMR" in parses[0].tag


def oblique_nominative(word: str) -> str:
    """A place's or firm's name said after a preposition, in the nominative by its likeliest
    oblique noun reading that is no person's name ("с Трубмаша" -> Трубмаш, "на Норникеле" ->
    Норникель); the word as it is when it has none."""
    parses = [p for p in _morph().parse(word) if p.tag.POS == "NOUN" and p.tag.case != "nomn"
              and not {"Name", "Surn", "Patr"} & p.tag.grammemes]
    for parse in parses:
        inflected = parse.inflect({"nomn", "sing"}) or parse.inflect({"nomn"})
        if inflected is not None:
            return _capitalised_like(str(inflected.word), word)
    return word


# a preposition a workplace is said after in an oblique case ("в «Озоне»", "на Норникеле", "из
# Сбера", "со Сбером"), the opening quote it may carry
_AFTER_PREPOSITION = r"(?<![\w-])(?:в|во|на|из|изо|у|от|до|для|при|с|со|к|ко)\s+[«\"„“]?"


@lru_cache(maxsize=16_384)
def _singular_oblique(word: str) -> bool:
    """No singular nominative reading of any part of speech and a singular oblique noun reading
    ("Озоне", "Сбере"; not "Озон", nor "ВолгаТрансЛогистик", a genitive plural alone)."""
    parses = _morph().parse(word)
    return not any(p.tag.case == "nomn" and p.tag.number != "plur" for p in parses) and any(
        p.tag.POS == "NOUN" and p.tag.case not in (None, "nomn") and p.tag.number == "sing"
        for p in parses)


def workplace_nominative(text: str, name: str) -> str:
    """A firm's name as the text said it after a preposition, its last word in the nominative
    when that word has no nominative reading of its own ("первый день в «Озоне»" -> Озон, "в
    «Ак Барс Банке»" -> Ак Барс Банк, "в Т-Банке" -> Т-Банк, "во ВкусВилле" -> ВкусВилл), the
    letters said kept as they were; a closing "!" or "." said with it dropped. The name as it
    is otherwise (Latin, a nominative: "устроилась в «Северсталь»", or not said after a
    preposition: "Озоне" alone is no workplace said)."""
    name = name.rstrip("!?.,;:… ")
    cut = re.fullmatch(r"(.*[\s-])?([А-ЯЁ][А-ЯЁа-яё]*[а-яё])", name)
    if cut is None or not _singular_oblique(cut.group(2)):
        return name
    if not re.search(_AFTER_PREPOSITION + re.escape(name) + r"(?![\w-])", text, re.IGNORECASE):
        return name
    word = cut.group(2)
    said = oblique_nominative(word)
    if said == word:
        return name
    shared = 0  # the letters said as they were ("ВкусВилле" -> ВкусВилл, not Вкусвилл)
    while shared < min(len(said), len(word)) and said[shared].lower() == word[shared].lower():
        shared += 1
    return (cut.group(1) or "") + word[:shared] + said[shared:].lower()


# the case a preposition before a workplace asks of its noun ("в еде", "из еды")
_GOVERNED = {"в": "loct", "во": "loct", "на": "loct", "из": "gent", "изо": "gent",
             "у": "gent", "от": "gent", "до": "gent", "для": "gent", "при": "loct"}


@lru_cache(maxsize=16_384)
def firm_with_its_noun(preposition: str, firm: str, following: str) -> str | None:
    """A firm's one-word name the NER cut from the common noun that carries its case: after
    a preposition the firm's word keeps its own form, having no reading in the case the
    preposition asks, and the lower-case word right after it, likeliest a noun, has one ("в
    Яндекс еде", "из Газпром нефти", "в Яндекс такси": Яндекс Еда, Газпром Нефть, Яндекс
    Такси). The name with that noun in the nominative, capitalised; None when the firm's word
    takes the case itself ("в Яндексе курьером") or the next word is no such noun ("в Яндекс
    год назад": the accusative, also the nominative, says nothing; "у Тинька тут": an
    adverb)."""
    case = _GOVERNED.get(preposition.lower())
    if case is None or not re.fullmatch(r"[а-яё]+", following):
        return None
    readings = _morph().parse(following)
    if any(p.tag.case == case for p in _morph().parse(firm)) or not readings or (
            readings[0].tag.POS != "NOUN"):
        return None  # "у СпецЛогистика тут филиал": "тут" is likeliest an adverb
    for parse in readings:
        if parse.tag.POS != "NOUN" or parse.tag.case != case or {
                "Name", "Surn", "Patr", "Geox", "anim"} & parse.tag.grammemes:
            continue
        nominative = parse.inflect({"nomn", parse.tag.number or "sing"})
        if nominative is not None:
            word = str(nominative.word)
            return f"{firm} {word[:1].upper()}{word[1:]}"
    return None


__all__ = ["firm_with_its_noun", "noun_cases", "numeral", "oblique_nominative",
           "workplace_nominative"]
