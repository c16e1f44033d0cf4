"""Where the person was born or comes from, said any of the ways people say it: "родилась в
Перми", "родом я из Тольятти", "сама я из Самары", "я коренная самарчанка", "я ж тверская",
"urodziłam się w Poznaniu", "pochodzę z Opola", "I was born in Leeds", "I'm from Leeds".

A birthplace never changes, so two of them are a contradiction (issue 30: "коренная самарчанка"
against "родом из Тольятти", nine honest months of twenty-seven). A word naming a native of a
place ("самарчанка", "нижегородка", "тверская") names no place itself: pymorphy3 has no
demonym reading, so the place is found by its stem, first among the places the message names
and the person holds ("прощаюсь с Самарой. я коренная самарчанка"), then among the words
pymorphy3's dictionary knows as a place (``Geox``) that begin with the word's stem ("пермячка"
-> Пермь). A word that leads to no place is no demonym ("я сегодня уставшая").

Only the speaker's own birthplace is read (a clause about someone else, "Ирина сама из
Рыбинска", is left alone), and not one that is denied or wished.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from functools import lru_cache
from typing import Any

# endings of a word for a native of a place, or an adjective of one ("самарчанка",
# "новосибирец", "пермячка", "москвич", "тверская"), longest first
_DEMONYM_END = re.compile(
    r"(?:чанками|чанкой|чанина|чанин|чанка|чанке|чанку|ичкой|ичка|ячка|янка|янин|енка|"
    r"ская|ский|ской|ское|ские|ского|цами|ец|цы|ка|ич|як|ой|ий|ая)$")
_NATIVE = re.compile(r"\bкоренн\w*\s+([а-яё-]+)", re.I)
# Russian: the speaker born somewhere, or from somewhere
_BORN_RU = re.compile(r"\b(?:родил(?:ась|ся))\b", re.I)
_ORIGIN_RU = re.compile(r"\b(?:родом|уроженк\w*|уроженец|уроженц\w*)\b", re.I)
_FROM_RU = re.compile(r"\bиз\s+", re.I)
_THERE = re.compile(r"(?<![а-я])(?:там|тут|здесь)(?![а-я])")
_IN_RU = re.compile(r"\bв[о]?\s+", re.I)
# Polish and English: first person only
_BORN_PL = re.compile(r"\b(?i:urodziłam|urodziłem)\s+się\s+(?:w|we)\s+(\w+(?:\s+[A-ZŁŚŻŹĆ]\w+)?)")
_FROM_PL = re.compile(r"\b(?i:pochodzę|jestem)\s+(?:\w+\s+)?(?:z|ze)\s+([A-ZŁŚŻŹĆ]\w+(?:\s+[A-ZŁŚŻŹĆ]\w+)?)")
_BORN_EN = re.compile(r"\bI\s+was\s+born\s+in\s+([A-Z]\w+(?:\s+[A-Z]\w+)?)")
_FROM_EN = re.compile(r"\bI(?:'m|’m|\s+am)\s+(?:originally\s+)?from\s+([A-Z]\w+(?:\s+[A-Z]\w+)?)")
_CLAUSE = re.compile(r"[.;!?\n—]+|,")
_SPEAKER = frozenset({"я", "сама", "сам"})
_SPEAKER_FORMS = frozenset({"я", "меня", "мне", "мой", "моя"})
_OTHER = frozenset({"он", "она", "они", "мы", "его", "ее", "их"})


def _norm(word: str) -> str:
    return word.lower().replace("ё", "е")


def _morph() -> Any:
    from wave_agent.world.morphology import _morph as morph

    return morph()


def _common(a: str, b: str) -> int:
    n = 0
    for x, y in zip(a, b, strict=False):
        if x != y:
            break
        n += 1
    return n


# what follows a place's stem in the word for its native or its adjective ("самар|чанка",
# "перм|ячка", "казан|ка", "твер|ская", "москв|ичка", "урал|ьская")
_NATIVE_TAIL = re.compile(r"ь?(?:ч?анк|ч?анин|ч?ане|янк|янин|яне|ичк|ячк|ич|як|ц|ец|к|ск|цк)\w{0,3}")


def demonym_of(word: str, place: str, *, stem_at_least: int = 3) -> bool:
    """Whether ``word`` names a native of ``place`` or is its adjective ("самарчанка" of
    Самара, "нижегородка" of Нижний Новгород, "тверская" of Тверь): the place's name without
    its last vowel or soft sign (``stem_at_least`` letters) begins the word, and what follows
    is a native's ending."""
    w = _norm(word)
    parts = _norm(place).split()
    if not parts or len(w) < 4 or w == parts[0]:
        return False
    if len(parts) > 1:
        # a two-word place ("Нижний Новгород", "Набережные Челны"): the first letters of the
        # first word and the root of the last ("нижеГОРОДка")
        return _common(w, parts[0]) >= 3 and parts[-1][-5:] in w and w.endswith(("ка", "ец", "цы"))
    stem = re.sub(r"[аяеиоыуюьй]+$", "", parts[0])
    return len(stem) >= stem_at_least and w.startswith(stem) and bool(_NATIVE_TAIL.fullmatch(w[len(stem):]))


@lru_cache(maxsize=512)
def _place_in_dictionary(word: str) -> str | None:
    """A place pymorphy3's dictionary knows whose name begins with the stem of ``word`` (a
    native of it, "пермячка" -> Пермь), the longest stem first; None when none does."""
    w = _norm(word)
    stem = _DEMONYM_END.sub("", w)
    if len(stem) < 4:
        return None
    morph = _morph()
    own = {p.normal_form for p in morph.parse(w)}
    for k in range(len(stem), 3, -1):
        found: list[tuple[float, str]] = []
        for key in morph.dictionary.words.keys(stem[:k]):
            if len(found) > 40:
                break
            for p in morph.parse(key):
                if ("Geox" in p.tag.grammemes and p.tag.POS == "NOUN" and "sing" in p.tag.grammemes
                        and p.normal_form not in own
                        and demonym_of(w, p.normal_form, stem_at_least=4)):
                    found.append((p.score, p.normal_form))
        if found:
            best = max(found)[1]
            return best[:1].upper() + best[1:]
    return None


def _place_of_demonym(word: str, places: Sequence[str]) -> str | None:
    for place in places:
        if demonym_of(word, place):
            return place
    return _place_in_dictionary(word)


def _unplaced_native(word: str) -> str | None:
    """A native's word after "коренная" / "коренной" whose place neither the message, the
    person's places nor pymorphy3's dictionary name ("коренная нижегородка": Нижний Новгород is
    two words, and the person holds "Нижний"; "коренная екатеринбурженка": the stem's "г"
    became "ж"): the word itself, lower-case, stands for the place (``same_place`` compares it
    by its first letters). Only an animate noun or an adjective in the nominative with a
    native's ending, so "коренные изменения" or "коренной зуб" name nothing."""
    w = _norm(word)
    if len(w) < 7 or not _DEMONYM_END.search(w) or not _a_demonym(w):
        return None
    parses = _morph().parse(w)
    if not any(p.tag.POS == "ADJF" or (p.tag.POS == "NOUN" and "anim" in p.tag.grammemes)
               for p in parses[:2]):
        return None
    return w


def _a_demonym(word: str) -> bool:
    """A word that can name a native or be a place's adjective: an animate noun or an
    adjective in the nominative."""
    parses = _morph().parse(_norm(word))
    return any("nomn" in p.tag.grammemes and (
        p.tag.POS in ("ADJF",) or (p.tag.POS == "NOUN" and "anim" in p.tag.grammemes)
        or "Geox" in p.tag.grammemes) for p in parses[:3])


def _clause_has_verb(clause: str) -> bool:
    morph = _morph()
    return any(morph.parse(w)[0].tag.POS in ("VERB",)
               for w in re.findall(r"[а-яё]+", clause.lower()))


def _surface(clause: str, place: str, aliases: Iterable[str]) -> int:
    """Where in ``clause`` the place is said (its name or one of its forms), -1 if nowhere."""
    low = _norm(clause)
    for said in (place, *aliases):
        at = low.find(_norm(said))
        if said and at >= 0:
            return at
    return -1


def _after(text: str, prep: re.Pattern[str], places: Sequence[tuple[str, tuple[str, ...]]],
           ) -> tuple[str, str] | None:
    """The first of ``places`` said right after ``prep`` in ``text`` ("в Перми", "из Тольятти"),
    with the word it is said by."""
    low = _norm(text)
    best: tuple[int, str, str] | None = None
    for place, forms in places:
        at = _surface(text, place, forms)
        if at >= 0 and any(m.end() == at for m in prep.finditer(low)) and (
                best is None or at < best[0]):
            best = (at, place, text[at:].split()[0])
    return None if best is None else (best[1], best[2])


def _about_speaker(text: str, at: int) -> bool:
    """Whether what is said at ``at`` is said of the speaker: the sentence before it names the
    speaker ("я", "меня"), or names no one else (a third-person pronoun, a first name: "Ирина
    сама из Рыбинска")."""
    from wave_agent.world.morphology import is_name

    start = max(text.rfind(sep, 0, at) for sep in ".!?\n") + 1
    before = text[start:at]
    words = set(re.findall(r"[а-яё]+", _norm(before)))
    if words & _SPEAKER_FORMS:
        return True
    if words & _OTHER:
        return False
    morph = _morph()
    if any({"VERB", "3per"} <= morph.parse(w)[0].tag.grammemes for w in words):
        return False  # "говорит, сам из Череповца": someone else says it of themselves
    if any(morph.parse(w)[0].tag.POS == "NOUN" and {"anim", "nomn"} <= morph.parse(w)[0].tag.grammemes
           for w in words):
        return False  # "мама родом из Самары", "соседка родилась в Туле"
    return not any(is_name(w) for w in re.findall(r"(?<![\w-])[А-ЯЁ][а-яё]+", before))


def read(text: str, lang: str, places: Sequence[tuple[str, tuple[str, ...]]],
         held: Sequence[str] = ()) -> tuple[str, str] | None:
    """The speaker's birthplace ``text`` states, with the word that says it (to read the
    clause's polarity by): ``places`` are the places the reading found (name, forms said),
    ``held`` place names the person holds (cities, a birthplace)."""
    if lang != "ru":
        for pattern in ((_BORN_PL, _FROM_PL) if lang == "pl" else (_BORN_EN, _FROM_EN)):
            m = pattern.search(text)
            if m:
                said = m.group(1)
                name = next((p for p, forms in places if _norm(said).startswith(_norm(p)[:4])
                             or said in forms), None)
                if name is None:
                    from wave_agent.world.latin import nominative_pl

                    name = nominative_pl(said) if lang == "pl" else said
                return name, said.split()[0]
        return None
    names = [p for p, _ in places] + [h for h in held if h not in {p for p, _ in places}]
    offset = 0
    for piece in re.split(r"([.;!?\n—,]+)", text):
        clause, at0 = piece, offset
        offset += len(piece)
        low = _norm(clause)
        if not low.strip() or _CLAUSE.fullmatch(clause.strip() or "."):
            continue
        # "я коренная самарчанка", "коренной москвич"
        native = _NATIVE.search(clause)
        if native:
            place = _place_of_demonym(native.group(1), names) or _unplaced_native(native.group(1))
            if place is not None and _about_speaker(text, at0 + native.start()):
                return place, native.group(1)
        words = re.findall(r"[а-яё-]+", low)
        # "я ж тверская", "я вообще москвичка": the speaker and a native's word, no verb
        if "я" in words and not _clause_has_verb(clause):
            for w in words[words.index("я") + 1:]:
                if len(w) >= 5 and _DEMONYM_END.search(w) and _a_demonym(w):
                    place = _place_of_demonym(w, names)
                    if place is not None:
                        return place, w
        born = _BORN_RU.search(clause)
        if born is not None and _about_speaker(text, at0 + born.start()):
            found = _after(clause, _IN_RU, places)
            if found is not None:
                return found
            if _THERE.search(low) and "я" in re.findall(r"[а-я]+", low) and len(places) == 1 and _surface(text[:at0], *places[0]) >= 0:
                # "едем к маме в Дзержинск. я там родилась и выросла": "there" is the one
                # place the message names before it
                return places[0][0], born.group(0)
        # "сама я из Перми", "я сама, кстати, из Самары": the speaker named in the clause or
        # the sentence before it, no verb in the clause, and no one else before "из" ("у меня
        # испанский с Лаурой, она из Валенсии")
        start = max(text.rfind(sep, 0, at0) for sep in ".!?\n") + 1
        plain = _FROM_RU.search(clause)
        if plain is not None and not _clause_has_verb(clause):
            here = set(re.findall(r"[а-яё]+", low[:plain.start()]))
            said_by_me = (here | set(re.findall(r"[а-яё]+", _norm(text[start:at0])))) & _SPEAKER
            if said_by_me and _about_speaker(text, at0 + plain.start()) and not here & _OTHER:
                found = _after(clause, _FROM_RU, places)
                if found is not None:
                    return found
    # "родом я из Тольятти", "откуда я родом? из Самары": the first place after "из" that
    # follows the word
    origin = _ORIGIN_RU.search(text)
    if origin is not None and _about_speaker(text, origin.start()):
        return _after(text[origin.start():], _FROM_RU, places)
    return None


def same_place(a: str, b: str) -> bool:
    """Whether two birthplaces said are one ("Нижний" and "Нижний Новгород"; a native's word
    and its place). Two names in different alphabets are taken as one: without a reading of
    both, a contradiction would be a guess."""
    from wave_agent.world.attributes import same_value

    if same_value(a, b) or demonym_of(a, b) or demonym_of(b, a):
        return True
    unplaced = [x[:1].islower() for x in (a, b)]
    if any(unplaced):
        # a native's word no place was found for ("нижегородка", ``_unplaced_native``): the
        # same place when its first letters are the place's ("Нижний", "Нижний Новгород") or
        # the other native word's; a doubt counts as the same place, never as a contradiction
        x, y = _norm(a), _norm(b)
        return _common(x, y) >= (5 if all(unplaced) else 3)
    cyrillic = [bool(re.search("[а-яё]", x.lower())) for x in (a, b)]
    return cyrillic[0] != cyrillic[1]
