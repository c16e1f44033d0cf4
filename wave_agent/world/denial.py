"""Whose denial a class denial is, and whether the negation governs the class word (issue 30:
a false contradiction raised against the person's own child).

Two of month 22's false alarms set the person's child against a sentence that denies no child
of theirs: another person's "детей пока нет" ("Олег женат, ... детей пока нет") and "с
ребёнком и собакой без машины никак" (the "без" governs the car). Both are settled by the
parse, not by words of one month:

- **what the negation governs**: in Russian a denied thing is in the genitive ("детей нет",
  "без детей", "ни братьев") or, after a negated verb, the accusative ("не хочу ребёнка"); a
  class word in another case ("с ребёнком", "дети не едят") is not what is denied. Elsewhere
  the negation comes before the word in its clause ("no kids", "nie mam dzieci");
- **whose it is**: a sentence that says nothing in the first person and names another person
  (a first name in the nominative, the reader's person mention, or a kin word) before the
  class word speaks of that person ("Олег женат, детей пока нет"); a first-person word
  anywhere in it ("детей у нас пока нет") keeps it the speaker's.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from itertools import pairwise
from typing import Any

from graph import kin
from wave_agent.world import attribute_words as W
from wave_agent.world.morphology import lemma as ru_lemma

# the cases a Russian denied thing takes: genitive (and the second genitive), accusative
_DENIED_CASES = frozenset({"gent", "gen2", "accs"})
_WITH = frozenset({"with", "z", "ze"})
_SENTENCE = re.compile(r"(?<=[.!?\n])\s*")


def governed(text: str, word: str, lang: str, at: int | None = None) -> bool:
    """Whether the negation in ``word``'s clause can govern it: in Russian the word can be read
    in the genitive or the accusative (pymorphy3's readings of the form); elsewhere it is not
    said "with" (a negation before it in its clause governs it whatever comes between)."""
    if lang == "ru" and re.search(r"[а-яё]", word.lower()):
        from wave_agent.world.morphology import _morph

        parses = _morph().parse(word.lower())
        if not parses:
            return True
        best = parses[0].score
        # the readings as likely as the first (pymorphy3 scores a form's readings): "детей" is
        # genitive or accusative, "ребёнком" only instrumental
        return any(p.tag.case in _DENIED_CASES for p in parses if p.score >= best * 0.5)
    lower = text.lower()
    at = lower.find(word.lower()) if at is None else at
    start = max(lower.rfind(sep, 0, max(at, 0)) for sep in ",;:.!?—") + 1
    before = re.findall(r"[\w']+", lower[start:max(at, 0)])
    if set(before) & W.NEGATION or "n't" in lower[start:max(at, 0)]:
        return True
    # said with the word ("with a kid and a dog, no way without a car", "z dzieckiem"): the
    # negation governs something else; a negation after it ("Dzieci nie mamy") denies it
    return not any(t in _WITH for t in before[-3:])


# the speaker as a subject or a holder, outside Russian (in Russian the morphology says it: a
# first-person pronoun or verb); a possessive ("my brother") names another person
_SPEAKER_ELSEWHERE = {"en": frozenset({"i", "we", "me", "us"}),
                      "pl": frozenset({"ja", "my", "mnie", "nas", "nam", "mi"})}
# another person as the holder in the word's own clause: "у него", "у неё", "у них"; "he", "she"
_THIRD_HOLDER = {"ru": re.compile(r"\bу\s+(?:него|неё|нее|них)\b"),
                 "en": re.compile(r"\b(?:he|she|they)\b"),
                 "pl": re.compile(r"\b(?:on|ona|oni|one)\b")}


def _first_person(tokens: Iterable[str], lang: str) -> bool:
    """Whether the speaker is a subject or a holder among ``tokens``: in Russian a pronoun or a
    verb in the first person (not a possessive: "мой брат Олег" speaks of Oleg)."""
    if lang != "ru":
        return any(t in _SPEAKER_ELSEWHERE.get(lang, W.SPEAKER) for t in tokens)
    from wave_agent.world.morphology import _morph

    return any("1per" in p.tag.grammemes and ("NPRO" in p.tag.grammemes or "VERB" in p.tag.grammemes)
               for t in tokens for p in _morph().parse(t)[:1])


def someone_elses(text: str, word: str, lang: str, people: Iterable[str] = (),
                  at: int | None = None) -> bool:
    """Whether a denial of ``word`` is another person's: its own clause holds it by a
    third-person pronoun ("детей у него нет"), or its sentence says nothing in the first person
    and names someone before it (``people``: the reader's person mentions; in Russian a first
    name in the nominative or a kin word)."""
    lower = text.lower()
    at = lower.find(word.lower()) if at is None else at
    if at < 0:
        return False
    sentence_start = max((m.end() for m in _SENTENCE.finditer(text, 0, at)), default=0)
    ends = [m.start() for m in _SENTENCE.finditer(text, at) if m.start() > at]
    sentence = lower[sentence_start:ends[0] if ends else len(text)]
    clause_start = max(lower.rfind(sep, 0, at) for sep in ",;:.!?—") + 1
    clause_end = min((i for i in (lower.find(sep, at) for sep in ",;:.!?—") if i >= 0),
                     default=len(lower))
    clause = lower[clause_start:clause_end]
    third = _THIRD_HOLDER.get(lang)
    if third is not None and third.search(clause) and not _first_person(re.findall(r"[\w'-]+", clause), lang):
        return True
    if _first_person(re.findall(r"[\w'-]+", sentence), lang):
        return False
    before = text[sentence_start:at]
    # a capitalised negation the reader took for a name ("Never had kids.") names no one
    people = [p for p in people if p and p.split()[0].lower() not in W.NEGATION]
    if any(p and re.search(rf"(?<!\w){re.escape(p.split()[0][:max(3, len(p.split()[0]) - 2)])}",
                           before, re.I) for p in people):
        return True
    if lang == "en":  # "My brother is married, no kids": the brother's
        return any(kin.role_of(t) is not None for t in re.findall(r"[\w-]+", before.lower()))
    if lang != "ru":
        return False
    from wave_agent.world.morphology import _morph, is_name

    for token in re.findall(r"[\w-]+", before):
        if kin.role_of(ru_lemma(token.lower())) is not None and any(
                p.tag.POS == "NOUN" and p.tag.case == "nomn" for p in _morph().parse(token.lower())):
            return True  # "Брат женат, детей нет": the brother's
        if token[:1].isupper() and is_name(token) and any(
                "Name" in p.tag.grammemes and p.tag.case == "nomn" for p in _morph().parse(token)):
            return True
    return False


# the negation that says a thing is absent ("Рыжика нет", "сил нет"): it governs a noun in the
# genitive; "не", "ни", "без" negate a verb or govern the word after them, and are left as read
_ABSENT = frozenset({"нет", "нету"})


def negation_governs(clause: str, word: str, lang: str) -> bool:
    """Whether the negation of ``clause`` can govern ``word``, the word it names a held value
    by: in Russian a clause whose only negation is "нет" denies what is in the genitive
    ("Рыжика нет", "йоги у меня нет"), not an infinitive, a noun in another case or one a
    preposition governs ("даже вязать сил нет", "на йогу времени нет", "для вязания денег
    нет": "нет" governs "сил", "времени", "денег"). A clause negated by "не", "ни" or "без"
    is left as read (the negated verb governs the value: "йогой не занимаюсь"); elsewhere,
    as read."""
    if lang != "ru" or not re.search(r"[а-яё]", word.lower()):
        return True
    tokens = re.findall(r"[\w-]+", clause.lower())
    negations = set(tokens) & W.NEGATION
    key = word.lower()
    if negations == {"не"} and key in tokens and _coordinated_before_not(tokens, key):
        return False  # "жить в Калининграде и не есть рыбу": "не" negates "есть", not "жить"
    if not negations or not negations <= _ABSENT:
        return True
    if key not in tokens:
        return True
    from wave_agent.world.morphology import _morph

    at = tokens.index(key)
    if at and any(p.tag.POS == "PREP" for p in _morph().parse(tokens[at - 1])[:1]):
        return False  # "на йогу", "для вязания": the preposition governs it
    parses = _morph().parse(key)
    if not parses:
        return True
    best = parses[0].score
    return any(p.tag.case in ("gent", "gen2") for p in parses if p.score >= best * 0.5)


_AND = frozenset({"и", "а", "но", "да"})


def _coordinated_before_not(tokens: list[str], key: str) -> bool:
    """Whether every "не" of the clause comes after ``key`` right after a conjunction: the
    negated verb is a second, coordinated one ("жить в Калининграде и не есть рыбу": not the
    city; "живу в Казани, а не в Москве": not Казань). Nouns joined before one negated verb
    ("мяса и рыбы я не ем") are both denied."""
    at = tokens.index(key)
    nots = [i for i, t in enumerate(tokens) if t == "не"]
    return all(i > at + 1 and tokens[i - 1] in _AND for i in nots)


def the_persons(text: str, word: str, lang: str, people: Iterable[str] = ()) -> bool:
    """Whether a negated class word is denied of the person: at one of the places it is said
    ("Соседка спросила, не будет ли шума от детей. Отвечаю: детей у меня нет": the second)
    the negation governs it and the denial is not another person's."""
    people = list(people)
    places = [m.start() for m in re.finditer(rf"(?<!\w){re.escape(word.lower())}(?!\w)",
                                             text.lower())] or [text.lower().find(word.lower())]
    return any(governed(text, word, lang, at) and not someone_elses(text, word, lang, people, at)
               for at in places)


# a denial over time, not of one occasion: "больше не пошла", "ни разу не сходила", "ни одной
# сигареты не выкурила" (the emphatic "ни": not once), "never went", "już nie poszłam"
_OVER_TIME = frozenset({"больше", "никогда", "ни", "уже", "never", "more", "anymore", "longer",
                        "nigdy", "już", "więcej", "ani"})
# a Polish past-tense form (the tense is in the ending) with a prefix that makes the verb
# perfective ("poszłam", "zjadłem", "wyszła", "przyszedł"); Polish has no parser here
_PL_PERFECTIVE_PAST = re.compile(r"^(?:po|przy|wy|z|s|ze|za|do|u|prze)\w*(?:ł|łam|łem|ła|ło|li|ły|"
                                 r"łyśmy|liśmy|łaś|łeś)$")


def one_occasion(clause: str, lang: str) -> bool:
    """Whether the negation of ``clause`` denies one occasion, not a habit (issue 30: "на йогу
    не пошла" read as giving the yoga up): the negated verb is a perfective past ("не пошла",
    "не сходила", "не поехал": pymorphy3's aspect and tense), not followed by an infinitive it
    governs ("так и не начала бегать", "не стала есть мясо": a decision about the habit); in
    English a simple past ("didn't go"), in Polish a past with a perfective prefix ("nie
    poszłam"). A clause that says the time is longer ("больше", "ни разу", "ни одной", "never",
    "już")
    denies the habit and is left as read."""
    tokens = re.findall(r"[\w'’-]+", clause.lower().replace("’", "'"))
    if set(tokens) & _OVER_TIME or {"any", "more"} <= set(tokens):
        return False
    if lang == "en":
        return "didn't" in tokens or any(p == ("did", "not") for p in pairwise(tokens))
    if lang == "pl":
        return any(a == "nie" and _PL_PERFECTIVE_PAST.match(b) is not None
                   for a, b in pairwise(tokens))
    if lang != "ru":
        return False
    from wave_agent.world.morphology import _morph

    def readings(word: str) -> list[Any]:
        parses = _morph().parse(word)
        return [p for p in parses if parses and p.score >= parses[0].score * 0.5]

    for i, token in enumerate(tokens[:-1]):
        if token != "не":
            continue
        verb = readings(tokens[i + 1])
        if not any(p.tag.POS == "VERB" and p.tag.aspect == "perf" and p.tag.tense == "past"
                   for p in verb):
            continue
        if any(p.tag.POS == "INFN" for t in tokens[i + 2:i + 4] for p in readings(t)[:1]):
            continue  # "не стала есть мясо": the infinitive says the habit
        return True
    return False
