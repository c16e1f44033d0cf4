"""A value of one slot said another way (issue 30, round thirty-five): the readings of
``read_values`` miss a value that the months' authors say as a second value of a slot held
already, and so never raise the contradiction they label.

- **Another person's city said by where they are** (Russian): "Глеб у себя в Новосибирске
  замерзает", "Денис звонил, у них в Екатеринбурге минус двадцать пять", "Мама из Саратова
  звонила" (the place before the verb of calling, where the world reader links nothing),
  "мама у меня всю жизнь в Твери прожила" (a whole life is where one still lives). Whose: the
  person named before it in its sentence (a first name or a kin word), else the one person the
  message names before it; none or the speaker ("у нас", "я у себя") and it is no one's.
- **An age said as an adjective** ("девятилетний сын", "9-летняя Соня", "для двухлетки"): the
  numeral that begins the word, in pymorphy3's reading; whose is the kin word or name after
  it, else the one held pet or person the message names.
- **A diet broken by eating what it excludes** ("я вообще-то мясо ем", "взяла шаурму с
  курицей, я ж всеядная", "я мясоед со стажем" after "я вегетарианка"): a word of the meat
  root, or a food noun whose nearest seed in natasha's navec vectors is a meat dish (cosine
  >= 0.35 and nearer than every other food), in a clause the person eats, orders or loves it
  in, not negated. It denies the held meatless diet (a contradiction to ask about); said with a
  word of a change ("теперь ем мясо", "снова") it ends it.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from graph import kin
from wave_agent.world import age, lexicon
from wave_agent.world.reading import ROLE_PREFIX, USER

# "у себя в X", "у них (там) в X", "у неё в X": where someone is
_THERE = re.compile(r"\bу\s+(себя|них|неё|нее|него)\s+(?:(?:там|уже|сейчас|ещё|еще|же|ж|"
                    r"опять|снова)\s+){0,2}в\s+([А-ЯЁ][а-яё-]+)")
# "Мама из Саратова звонила": the place first, the verb of calling after it
_FROM_THEN_CALL = re.compile(r"\bиз\s+([А-ЯЁ][а-яё-]+)\s+(?:(?:опять|снова|сегодня|вчера|уже|"
                             r"утром|вечером)\s+)?(\w+)")
# "всю жизнь в Твери прожила", "всю жизнь живёт в Гродно", "Оля у меня всю жизнь в Екатеринбурге"
_WHOLE_LIFE = re.compile(r"\bвсю\s+(?:свою\s+)?жизнь\s+(?:(\w+)\s+)?в\s+([А-ЯЁ][а-яё-]+)")
_CALL_LEMMAS = frozenset({"звонить", "позвонить", "писать", "написать", "прислать",
                          "присылать"})
_LIVE_LEMMAS = frozenset({"жить", "прожить", "проживать"})
_SENTENCE = re.compile(r"[.!?\n;]+")
_CLAUSE = re.compile(r"[.!?\n;,:—]+")


def _morph() -> Any:
    from wave_agent.world.morphology import _morph as morph

    return morph()


def _lemma(word: str) -> str:
    parses = _morph().parse(word.lower())
    return str(parses[0].normal_form) if parses else word.lower()


def _place(word: str, places: dict[str, str]) -> str | None:
    """The place a capitalised word names: a place the reading found (its name), else a
    geographical name by pymorphy3 (its nominative)."""
    low = word.lower()
    for name, canonical in places.items():
        if low.startswith(name.lower()[:max(3, len(name) - 2)]):
            return canonical
    for p in _morph().parse(word):
        if "Geox" in p.tag.grammemes and p.score >= 0.1:
            return str(p.normal_form).capitalize()
    return None


def _someone(word: str) -> str | None:
    """A kin word as ``role:<role>`` or a first name in the nominative, else None."""
    role = kin.role_of(_lemma(word))
    if role is not None:
        return ROLE_PREFIX + role
    if word[:1].isupper() and len(word) > 1:
        from wave_agent.world.morphology import is_name, name_nominative

        if is_name(word) and any("Name" in p.tag.grammemes for p in _morph().parse(word)):
            return name_nominative(word, "Nom")
    return None


def _whose(text: str, at: int) -> str | None:
    """The person a value said at ``at`` is of: the last one named before it in its sentence,
    else the one person the message names before it; None for none, several, or the speaker
    named after the last of them."""
    start = max((m.end() for m in _SENTENCE.finditer(text, 0, at)), default=0)
    words = re.findall(r"[А-Яа-яЁё-]+", text[start:at])
    for word in reversed(words):
        if word.lower() in ("я", "мы", "нас", "нам"):
            return None
        who = _someone(word)
        if who is not None:
            return who
    named = {w for w in (_someone(x) for x in re.findall(r"[А-Яа-яЁё-]+", text[:start])) if w}
    return named.pop() if len(named) == 1 else None


def others_cities(text: str, places: dict[str, str]) -> list[tuple[str, str]]:
    """(whose, city) for another person's city said by where they are (the module's
    docstring). ``places``: the reading's place mentions, a word of each -> its name."""
    found: list[tuple[str, str]] = []

    def add(at: int, word: str) -> None:
        city = _place(word, places)
        whose = _whose(text, at) if city is not None else None
        if whose is not None and whose != USER and (whose, city) not in found:
            found.append((whose, city))  # type: ignore[arg-type]

    for m in _THERE.finditer(text):
        add(m.start(), m.group(2))
    for m in _FROM_THEN_CALL.finditer(text):
        if _lemma(m.group(2)) in _CALL_LEMMAS:
            add(m.start(), m.group(1))
    for m in _WHOLE_LIFE.finditer(text):
        clause_end = _CLAUSE.search(text, m.end())
        clause = text[m.start():clause_end.start() if clause_end else len(text)]
        verbs = [_lemma(w) for w in re.findall(r"[а-яё]+", clause.lower())]
        if m.group(1) is not None and _lemma(m.group(1)) not in _LIVE_LEMMAS:
            continue
        if any(v in _LIVE_LEMMAS for v in verbs) or not any(
                "VERB" in str(_morph().parse(w)[0].tag) for w in re.findall(r"[а-яё]+", clause.lower())):
            add(m.start(), m.group(2))
    return found


# "девятилетний", "9-летняя", "двухлетка", "семилетку"
_YEARS_WORD = re.compile(r"(?<![\w-])(?:(\d{1,2})-?|([а-яё]{3,}?))лет(?:н[а-яё]+|к[аиеуой]й?)(?![\w-])",
                         re.I)


def _numeral(prefix: str) -> int | None:
    """The number a word's first part names ("девяти" -> 9, "двух" -> 2), by pymorphy3."""
    for p in _morph().parse(prefix.lower()):
        if p.tag.POS == "NUMR":
            lemma = str(p.normal_form)
            n = age.UNITS.get(lemma) or age.TEENS.get(lemma) or age.TENS.get(lemma)
            if n:
                return n
    return None


_LIKE = frozenset({"как", "будто", "словно", "точно", "вроде"})
_CHILD_NOUNS = frozenset({"ребёнок", "ребенок", "мальчик", "девочка", "пацан", "малыш",
                          "малышка", "школьник", "школьница"})


def ages_as_adjectives(text: str, held_names: list[str],
                       children: Sequence[str] = ()) -> list[tuple[str, str]]:
    """(whose, years) for an age said as an adjective or a noun of years (the module's
    docstring). ``held_names``: the pets and people the person holds, by name; ``children``:
    the person's children held with an age (a name or ``role:son``), one of whom a word for a
    child after it names ("девятилетний ребёнок"). Not a likeness ("визжал как трёхлетка")."""
    found: list[tuple[str, str]] = []
    for m in _YEARS_WORD.finditer(text):
        n = int(m.group(1)) if m.group(1) else _numeral(m.group(2))
        if n is None or not 0 < n < 100:
            continue
        before = re.findall(r"[а-яё]+", text[max(0, m.start() - 20):m.start()].lower())
        if before and before[-1] in _LIKE:
            continue
        after = re.findall(r"[А-Яа-яЁё-]+", text[m.end():m.end() + 40])[:2]
        whose = None
        noun_after = False
        for word in after:
            whose = _someone(word)
            noun_after = whose is None and "NOUN" in str(_morph().parse(word.lower())[0].tag)
            if noun_after and _lemma(word) in _CHILD_NOUNS and len(children) == 1:
                whose, noun_after = children[0], False
            if whose is not None or noun_after:
                break
        if whose is None and not noun_after:
            # "для двухлетки", "он уже семилетний": the one held pet or person named
            named = {h for h in held_names
                     if re.search(r"(?<![\w-])" + re.escape(h[:max(3, len(h) - 2)]), text, re.I)}
            whose = named.pop() if len(named) == 1 else None
        if whose is not None and whose != USER:
            found.append((whose, str(n)))
    return found


# meat dishes and meatless foods: a noun is meat when its nearest seed is one of the first
_MEAT_SEEDS = lexicon.words("""мясо говядина свинина курица шашлык стейк котлета колбаса сосиска
    фарш бекон ветчина баранина""")
_OTHER_SEEDS = lexicon.words("""овощи салат рыба сыр хлеб каша фрукты суп творог молоко гречка
    макароны рис тофу яйцо торт шоколад конфета печенье картошка фалафель кошка собака котёнок
    щенок""")
MEAT_NEAR = 0.35
MEAT_MARGIN = 0.05
_lock = threading.Lock()
_seeds: tuple[Any, Any] | None = None
_EAT_LEMMAS = frozenset({"есть", "съесть", "поесть", "кушать", "покушать", "жрать", "заказать",
                         "взять", "обожать", "любить", "питаться", "уплетать", "наворачивать",
                         "пожарить", "жарить"})
_OMNIVORE = re.compile(r"^(?:мясоед\w*|всеядн\w*)$")
_NEGATION = frozenset({"не", "ни", "без", "нельзя"})


@lru_cache(maxsize=16_384)
def meat_food(lemma: str) -> bool:
    """Whether a Russian noun or adjective names meat: the meat root ("мясо", "мясной"), or its
    nearest seed food in navec is a meat dish at cosine >= 0.35 ("шаурма", "плов", "индейка")."""
    import numpy as np

    from wave_agent.world.morphology import Models

    word = lemma.lower().replace("ё", "е")
    if word.startswith("мяс"):
        return True
    embedding = Models.get().embedding
    vector = embedding.get(word) if re.fullmatch(r"[а-я]{3,}", word) else None
    if vector is None:
        return False
    global _seeds
    with _lock:
        if _seeds is None:
            def rows(words: frozenset[str]) -> Any:
                found = [embedding.get(w.replace("ё", "е")) for w in sorted(words)]
                return np.array([v / np.linalg.norm(v) for v in found if v is not None])
            _seeds = (rows(_MEAT_SEEDS), rows(_OTHER_SEEDS))
    meat, other = _seeds
    unit = vector / np.linalg.norm(vector)
    near = float((meat @ unit).max())
    return near >= MEAT_NEAR and near > float((other @ unit).max()) + MEAT_MARGIN


def eats_meat(text: str) -> bool:
    """Whether the speaker says they eat meat (the module's docstring): in one clause a meat
    word and a verb of eating, ordering or loving it (or "я мясоед", "я всеядная"), with no
    negation and no one else named before it."""
    for clause in re.split(r"[.!?\n;,:—(]+|\s+(?:а|но)\s+", text):
        words = re.findall(r"[а-яё-]+", clause.lower())
        if not words or set(words) & _NEGATION:
            continue
        if any(_OMNIVORE.match(w) for w in words) and "я" in words:
            return True
        lemmas = []
        for w in words:
            parses = _morph().parse(w)
            lemmas.append((w, parses[0] if parses else None))
        eats = [p for _, p in lemmas if p is not None and p.tag.POS in ("VERB", "INFN")
                and str(p.normal_form) in _EAT_LEMMAS]
        if not eats:
            continue
        if any(p.tag.person == "3per" or (p.tag.POS == "VERB" and p.tag.tense == "past"
                                          and "я" not in words and _someone_in(clause))
               for p in eats):
            continue  # someone else eats it ("Артём жарит стейки")
        for i, (_, p) in enumerate(lemmas):
            if p is None or p.tag.POS not in ("NOUN", "ADJF") or not meat_food(str(p.normal_form)):
                continue
            # a dish said with what is in it ("шаверма с фалафелем"): the filling decides
            filling = next((q for w, q in lemmas[i + 1:i + 3] if q is not None
                            and q.tag.POS == "NOUN" and lemmas[i + 1][0] in ("с", "со")), None)
            if filling is None or meat_food(str(filling.normal_form)):
                return True
    return False


_SIBLING = {"brother": "masc", "sister": "femn"}
_BARE = frozenset({"мой", "моя", "моей", "моего", "моему", "моим", "мою", "мои", "наш", "наша",
                   "нашей", "нашего", "же", "ж", "вот", "кстати", "который", "которая"})


def _bare(clause: str, keep: str) -> bool:
    """A clause that is only ``keep`` with a possessive, adjectives and particles: an
    apposition ("брат мой", "моей младшей сестры", "Денис")."""
    for w in re.findall(r"[А-Яа-яЁё-]+", clause):
        low = w.lower()
        if low == keep.lower() or low in _BARE:
            continue
        p = _morph().parse(low)[0]
        if p.tag.POS not in ("ADJF", "PRCL", "CONJ"):
            return False
    return True


def siblings_named(text: str, people: Sequence[tuple[str, Sequence[str]]]) -> list[str]:
    """The person's brother or sister said by a kin word and, in the next clause of the same
    sentence, a first name standing alone beside it, or the other way round ("брат звонил,
    Денис", "Глеб звонил, брат мой", "у Оли, моей младшей сестры, ..."): the parse links a
    name to the kin word only when the two are said together ("брат Костя"). ``people``: the
    reading's person mentions (name, forms). The later of the two must stand alone in its
    clause (no verb: "Костя сказал, брат приедет" names Костя's news, not a brother), the
    sentence must name one person only, the name's gender the kin word's, and no one else's
    word ("его", "её", "у них") may hold the kin word."""
    found: list[str] = []
    for sentence in re.split(r"[.!?\n;]+", text):
        clauses = [c for c in re.split(r"[,—:()]+", sentence) if c.strip()]
        named = [(name, form) for name, forms in people for form in (name, *forms)
                 if re.search(r"(?<![\w-])" + re.escape(form) + r"(?![\w-])", sentence)]
        if len({name for name, _ in named}) != 1:
            continue
        name = named[0][0]
        for i in range(len(clauses) - 1):
            for kin_at, name_at in ((i, i + 1), (i + 1, i)):
                kin_words = [w for w in re.findall(r"[А-Яа-яЁё]+", clauses[kin_at])
                             if kin.role_of(w) in _SIBLING]
                form = next((f for n, f in named if re.search(
                    r"(?<![\w-])" + re.escape(f) + r"(?![\w-])", clauses[name_at])), None)
                if len(kin_words) != 1 or form is None:
                    continue
                role = kin.role_of(kin_words[0])
                later, keep = (clauses[name_at], form) if name_at > kin_at else (
                    clauses[kin_at], kin_words[0])
                if not _bare(later, keep):
                    continue
                if re.search(r"(?<![а-яё])(?:его|её|ее|их|у\s+него|у\s+неё|у\s+нее|у\s+них)"
                             r"(?![а-яё])", clauses[kin_at].lower()):
                    continue
                genders = {p.tag.gender for p in _morph().parse(name)
                           if "Name" in p.tag.grammemes}
                if _SIBLING[role or ""] in genders and name not in found:
                    found.append(name)
    return found


def _someone_in(clause: str) -> bool:
    return any(_someone(w) is not None for w in re.findall(r"[А-ЯЁ][а-яё]+", clause))


__all__ = ["MEAT_NEAR", "ages_as_adjectives", "eats_meat", "meat_food", "others_cities",
           "siblings_named"]
