"""Russian morphology for the world reader: natasha's models (loaded once per process) and
pymorphy3 lemmas and nominatives of names ("Игорьком" -> "Игорёк", "Нижнем" -> "Нижний")."""

from __future__ import annotations

import re
import threading
from functools import lru_cache
from typing import Any

BATCH = 64  # sentences per model call


class Models:
    """natasha's segmenter, embedding, NER, morphology and syntax, loaded once (~0.9 s)."""

    _lock = threading.Lock()
    _loaded: Models | None = None

    def __init__(self) -> None:
        from natasha import (
            NewsEmbedding,
            NewsMorphTagger,
            NewsNERTagger,
            NewsSyntaxParser,
            Segmenter,
        )

        embedding = NewsEmbedding()
        self.segmenter = Segmenter()
        self.ner = NewsNERTagger(embedding)
        self.morph = NewsMorphTagger(embedding)
        self.syntax = NewsSyntaxParser(embedding)
        for model in (self.ner, self.morph, self.syntax):
            model.batch_size = BATCH  # an import's sentences go through in large batches

    @classmethod
    def get(cls) -> Models:
        with cls._lock:
            if cls._loaded is None:
                cls._loaded = Models()
            return cls._loaded


@lru_cache(maxsize=1)
def _morph() -> Any:
    import pymorphy3

    return pymorphy3.MorphAnalyzer(lang="ru")


POS = {"NOUN": {"NOUN"}, "PROPN": {"NOUN"}, "VERB": {"VERB", "INFN"}, "ADJ": {"ADJF"},
        "AUX": {"VERB", "INFN"}}


@lru_cache(maxsize=65_536)
def lemma(word: str, pos: str = "NOUN") -> str:
    """The dictionary form of a Russian word (``ё`` kept as pymorphy gives it, lower case)."""
    wanted = POS.get(pos, set())
    parses = _morph().parse(word.lower())
    for parse in parses:
        if parse.tag.POS in wanted:
            return str(parse.normal_form)
    return str(parses[0].normal_form) if parses else word.lower()


@lru_cache(maxsize=65_536)
def name_nominative(word: str, case: str | None) -> str:
    """A name in the nominative, capitalised as a name ("Игорьком" -> "Игорёк")."""
    if not re.search(r"[а-яё]", word.lower()):
        return word
    if "-" in word:
        return "-".join(name_nominative(part, case) for part in word.split("-"))
    parses = _morph().parse(word)
    named = [p for p in parses if {"Name", "Surn", "Patr", "Geox", "Orgn"} & p.tag.grammemes]
    pool = named or [p for p in parses if p.tag.POS == "NOUN"] or parses
    cased = [p for p in pool if case and p.tag.case == _CASES.get(case)] or pool
    # a declinable reading first: "Гали" is Галя in the genitive before an indeclinable "Гали"
    cased.sort(key=lambda p: "Fixd" in p.tag.grammemes)
    for parse in cased:
        if parse.tag.case == "nomn" and parse.tag.number != "plur":
            return word
        inflected = parse.inflect({"nomn", "sing"}) or parse.inflect({"nomn"})
        if inflected is not None:
            return _capitalised_like(str(inflected.word), word)
    return word


_CASES = {"Nom": "nomn", "Gen": "gent", "Dat": "datv", "Acc": "accs", "Ins": "ablt",
          "Loc": "loct", "Par": "gen2"}


def _capitalised_like(new: str, old: str) -> str:
    if old.isupper() and len(old) > 1:
        return new.upper()
    return new[:1].upper() + new[1:] if old[:1].isupper() else new


@lru_cache(maxsize=4_096)
def plural_nominative(word: str) -> str:
    """A noun's nominative plural ("танцами" -> "танцы"), lower case."""
    for parse in _morph().parse(word.lower()):
        if parse.tag.POS == "NOUN":
            inflected = parse.inflect({"nomn", "plur"})
            if inflected is not None:
                return str(inflected.word)
    return word.lower()


@lru_cache(maxsize=65_536)
def apposed(role: str, name: str) -> bool:
    """Whether a name can stand beside a role word as the same person: some reading of each
    in one case ("сыну Игорю"; not "сестра Андрея", where the name is another's)."""
    role_cases = {p.tag.case for p in _morph().parse(role.lower()) if p.tag.POS == "NOUN"}
    name_cases = {p.tag.case for p in _morph().parse(name)}
    return not role_cases or bool(role_cases & name_cases)


@lru_cache(maxsize=65_536)
def same_case(first: str, second: str) -> bool:
    """Whether two words of a name have a reading in one case ("Галины Сергеевны": yes;
    "Андрея Юля": no, two people)."""
    cases = {p.tag.case for p in _morph().parse(first)}
    return bool(cases & {p.tag.case for p in _morph().parse(second)})


@lru_cache(maxsize=65_536)
def nominative_reading(word: str) -> bool:
    """Whether some singular reading of the word is in the nominative ("Соловушка")."""
    return any(p.tag.case == "nomn" and p.tag.number != "plur" for p in _morph().parse(word))


@lru_cache(maxsize=65_536)
def possessive_adjective(word: str) -> bool:
    """"Катина", "мамин": a reading of the word is a possessive adjective."""
    return any(p.tag.POS == "ADJF" and "Poss" in p.tag.grammemes for p in _morph().parse(word))


@lru_cache(maxsize=65_536)
def street_word(word: str) -> bool:
    """A word that names a street after "на": an adjective only ("Плехановской") or a
    person's name in the genitive ("Гагарина", "Баумана")."""
    parses = _morph().parse(word)
    if parses and all(p.tag.POS in ("ADJF", "ADJS") for p in parses):
        return True
    return any({"Surn", "Name"} & p.tag.grammemes and p.tag.case == "gent" for p in parses)


@lru_cache(maxsize=65_536)
def first_name(word: str) -> bool:
    """A capitalised word whose every noun reading is a first name ("Лейла")."""
    nouns = [p for p in _morph().parse(word) if p.tag.POS == "NOUN"]
    return word[:1].isupper() and bool(nouns) and all("Name" in p.tag.grammemes for p in nouns)


@lru_cache(maxsize=65_536)
def is_name(word: str) -> bool:
    """Whether some reading of a word is a first name, surname or patronymic."""
    return any({"Name", "Surn", "Patr"} & p.tag.grammemes for p in _morph().parse(word))


def abbreviation(text: str) -> bool:
    """"МГУ", "УрФУ", "СПбГУ": two or more capitals in one word."""
    return " " not in text and sum(ch.isupper() for ch in text) >= 2


def adjective_nominative(token: Any) -> str:
    """An adjective of a place name in the nominative ("Нижнем" -> "Нижний")."""
    parses = [p for p in _morph().parse(token.text) if p.tag.POS == "ADJF"]
    for parse in parses:
        inflected = parse.inflect({"nomn", "sing"})
        if inflected is not None:
            return _capitalised_like(str(inflected.word), token.text)
    return str(token.text)


_PROPER = frozenset({"Name", "Surn", "Patr", "Geox", "Orgn", "Trad"})
_WORD = re.compile(r"[А-Яа-яЁё]+(?:-[А-Яа-яЁё]+)*")
_SENTENCE_START = re.compile(r"(?:^|[.!?…]\s+|\n\s*)([а-яё])")
_NAMING = frozenset({"зовут", "звать", "кличут", "кличка"})  # "зовут бублик": a name follows


def lower_case_chat(text: str) -> bool:
    """Whether a text is written without capitals ("жена лена, дизайнер"): no Cyrillic word
    past a sentence's start begins with one."""
    for match in _WORD.finditer(text):
        start = match.start()
        before = text[:start].rstrip()
        if match.group()[:1].isupper() and before and before[-1] not in ".!?…":
            return False
    return bool(_WORD.search(text))


def truecase(text: str) -> str:
    """A text written without capitals, capitalised as the models were trained to read it
    (news text): each sentence's first letter, and each word pymorphy's dictionary reads
    first as a name, surname, patronymic, place or organisation ("в москве" -> "в Москве",
    "лена" -> "Лена", "в яндексе" -> "в Яндексе"), or that a naming verb names ("зовут
    бублик"). The same length, so offsets hold. A text with capitals is left as written."""
    if not lower_case_chat(text):
        return text
    chars = list(text)
    previous = ""
    for match in _WORD.finditer(text):
        word = match.group()
        if word.islower() and (previous in _NAMING or _proper(word)):
            chars[match.start()] = word[0].upper()
        previous = word.lower()
    for match in _SENTENCE_START.finditer(text):
        chars[match.start(1)] = chars[match.start(1)].upper()
    return "".join(chars)


@lru_cache(maxsize=65_536)
def _proper(word: str) -> bool:
    parses = _morph().parse(word)
    return bool(parses) and bool(_PROPER & parses[0].tag.grammemes) and len(word) > 2


__all__ = [
    "POS",
    "Models",
    "abbreviation",
    "adjective_nominative",
    "apposed",
    "first_name",
    "is_name",
    "lemma",
    "lower_case_chat",
    "name_nominative",
    "nominative_reading",
    "plural_nominative",
    "possessive_adjective",
    "same_case",
    "street_word",
    "truecase",
]
