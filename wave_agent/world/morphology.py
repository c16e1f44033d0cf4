"""Russian morphology for the world reader: natasha's models (loaded once per process) and
pymorphy3 lemmas and nominatives of names ("Игорьком" -> "Игорёк", "Нижнем" -> "Нижний")."""

from __future__ import annotations

import re
import threading
from functools import lru_cache
from typing import Any, Literal

from graph import kin

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
        self.embedding = embedding  # navec word vectors (``world.kinds``)
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
        if parse.tag.case == "nomn" and (parse.tag.number != "plur" or (
                case == "Nom" and not _morph().word_is_known(word.lower()))):
            return word  # a name is one: "Ричи", "Рокки" no dictionary has are no plural
        inflected = parse.inflect({"nomn", "sing"}) or parse.inflect({"nomn"})
        if inflected is not None:
            if len(inflected.word) > len(word) and not _morph().word_is_known(word.lower()):
                return word  # a guess that adds letters to a word no dictionary has ("Тинькофф")
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
    name_cases = {p.tag.case for p in _morph().parse(name)} - {None}
    # a name the dictionary does not know ("Полинке") cannot say otherwise
    return not role_cases or not name_cases or bool(role_cases & name_cases)


@lru_cache(maxsize=65_536)
def same_case(first: str, second: str) -> bool:
    """Whether two words of a name have a reading in one case ("Галины Сергеевны": yes;
    "Андрея Юля": no, two people)."""
    cases = {p.tag.case for p in _morph().parse(first)}
    return bool(cases & {p.tag.case for p in _morph().parse(second)})


@lru_cache(maxsize=65_536)
def where_to(word: str) -> bool:
    """Whether a word after "в" / "на" can only be where one goes, not where one is: pymorphy
    reads it in the accusative and in no locative ("в Каменск", "в Тюмень"; not "в Тюмени",
    nor an indeclinable "в Тольятти"), whatever case the tagger guessed."""
    cases = {p.tag.case for p in _morph().parse(word)}
    return "accs" in cases and not cases & {"loct", "loc2"}


@lru_cache(maxsize=65_536)
def nominative_reading(word: str) -> bool:
    """Whether some singular reading of the word is in the nominative ("Соловушка")."""
    return any(p.tag.case == "nomn" and p.tag.number != "plur" for p in _morph().parse(word))


@lru_cache(maxsize=65_536)
def possessive_adjective(word: str) -> bool:
    """"Катина", "мамин", "Витин": a reading of the word is a possessive adjective (or a
    first name's, which pymorphy's dictionary does not always hold)."""
    return any(p.tag.POS == "ADJF" and "Poss" in p.tag.grammemes
               for p in _morph().parse(word)) or name_of_possessive(word) is not None


_POSSESSIVE_ENDINGS = ("ин", "ина", "ино", "ины", "иной", "иного", "иному", "иным", "иных")


@lru_cache(maxsize=16_384)
def name_of_possessive(word: str) -> str | None:
    """The first name a capitalised possessive adjective is made of ("Витин" -> Витя,
    "Катиной" -> Катя, "Сашин" -> Саша), when pymorphy's dictionary knows it as a name."""
    if not re.fullmatch(r"[А-ЯЁ][а-яё]+", word):
        return None
    lowered = word.lower()
    if _name_genders(lowered):
        return None  # "Ирина", "Марина": a first name itself
    for ending in sorted(_POSSESSIVE_ENDINGS, key=len, reverse=True):
        if lowered.endswith(ending) and len(lowered) - len(ending) >= 2:
            stem = lowered[: len(lowered) - len(ending)]
            # both may be names ("Витя" / "Вита"): "-тин", "-лин", "-нин", "-син" come from "-я"
            ends = ("я", "а") if stem[-1] in "тлнс" else ("а", "я")
            for end in ends:
                if _name_genders(stem + end):
                    return (stem + end).capitalize()
            return None
    return None


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


# A diminutive of a first name: its stem, the diminutive suffix, a case ending. The bare "-к-"
# only after a consonant ("Сашка", "Маринка"; not "Вероника"); "-ик / -ёк / -чик" are a
# boy's ("Толик", "Игорёк"; not "Анжелика"), as are "-он / -ян" ("Димон", "Костян"; "Мирон" is
# no diminutive of the girl's Мира, and no "Анта" is known for "Антон").
_DIMINUTIVES = (
    (re.compile(r"^(.{2,}?)(?:ечк|еньк|оньк|ичк|очк|(?<=[бвгджзйклмнпрстфхцчшщь])к)"
                r"(?:а|и|е|у|ой|ою)$"), ""),
    (re.compile(r"^(.{3,}?)(?:ёк|ек|ок|чик|ик|ьк)(?:а|у|ом|е)?$"), "masc"),
    (re.compile(r"^(.{2,}?)(?:ян|он)(?:а|у|ом|е)?$"), "masc"),
)


@lru_cache(maxsize=16_384)
def full_name(word: str) -> str:
    """The first name a diminutive is made from, when pymorphy's dictionary knows it as a
    name of the same gender: "Сашка" / "Сашке" -> Саша, "Полинке" -> Полина, "Ванечка" ->
    Ваня, "Настенька" -> Настя, "Игорёк" -> Игорь, "Костян" -> Костя, "Димон" -> Дима. Any
    other word comes back as it is."""
    w = word.lower()
    if " " in w or not re.fullmatch(r"[а-яё]+", w):
        return word
    own = _name_genders(w) if _morph().word_is_known(w) else set()
    for pattern, condition in _DIMINUTIVES:
        match = pattern.match(w)
        if match is None or (condition == "masc" and own and "masc" not in own):
            continue
        stem = match.group(1)
        for base in ([stem[:-1], stem] if stem.endswith("ь") else [stem]):
            for end in ("я", "а", "ь", ""):
                candidate = base + end
                if candidate == w or not _morph().word_is_known(candidate):
                    continue
                genders = _name_genders(candidate)
                if genders and (not own or own & genders or None in genders | own):
                    return _capitalised_like(candidate, word)
    return word


@lru_cache(maxsize=16_384)
def person_instrumental(word: str) -> str | None:
    """The dictionary form of a word pymorphy reads first as an animate common noun in the
    instrumental ("фармацевтом" -> фармацевт, "водителем-дальнобойщиком"), the form a job
    takes after "работает"; None for anything else. The tagger, trained on news, often tags
    such a word a verb or a nominative ("устроилась фармацевтом")."""
    if not re.fullmatch(r"[а-яё]+(-[а-яё]+)?", word):
        return None
    best = _morph().parse(word)[0]
    tag = best.tag
    if (tag.POS == "NOUN" and tag.case == "ablt" and tag.animacy == "anim"
            and best.score >= 0.5 and not {"Name", "Surn", "Patr"} & tag.grammemes):
        return str(best.normal_form)
    return None


@lru_cache(maxsize=16_384)
def person_nominative(word: str) -> str | None:
    """The dictionary form of a word pymorphy can read only as a noun: one its dictionary knows
    as an animate noun in the nominative ("бухгалтер"), or one it does not know at all, every
    guess a noun ("тестировщица", "тимлид": the word as said when the guess is no nominative);
    None for a word that can be a verb or anything else. The tagger, trained on news, tags such
    a word a verb when it follows "я" ("я тестировщица", "теперь я тимлид")."""
    if not re.fullmatch(r"[а-яё]+(-[а-яё]+)?", word):
        return None
    parses = _morph().parse(word)
    if not parses or any(p.tag.POS != "NOUN" for p in parses):
        return None
    best = parses[0]
    if best.is_known:
        tag = best.tag
        good = tag.case == "nomn" and tag.animacy == "anim" and not (
            {"Name", "Surn", "Patr", "Geox"} & tag.grammemes)
        return str(best.normal_form) if good else None
    return str(best.normal_form) if best.tag.case == "nomn" and not (
        {"Name", "Surn", "Patr", "Geox"} & best.tag.grammemes) else word


@lru_cache(maxsize=16_384)
def name_gender(name: str) -> str | None:
    """"Masc" / "Fem" for a person's name whose first word pymorphy's dictionary knows as a
    first name of one gender ("Лена", "Виктор"), else None. The tagger guesses a rare or
    diminutive name's gender from its ending ("Ленкой": Masc); the dictionary knows."""
    first = name.split()[0].lower() if name.split() else ""
    genders = {g for g in _name_genders(first) if g} if re.fullmatch(r"[а-яё]+", first) else set()
    if len(genders) == 1:
        return {"masc": "Masc", "femn": "Fem"}.get(genders.pop())
    return None


def _name_genders(word: str) -> set[str | None]:
    return {p.tag.gender for p in _morph().parse(word) if "Name" in p.tag.grammemes
            and p.tag.case == "nomn" and p.normal_form == word}


@lru_cache(maxsize=16_384)
def agreeing_nominative(adjective: str, noun: str) -> str | None:
    """An adjective in the nominative agreeing with a noun's dictionary form ("фигурным",
    "катание" -> "фигурное"), or None when it is a pronoun, a possessive or no adjective."""
    parses = [p for p in _morph().parse(adjective.lower()) if p.tag.POS == "ADJF"]
    if not parses or {"Apro", "Poss"} & parses[0].tag.grammemes:
        return None
    nouns = [p for p in _morph().parse(noun) if p.tag.POS == "NOUN" and p.tag.case == "nomn"]
    wanted = {"nomn", nouns[0].tag.number or "sing"} if nouns else {"nomn", "sing"}
    if nouns and nouns[0].tag.number != "plur" and nouns[0].tag.gender:
        wanted.add(nouns[0].tag.gender)
    inflected = parses[0].inflect(wanted)
    return str(inflected.word) if inflected is not None else None


@lru_cache(maxsize=65_536)
def noun_lemmas(word: str) -> tuple[str, ...]:
    """Every dictionary form a word has as a noun, the likeliest first ("йогу": йог, йога)."""
    return tuple(dict.fromkeys(str(p.normal_form) for p in _morph().parse(word.lower())
                               if p.tag.POS == "NOUN"))


@lru_cache(maxsize=16_384)
def only_verb(word: str) -> tuple[str, str | None, str | None] | None:
    """A word every reading of which is a finite verb ("Записались", "Сорвал"): its lemma,
    number ("Sing" / "Plur") and person ("1" / "2" / "3", None in the past tense); else
    None. The tagger, trained on news text, takes a capitalised first word of a sentence
    for a noun."""
    parses = _morph().parse(word.lower())
    if not parses or any(p.tag.POS != "VERB" for p in parses):
        return None
    tag = parses[0].tag
    number = {"sing": "Sing", "plur": "Plur"}.get(str(tag.number))
    person = {"1per": "1", "2per": "2", "3per": "3"}.get(str(tag.person))
    return str(parses[0].normal_form), number, person


@lru_cache(maxsize=16_384)
def geographic(word: str) -> bool:
    """Whether pymorphy's dictionary knows the word as a place name ("Кипре": yes;
    "Уралмаше": no)."""
    return any("Geox" in p.tag.grammemes for p in _morph().parse(word))


_PROPER = frozenset({"Name", "Surn", "Patr", "Geox", "Orgn", "Trad"})


@lru_cache(maxsize=65_536)
def name_kinds(word: str) -> frozenset[str]:
    """What pymorphy's dictionary knows the word to name, among a place, an organisation, a
    trade mark and a person's name ("Самаре": Geox; "Сбере": none, a guess; "Газпроме":
    Orgn), only from parses it has, not guessed from the ending."""
    if not word or not _morph().word_is_known(word.lower()):
        return frozenset()
    return frozenset(g for p in _morph().parse(word) for g in p.tag.grammemes
                     if g in ("Geox", "Orgn", "Trad", "Name", "Surn"))
_WORD = re.compile(r"[А-Яа-яЁё]+(?:-[А-Яа-яЁё]+)*")
_SENTENCE_START = re.compile(r"(?:^|[.!?…]\s+|\n\s*)([а-яё])")
NAMING = frozenset({"зовут", "звать", "кличут", "кличка"})  # "зовут бублик": a name follows


def lower_case_chat(text: str) -> bool:
    """Whether a text is written without capitals ("жена лена, дизайнер"): no Cyrillic word
    past a sentence's start begins with one."""
    for match in _WORD.finditer(text):
        start = match.start()
        before = text[:start].rstrip()
        if match.group()[:1].isupper() and before and before[-1] not in ".!?…":
            return False
    return bool(_WORD.search(text))


# how lower-case names are found before the NER (``truecase``; round twenty-seven measured each
# on the honest authors' labels, ``scripts/people_reader.py``): "first-reading", a word whose
# first dictionary reading is a name, in a lower-case text only (before); "context", also a
# word with some name reading where a person is said (``_person_here``); "context+unknown",
# also an unknown word after a kin role; "any-name", every word with some name reading;
# "capitalised-too" (shipped), "context" and, in a text with capitals, a lower-case word every
# noun reading of which is a name ("мадина танцует", "с лизой")
Names = Literal["first-reading", "context", "context+unknown", "any-name", "capitalised-too"]


def truecase(text: str, names: Names = "capitalised-too") -> str:
    """A text written without capitals, capitalised as the models were trained to read it
    (news text): each sentence's first letter, and each word pymorphy's dictionary reads
    first as a name, surname, patronymic, place or organisation ("в москве" -> "в Москве",
    "лена" -> "Лена", "в яндексе" -> "в Яндексе"), a diminutive of a known first name ("брат
    костян"), that a naming verb names ("зовут бублик"), or a word with a name's reading where
    a person is said ("с викой", "тёма подсадил": ``_person_here``). The same length, so
    offsets hold. In a text with capitals only a lower-case word that can be nothing but a
    name is capitalised ("мадина танцует в ансамбле «Йолдыз»")."""
    if not lower_case_chat(text):
        return _names_in_capitalised(text) if names == "capitalised-too" else text
    chars = list(text)
    previous = ""
    matches = list(_WORD.finditer(text))
    for i, match in enumerate(matches):
        word = match.group()
        following = matches[i + 1].group().lower() if i + 1 < len(matches) else ""
        if word.islower() and (previous in NAMING or _proper(word) or (
                len(word) > 3 and full_name(word) != word)  # "брат костян"
                or (previous in _PLACE_PREPOSITIONS and _unknown(word))  # "в тинькофф"
                or (names != "first-reading" and _person_here(word, previous, following,
                                                              names))):
            chars[match.start()] = word[0].upper()
        previous = word.lower()
    for match in _SENTENCE_START.finditer(text):
        chars[match.start(1)] = chars[match.start(1)].upper()
    return "".join(chars)


_PLACE_PREPOSITIONS = frozenset({"в", "во", "на", "из", "из-за"})
_NAME_TAGS = frozenset({"Name", "Surn", "Patr"})
_COMITATIVE = frozenset({"с", "со"})


def _names_in_capitalised(text: str) -> str:
    """A text with capitals, each lower-case word capitalised whose every noun reading (the
    first reading a noun) is a first name, surname or patronymic ("с лизой", "никита")."""
    chars = list(text)
    for match in _WORD.finditer(text):
        word = match.group()
        if word.islower() and _only_a_name(word):
            chars[match.start()] = word[0].upper()
    return "".join(chars)


@lru_cache(maxsize=65_536)
def _only_a_name(word: str) -> bool:
    if len(word) < 3 or not _morph().word_is_known(word):
        return False
    parses = _morph().parse(word)
    return parses[0].tag.POS == "NOUN" and all(
        _NAME_TAGS & p.tag.grammemes for p in parses if p.tag.POS == "NOUN")


def _person_here(word: str, previous: str, following: str, names: Names) -> bool:
    """A lower-case word with a dictionary reading as a person's name, where a person is said,
    although its first reading is another word: after a kin role ("брат расул"), after "с" in
    the instrumental ("с викой"; not "с марта"), or as the subject of the past-tense verb
    after it, agreeing in gender ("тёма подсадил")."""
    if len(word) < 3:
        return False
    known = _morph().word_is_known(word)
    named = [p for p in (_morph().parse(word) if known else []) if _NAME_TAGS & p.tag.grammemes]
    after_role = kin.role_of(previous) is not None
    if names == "any-name":
        return bool(named)
    with_whom = previous in _COMITATIVE and any(p.tag.case == "ablt" for p in named)
    if named and (after_role or with_whom or _agrees(named, following)):
        return True
    return names == "context+unknown" and not known and after_role


def _agrees(named: list[Any], following: str) -> bool:
    """A past-tense verb after a name in the nominative, agreeing in gender."""
    verbs = [p for p in _morph().parse(following) if p.tag.POS == "VERB" and "past" in p.tag]
    return any(n.tag.case == "nomn" and v.tag.gender is not None and n.tag.gender == v.tag.gender
               for n in named for v in verbs)


@lru_cache(maxsize=65_536)
def _unknown(word: str) -> bool:
    """A word pymorphy's dictionary does not have, long enough to be a name."""
    return len(word) > 2 and not _morph().word_is_known(word)


@lru_cache(maxsize=65_536)
def _proper(word: str) -> bool:
    parses = _morph().parse(word)
    return (bool(parses) and bool(_PROPER & parses[0].tag.grammemes) and len(word) > 2
            and _morph().word_is_known(word))  # a guessed reading ("джолион") is no name


@lru_cache(maxsize=16_384)
def known_word(word: str) -> bool:
    """Whether pymorphy's dictionary has the word (not a guess from its ending)."""
    return bool(_morph().word_is_known(word.lower()))


__all__ = [
    "NAMING",
    "POS",
    "Models",
    "abbreviation",
    "adjective_nominative",
    "agreeing_nominative",
    "apposed",
    "first_name",
    "full_name",
    "geographic",
    "is_name",
    "known_word",
    "lemma",
    "lower_case_chat",
    "name_kinds",
    "name_nominative",
    "nominative_reading",
    "noun_lemmas",
    "only_verb",
    "plural_nominative",
    "possessive_adjective",
    "same_case",
    "street_word",
    "truecase",
]
