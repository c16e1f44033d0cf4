"""What pymorphy's dictionary says of a word the Russian reader meets after the parse, beyond
``morphology``'s names: the cases it can be in as a noun (the tagger says one, often wrong for a
firm's name: "с Уралтяжстроя" tagged instrumental), whether it counts ("двое"), and the
nominative of a place's or firm's name said after a preposition."""

from __future__ import annotations

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


__all__ = ["noun_cases", "numeral", "oblique_nominative"]
