"""Statements as values of attributes: which attribute of which entity a statement sets, to
what value, and how (``set`` a single value, ``add`` / ``remove`` one of many, ``negate``: the
statement says a value does not hold).

Built on the world reader (``wave_agent.world.read``): its typed links already say who lives
where, works where and as what, owns which pet, device or vehicle, has which illness or hobby,
and who their relatives are; an attribute is a link seen from the person ("lives_in" -> city,
"pet_of" -> pet, "kin:husband" -> partner). What links do not carry is read from the words'
lemmas (pymorphy3 for Russian; the forms people write for English and Polish): a phone
number, an age, a birthday, a price and what it pays for, a diet, an allergy, a habit, and
the statement's polarity (a negation governs it; an ending verb ends a value; a change word
marks an open change).

``held``: the values the person already holds. An ending names a value by itself ("Рыжика
больше нет" does not say Рыжик is a pet): the held values say which attribute it was; so does
a vehicle or device replaced by a new one named with it ("Продал Весту, купил Шкоду").

Whose value: a clause's own subject, not the speaker by default. A name or kin word before
the value ("Мой брат не курит", "Дина переехала в Москву", "Маме исполнилось 60") or a
third-person pronoun ("он не ест мясо") takes it from the person; a wish ("бросила бы") or the
past ("раньше") states no value now. A wrong holder is a false alarm: a contradiction raised on
what the person never said of themselves.

Why one file of this size: every reading below feeds the one ``Reading`` of a statement and
reads the same lemmas and polarity in an order that matters (a link's attribute first, then the
words', then an implied change); split, each piece would pass that state around.

Pure CPU, no I/O. See ``docs/architecture.md`` ("Attributes").
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from graph import kin
from graph.models import EntityType, FactType
from wave_agent.llm.prompts.extract import ATTRIBUTE_OPS, MULTI_ATTRIBUTES, SINGLE_ATTRIBUTES
from wave_agent.world import (
    age,
    another_way,
    birthplace,
    held_role,
    lexicon,
    own_child,
    school,
    teacher,
)
from wave_agent.world import attribute_words as W
from wave_agent.world.denial import negation_governs, one_occasion, the_persons
from wave_agent.world.kinds import (
    AGENT,
    e5_illness,
    formal_title,
    job_in_instrumental,
    job_noun,
    job_said_alone,
    leads_as,
    noun_kind,
    pastime_near,
    speaker_job,
)
from wave_agent.world.morphology import first_name, geographic
from wave_agent.world.morphology import lemma as ru_lemma
from wave_agent.world.oblique import workplace_nominative
from wave_agent.world.parenthetical import parenthetical
from wave_agent.world.possessor import own_relative, possessor
from wave_agent.world.reading import ROLE_PREFIX, USER, Reading

ANY = "*"  # a negation of the attribute as a whole ("аллергий нет", "детей у меня нет")

SINGLE = frozenset(SINGLE_ATTRIBUTES)  # one value at a time: a new one replaces the old
MULTI = frozenset(MULTI_ATTRIBUTES)    # several: values are added and removed
OPS = frozenset(ATTRIBUTE_OPS)

# The record type an attribute gives its record (its decay): who the person is and what they
# have lasts until replaced; relations with people are relationships; pastimes preferences.
TYPE_OF: dict[str, FactType] = {
    "city": FactType.IDENTITY, "employer": FactType.IDENTITY, "role": FactType.IDENTITY,
    "phone": FactType.IDENTITY, "age": FactType.IDENTITY, "birthday": FactType.IDENTITY,
    "birthplace": FactType.IDENTITY, "school": FactType.IDENTITY, "teacher": FactType.IDENTITY,
    "diet": FactType.IDENTITY, "vehicle": FactType.IDENTITY, "device": FactType.IDENTITY,
    "condition": FactType.IDENTITY, "allergy": FactType.IDENTITY, "price": FactType.IDENTITY,
    "partner": FactType.RELATIONSHIP, "pet": FactType.RELATIONSHIP,
    "child": FactType.RELATIONSHIP, "sibling": FactType.RELATIONSHIP,
    "hobby": FactType.PREFERENCE, "habit": FactType.PREFERENCE,
}


def single_valued(attribute: str) -> bool:
    return attribute in SINGLE or attribute.startswith("price:")


def record_type(attribute: str) -> FactType:
    return TYPE_OF.get(attribute.split(":")[0], FactType.IDENTITY)


@dataclass(frozen=True, slots=True)
class Value:
    """One attribute value a statement speaks of."""

    entity: str      # "user" or the canonical name of someone the person knows
    attribute: str   # city, employer, ..., price:<what>
    value: str       # as the person names it, in the nominative; ANY for a whole negation
    op: str          # set | add | remove | negate

    @property
    def key(self) -> str:
        return f"{self.entity}|{self.attribute}"

    def encode(self) -> str:
        """How a record carries it (a graph list property)."""
        return "|".join(part.replace("|", "/") for part in
                        (self.entity, self.attribute, self.value, self.op))

    @staticmethod
    def decode(raw: str) -> Value | None:
        parts = raw.split("|")
        return Value(*parts) if len(parts) == 4 and parts[3] in OPS else None

    def same_value(self, other: Value) -> bool:
        return same_value(self.value, other.value)


def same_value(a: str, b: str) -> bool:
    """Two names of one value: equal after case, ``ё`` and inflection (a shared stem)."""
    if ANY in (a, b):
        return True
    x, y = _norm(a), _norm(b)
    if x == y:
        return True
    if re.fullmatch(r"[\d ]+", x) or re.fullmatch(r"[\d ]+", y):
        return x.replace(" ", "") == y.replace(" ", "")
    xs, ys = x.split(), y.split()
    if xs and ys and len(xs) != len(ys) and min(len(xs), len(ys)) == 1 and (
            xs[0][:1].isalpha() and ys[0][:1].isalpha() and len(xs[0]) >= 5):
        # a place shortened as people say it: "Нижний" is "Нижний Новгород"
        short, long_ = (xs, ys) if len(xs) < len(ys) else (ys, xs)
        return _inflected(short[0], long_[0]) or _inflected(long_[0], short[0])
    return bool(xs) and len(xs) == len(ys) and all(
        _alike(u, v) for u, v in zip(xs, ys, strict=True))


def names_value(word: str, value: str) -> bool:
    """Whether one word of a question names ``value`` or a word of it, in either alphabet:
    "before Ak Bars" names "Ак Барс Банк", "before Artyom" names "Артём"."""
    if same_value(word, value):
        return True
    if not re.fullmatch(r"[A-Za-z]+", word):
        return False
    said = _cyrillic(word)
    return any(_alike(said, w) for w in _norm(value).split())


def _norm(text: str) -> str:
    return " ".join(re.findall(r"\w+", text.lower().replace("ё", "е")))


def _words(text: str, lang: str) -> list[tuple[str, str]]:
    """(written form lower-cased, lemma) of each word; a Russian word that may be a verb
    gives its verb lemma too ("плачу": плач and платить), as a second pair."""
    out = []
    for w in re.findall(r"[\w'’-]+", text):
        low = w.lower().replace("ё", "е").replace("’", "'")
        if lang == "ru" and re.search("[а-я]", low):
            noun, verb = ru_lemma(low).replace("ё", "е"), ru_lemma(low, "VERB").replace("ё", "е")
            out.append((low, noun))
            if verb != noun:
                out.append((low, verb))
        else:
            out.append((low, low))
    return out


def _entity(end: str) -> str:
    return USER if end == USER else end


@dataclass(slots=True)
class _Polarity:
    negated: bool
    ended: bool
    changed: bool
    past: bool = False  # "раньше жила в Перми": a value that held before, not now
    unreal: bool = False  # "бросила бы курить": a wish or a condition, no value either way
    streak: bool = False  # "третий день не курю": a try counted in days, not a value denied
    once: bool = False  # "сегодня не пошла на керамику": one occasion, not the pastime denied
    # "на йогу не пошла": a negated perfective past, one event, not the habit denied
    # (``denial.one_occasion``)
    event: bool = False


_PAST = re.compile(r"\b(?:раньше|прежде|когда-то|до этого|used to|previously|formerly|"
                   r"wcześniej|kiedyś|dawniej)\b", re.I)


# the conditional mood: a wish or a condition states no value ("бросила бы курить", "I would
# quit smoking", "rzuciłabym palenie")
_UNREAL = re.compile(r"\b(?:бы|б|would|wouldn't|[a-ząćęłńóśźż]+(?:łabym|łbym|łobym|libyśmy))\b", re.I)


def _polarity(text: str, words: Sequence[tuple[str, str]], lang: str = "") -> _Polarity:
    forms = {w for w, _ in words}
    lemmas = {lem for _, lem in words}
    ended = bool(W.ENDED_PHRASES.search(text)) or bool(
        (lemmas | forms) & W.ENDING) or "gave up" in text.lower()
    negated = bool(forms & W.NEGATION) or "n't" in text.lower()
    # a denial from now on is an ending ("с сегодняшнего дня не курю", "od dziś nie palę")
    starts = bool(W.FROM_NOW.search(text))
    ended = ended or (negated and starts)
    return _Polarity(negated=negated and not ended, ended=ended,
                     changed=bool(W.CHANGE.search(text)) or W.says_new(text, forms),
                     past=bool(_PAST.search(text)), unreal=bool(_UNREAL.search(text)),
                     streak=bool(W.STREAK.search(text)), once=bool(W.ONCE.search(text)) and not starts,
                     event=negated and not ended and one_occasion(text, lang))


_SELF_FORMS = ((r"^([А-ЯЁ][а-яё]+) пользователя —", r"Мой \1 —"),  # "Парень пользователя — Дима"
               (r"\bПользователь\b", "Я"), (r"\bпользователь\b", "я"),
               (r"\b[Пп]ользователя\b", "меня"), (r"\bПользователю\b", "Мне"),
               (r"\bпользователю\b", "мне"), (r"\b[Пп]ользователем\b", "мной"),
               (r"\b[Пп]ользователе\b", "мне"), (r"\bThe user's\b", "My"),
               (r"\bthe user's\b", "my"), (r"\bThe user is\b", "I am"),
               (r"\bThe user\b", "I"), (r"\bthe user\b", "I"), (r"\bUżytkownik\b", "Ja"))


_QUOTED_WORDS = re.compile(r"[«\"“„]([a-zа-яёąćęłńóśźż][^«»\"“”„]{0,60})[»\"”“]")


def as_said(text: str) -> str:
    """A record the offline extractor wrote about "the user" back in the first person
    ("Пользователь живёт в Самаре" -> "Я живёт в Самаре"): the reader's subject is the speaker;
    emoji left out."""
    for pattern, said in _SELF_FORMS:
        text = re.sub(pattern, said, text)
    # a title quoted as said ("я теперь «ведущий аналитик данных»", month 10): a quoted phrase
    # that starts with a small letter is words, not a name («Сбер» stays a name)
    text = _QUOTED_WORDS.sub(r"\1", text)
    # an emoji between words is no word: "у меня есть парень 🙈 Павел" parsed with it lost
    # the partner (tuning_8)
    # (a birthday's cake and party face are kept: they say a birthday)
    return re.sub(r" ?[\U0001F000-\U0001FAFF\u2600-\u27BF\uFE0F\u200D]+",
                  lambda m: "".join(ch for ch in m.group(0) if ch in "🎂🥳"), text)


def _head(reading: Reading, name: str) -> str:
    """A phrase's head noun, its first alias ("диабет второго типа" is valued "диабет")."""
    mention = reading.mention(name)
    heads = mention.aliases[:1] if mention is not None and " " in name else ()
    return heads[0] if heads and heads[0] in name.split() else name


def _role(reading: Reading, name: str) -> str:
    """A job's value: its head noun and the words before it, the rest left out ("ведущий
    дизайнер мобилки" -> "ведущий дизайнер", "тимлид группы тестирования" -> "тимлид")."""
    head = _head(reading, name)
    words = name.split()
    return " ".join(words[:words.index(head) + 1]) if head in words else head


def read_values(text: str, reading: Reading, held: Iterable[Value] = ()) -> tuple[Value, ...]:
    """The attribute values ``text`` speaks of (``reading``: the world reader's reading of it,
    of ``as_said(text)``)."""
    text = as_said(text)
    words = _words(text, reading.language)
    c = _Collector(text, reading.language)
    put, multi_op, single_op = c.put, c.multi_op, c.single_op
    kinds = {m.name: m.type for m in reading.mentions}
    for link in reading.links:
        kind = link.type
        source = link.source
        if source == USER and kind in ("lives_in", "works_at", "works_as"):
            # the parse gives the speaker a clause whose subject it did not see ("Дина
            # переехала в Москву": the name not read as a person): the one named before it
            whose = _holder(text, _said_as(text, link.target), reading.language)
            if whose is None:
                continue
            source = whose
        if kind == "lives_in":
            if _compared_place(text, _said_as(text, link.target)):
                continue  # "płaci dwa razy tyle co w Krakowie": a place compared with, not a home
            if _lives_there(text, link.target, other=source != USER) and (
                    source == USER or _said_as_subject(text, source, link.target, reading.language)):
                put(_entity(source), "city", link.target, single_op())
        elif kind == "works_at":
            put(_entity(source), "employer", link.target, single_op())
        elif (kind == "works_as" and link.target.lower() not in W.CHILDREN | W.DIET.keys()
              and not W.ONLY_CHILD.search(text)):
            # (not "я единственный ребёнок"; a phrase is valued by its head noun with the words
            # before it: "ведущий дизайнер" is another role than "продуктовый дизайнер")
            put(_entity(source), "role", _role(reading, link.target), single_op())
        elif kind == "pet_of":
            put(_entity(link.target), "pet", link.source, multi_op())
        elif kind == "does":
            put(_entity(source), "hobby", _head(reading, link.target), multi_op())
        elif kind == "has_condition" and _head(reading, link.target).lower() not in W.ALLERGY:
            # (an allergy is its own attribute, also said with what it is to: "аллергия на X")
            put(_entity(source), "condition", _head(reading, link.target), multi_op())
        elif kind == "owns":
            target_kind = kinds.get(link.target)
            if target_kind is EntityType.VEHICLE:
                put(_entity(source), "vehicle", _brand(text) or link.target, single_op())
            elif target_kind is EntityType.DEVICE and not W.PHONE.search(text):
                put(_entity(source), "device", _brand(text) or link.target, multi_op())
        elif (kind.startswith("kin:") and source == USER
              and not link.target.startswith(ROLE_PREFIX)):
            # (a relative said by the role alone names no value: "брат не курит")
            role = kind[4:]
            if role in W.PARTNER_ROLES:
                put(USER, "partner", link.target, single_op())
            elif role in ("son", "daughter"):
                put(USER, "child", link.target, multi_op())
            elif role in ("brother", "sister"):
                put(USER, "sibling", link.target, multi_op())
    held = list(held)
    c.pets = [v.value for v in held if v.attribute == "pet" and v.op in ("set", "add")]
    c.held = held
    _from_words(text, reading, words, c)
    _named_pet(text, reading, words, c)
    _pets_listed(text, reading, words, c)
    _endings(text, words, held, c)
    _said_over(text, held, c)
    _buried(text, held, c)
    _last_day(text, held, c)
    _pets_away(text, words, held, c)
    _vehicles_and_devices(text, reading.language, held, c)
    _own_car(text, c)
    _job_among_us(text, c)
    _birthplace(text, reading, held, c)
    # a child of the person's own said by name, school and age, with no kin word ("Лёву
    # отвела в школу. первоклашка мой"; ``world/own_child.py``)
    if (reading.language == "ru" and not any(v.attribute == "child" for v in c.found)
            and (named_child := own_child.own_child(text)) is not None):
        put(USER, "child", named_child, multi_op())
    if reading.language == "ru":
        _said_another_way(text, reading, c)
        _moved_there(text, reading, c)
        _appointed(text, c)
        # a child's school and class ("Мишу взяли в гимназию №7", "учится в 1«Б»"; round
        # thirty-eight): the school read as the child's employer is the child's school
        for whose, at in school.school_values(text, reading, c.found, held, _holder,
                                              _only_named):
            c.found = [v for v in c.found if not (
                v.entity == whose and v.attribute == "employer"
                and school.schools_said(v.value))]
            put(whose, "school", at, "set")
        # a teacher or tutor of a subject ("хожу к Лизе" on vocal, "английский теперь с
        # Джеймсом"; round thirty-nine, ``world/teacher.py``): one per subject
        for whose, taught in teacher.teacher_values(text, held):
            put(whose, "teacher", taught, "set")
    if reading.language in ("en", "pl"):
        for name, noun in held_role.latin_holders(text):
            put(name, "role", noun, single_op())
    # a new holder of the speaker's superior ends the earlier holder's role (round thirty-six)
    for entity, value in held_role.taken_over(text, c.found, held):
        put(entity, "role", value, "remove")
    _contrast(c)
    _car_class_denied(c)
    if W.JOB_OFFER.search(text):
        # an offer is not yet the job, nor its city the home: the employer, role and city stay
        # what they were until the first day ("первый день в Ак Барсе") or the move
        return tuple(v for v in c.found if not (
            v.entity == USER and v.attribute in ("employer", "role", "city") and v.op in ("set", "add")))
    return tuple(c.found)


# "переехал туда", "перебралась уже туда": a move whose place is said before it
_MOVED_THERE = re.compile(r"(?<![\w-])([а-яё]+)\s+(?:(?:уже|сразу|тоже|так|и|насовсем)\s+){0,2}туда\b",
                          re.I)
_MOVE_LEMMAS = frozenset({"переехать", "перебраться", "переезжать", "перебираться"})


def _moved_there(text: str, reading: Reading, c: _Collector) -> None:
    """Someone's move to a place named before it in its sentence ("Денис получил оффер во
    Вроцлаве и уже переехал туда", round thirty-six): the place the last one the world reader
    found before the verb, whose the one named before the place (``_holder``). Only where the
    message's other readings found no city of that person."""
    from wave_agent.world.morphology import _morph

    places = [m.name for m in reading.mentions if m.type is EntityType.PLACE]
    for move in _MOVED_THERE.finditer(text):
        parses = _morph().parse(move.group(1).lower())
        if not parses or parses[0].normal_form not in _MOVE_LEMMAS or (
                "past" not in parses[0].tag):
            continue
        start = max(text.rfind(sep, 0, move.start()) for sep in ".!?\n") + 1
        said = [(text.find(_said_as(text, p), start), p) for p in places]
        said = [(at, p) for at, p in said if start <= at < move.start()]
        if not said:
            continue
        _, place = max(said)
        whose = _holder(text, _said_as(text, place), reading.language)
        if whose is None or whose == USER:
            continue  # the speaker's own move after an offer waits for the first day
        entity = _entity(whose)
        if not any(v.entity == entity and v.attribute == "city" for v in c.found):
            c.put(entity, "city", place, c.single_op())


_COMPARED = re.compile(r"(?:\b(?:co|niż|niz|than|чем|как|jak)\s+(?:(?:w|we|in|в|во)\s+)?)$", re.I)


def _compared_place(text: str, said: str) -> bool:
    """Whether a place is said only after a word of comparison ("dwa razy tyle co w Krakowie",
    "дороже, чем в Самаре", "cheaper than in Leeds"): every time the text names it."""
    spots = [m.start() for m in re.finditer(re.escape(said), text)] if said else []
    return bool(spots) and all(_COMPARED.search(text[max(0, at - 12):at]) for at in spots)


_APPOINT_LEMMAS = frozenset({"назначить", "поставить", "повысить"})


def _appointed(text: str, c: _Collector) -> None:
    """Someone else appointed to a job ("у Лены новость: её назначили заведующей отделением",
    "его поставили шефом", "Рината повысили до тимлида", round thirty-six): a verb of
    appointing in the third person plural past, the one appointed its object (a name in the
    accusative, or "его / её" for the one person the message names before it), the job its
    noun in the instrumental ("до" and the genitive after "повысить") that navec reads as a
    job (``job_noun``)."""
    from wave_agent.world.morphology import _morph, is_name, name_nominative

    tokens = list(re.finditer(r"[А-ЯЁа-яё-]+", text))
    for i, tok in enumerate(tokens):
        parses = _morph().parse(tok.group().lower())
        if not parses or parses[0].normal_form not in _APPOINT_LEMMAS or not {
                "past", "plur"} <= parses[0].tag.grammemes:
            continue
        whose = None
        near = [t for t in tokens[max(0, i - 2):i + 3] if t is not tok]
        for t in near:
            word = t.group()
            if word.lower() in ("его", "её", "ее") and t.start() < tok.start():
                whose = _only_named(text[:t.start()], "ru")
            elif word[:1].isupper() and is_name(word) and any(
                    "accs" in p.tag and {"Name", "Surn"} & p.tag.grammemes
                    for p in _morph().parse(word)):
                whose = name_nominative(word, "accs")
            if whose:
                break
        if not whose:
            continue
        after = tokens[i + 1:i + 4]
        case = "ablt"
        if parses[0].normal_form == "повысить" and after and after[0].group().lower() == "до":
            after, case = after[1:], "gent"
        for t in after:
            if t.group()[:1].isupper():
                continue  # the name said after the verb
            # a noun, or a participle used as one ("заведующей": Subx)
            noun = next((p for p in _morph().parse(t.group().lower()) if case in p.tag and (
                p.tag.POS == "NOUN" or "Subx" in p.tag)), None)
            if noun is None:
                continue
            nominative = noun.inflect({"nomn"})
            said = str(nominative.word) if nominative is not None else str(noun.normal_form)
            if job_noun(str(noun.normal_form)) or job_noun(said) or held_role.above(said):
                c.put(_entity(whose), "role", said, c.single_op())
            break


_MEATLESS = frozenset({"вегетарианство", "веганство", "пескетарианство"})


def _said_another_way(text: str, reading: Reading, c: _Collector) -> None:
    """A value of a slot said another way (``world/another_way.py``, round thirty-five):
    another person's city by where they are, an age as an adjective, a meatless diet broken
    by eating meat. Each only where the message's other readings found no value of the slot."""
    found = {v.key for v in c.found}
    places: dict[str, str] = {}
    for m in reading.mentions:
        if m.type is EntityType.PLACE:
            for name in (m.name, *m.aliases):
                places[name] = m.name
    for whose, city in another_way.others_cities(text, places):
        if f"{whose}|city" not in found:
            c.put(whose, "city", city, "set")
    people = [v.value for v in c.held if v.entity == USER and v.attribute in _NAMED
              and v.op in ("set", "add") and v.value[:1].isupper()]
    aged = {v.entity for v in c.held if v.attribute == "age"}
    children = [e for e in aged if e in ("role:son", "role:daughter") or any(
        v.attribute == "child" and v.value == e for v in c.held)]
    for whose, years in another_way.ages_as_adjectives(text, [*c.pets, *people], children):
        if whose.startswith(ROLE_PREFIX) and whose not in aged and whose[len(ROLE_PREFIX):] in (
                "son", "daughter"):
            # "девятилетний сын" after "Мише семь": the one child held with an age
            children = [p for p in people if p in aged and any(
                v.attribute == "child" and v.value == p for v in c.held)]
            whose = children[0] if len(children) == 1 else whose
        if f"{whose}|age" not in found:
            c.put(whose, "age", years, "set")
    people_said = [(m.name, m.aliases) for m in reading.mentions if m.type is EntityType.PERSON]
    for name in another_way.siblings_named(text, people_said):
        # "брат звонил, Денис", "у Оли, моей младшей сестры": the parse linked no name to the
        # kin word, so "я единственный ребёнок в семье" met no sibling
        if not any(v.attribute == "sibling" and same_value(v.value, name) for v in c.found):
            c.put(USER, "sibling", name, c.multi_op())
    diets = [v for v in c.held if v.entity == USER and v.attribute == "diet" and v.op == "set"
             and v.value in _MEATLESS]
    if diets and f"{USER}|diet" not in found and another_way.eats_meat(text):
        op = "remove" if W.CHANGE.search(text) or W.RESUME.search(text) else "negate"
        c.found.append(Value(USER, "diet", diets[-1].value, op))


# a conjunction after the comma only as a word of its own: ", аллергия на киви" keeps its "а"
_CLAUSE = re.compile(r"[.;!?\n]+|,\s*(?:(?:а|но|и|a|ale|i|but|and)\b)?\s*|\s+(?:а|но|but|ale)\s+")


# an illness said to be over: "всё зажило", "вылечилась", "healed", "wyleczyłam się"
_HEALED = re.compile(r"\b(?:зажил\w*|вылечил\w*|излечил\w*|healed|cured|wyleczy\w*)", re.I)


def _clause_pieces(text: str, lang: str) -> list[str]:
    """The text cut into clauses at ``_CLAUSE``; a Russian parenthetical set off by commas on
    both sides ("йогу я, похоже, забросила", "йогу, короче, забросила": every word of it one
    pymorphy3 reads as a parenthetical, `Prnt`) is no clause of its own, so the clause it sits
    in keeps its ending verb: cut there, "йогу я" read as the pastime held and "забросила"
    ended nothing (three tuning months' and month 40's dropped pastimes)."""
    raw: list[tuple[str, str]] = []  # each piece and the cut after it
    start = 0
    for cut in [*_CLAUSE.finditer(text), None]:
        end = cut.start() if cut is not None else len(text)
        raw.append((text[start:end], cut.group() if cut is not None else ""))
        start = cut.end() if cut is not None else len(text)
    pieces: list[str] = []
    glue = False  # the piece before was a parenthetical: this one joins the clause it sits in
    for i, (piece, after) in enumerate(raw):
        before = raw[i - 1][1] if i else ""
        if (lang == "ru" and pieces and before.strip() == "," and after.strip() == ","
                and i + 1 < len(raw) and parenthetical(piece)):
            pieces[-1] = f"{pieces[-1]} {piece}"
            glue = True
            continue
        if glue:
            pieces[-1] = f"{pieces[-1]} {piece}"
        elif piece.strip():
            pieces.append(piece)
        glue = False
    return [p for p in pieces if p.strip()]


class _Collector:
    """The values found so far (one per entity, attribute and value), and the polarity of
    each clause: "Расстались с Игорем, теперь встречаюсь с Димой" ends one partner in its
    first clause and sets the next in its second."""

    MULTI, SINGLE = "multi", "single"

    def __init__(self, text: str, lang: str) -> None:
        self.found: list[Value] = []
        self.lang = lang
        self.text = text
        self.pets: list[str] = []  # the names of the pets the person holds
        self.held: list[Value] = []  # the values the person holds
        self.pol = _polarity(text, _words(text, lang), lang)
        self.clauses: list[tuple[str, _Polarity]] = []
        for piece in _clause_pieces(text, lang):
            self.clauses.append((piece, _polarity(piece, _words(piece, lang), lang)))

    def polarity_of(self, value: str) -> _Polarity:
        """The polarity of the clause that names ``value`` (the whole text's otherwise)."""
        name = _norm(value).split()
        # the clause that says the very word first ("а у меня детей нет", not "детский
        # праздник" before it), then one that says it inflected ("гастрита больше нет", not
        # "гастроэнтеролог сказала" before it), then one that says a word alike
        for match in (_same_word, _inflected, _alike):
            for piece, pol in self.clauses:
                said = _norm(piece).split()
                if name and all(any(match(w, s) for s in said) for w in name):
                    return pol
        return self.pol

    def put(self, entity: str | None, attribute: str, value: str, op: str) -> None:
        value = " ".join(value.split())
        if attribute == "employer" and self.lang == "ru" and (
                job := job_in_instrumental(value)) is not None:
            # "Работаю UX-дизайнером в «Контуре»": the job the parse tied to "работаю" as a
            # workplace is the role, so a later role finds it to replace
            attribute, value = "role", job
        if attribute == "employer":
            # "первый день в «Озоне»": the firm held in the nominative, one value with "Озон"
            value = workplace_nominative(self.text, value)
        if entity is None or not op:
            return  # someone unnamed's value ("он не ест мясо"), or one held only before
        if op in (self.MULTI, self.SINGLE):
            pol = self.polarity_of(value)
            if pol.past and not pol.changed:
                return  # held once, said as the past: not a value now
            op = (("remove" if pol.ended else "negate" if pol.negated else "add")
                  if op == self.MULTI else
                  ("negate" if pol.negated else "remove" if pol.ended else "set"))
            if op == "remove" and attribute in ("age", "birthday"):
                # no verb ends an age: "в свои 28 ... продала машину" ends the car, not the 28
                op = "set"
        if op == "remove" and attribute in _PEOPLE and _given_to(value, self.text, self.lang):
            return  # "старый телефон отдала Тиме": Тима is given a thing, not gone
        if op == "remove" and attribute in _PEOPLE and _ends_a_thing(value, self.text, self.lang):
            return  # "Тимур бросил плавание": the son ends a pastime, he is not gone
        if op == "negate" and attribute == "condition" and _HEALED.search(self.text):
            op = "remove"  # "гастрита нет, всё зажило": an illness over, not a denial of it
        if op == "negate" and value != ANY and not self.governed(value):
            return  # "даже вязать сил нет": "нет" governs "сил", the pastime is not denied
        if op == "negate":
            # not a denial: a streak of days ("третий день не курю", "second week without
            # sugar") is a try, not a settled value; a pastime skipped on one occasion ("на
            # керамику сегодня не пошла") is not given up (the tuning months' false alarms), nor
            # is one missed by a negated perfective past ("на йогу не пошла": month 26's)
            pol = self.polarity_of(value)
            if pol.streak and attribute == "habit" and any(
                    v.entity == entity and v.attribute == "habit" and v.op in ("set", "add")
                    for v in self.held):
                # a held habit counted in days without it ("третий день без сигарет", "сегодня
                # первый день без сигарет"): the habit given up, as the months' authors label
                # it (nineteen of nineteen), not a denial that asks which is true. h/change31
                # did not ship it because a later "никогда не курила" then met no active record;
                # since h/contra33 a denial of the whole past meets the replaced one
                op = "remove"
            elif pol.streak or (pol.once and attribute in ("hobby", "habit")):
                return
            if pol.event and attribute in ("hobby", "habit", "diet"):
                # one occasion missed; a later clause may still end the habit ("на йогу не
                # пошла ... забросила я йогу"): that one is read
                later = [p for p in self.polarities_of(value) if p is not pol and not p.event]
                if not any(p.ended or p.negated for p in later):
                    return
                op = "remove" if any(p.ended for p in later) else op
        if value and not any(v.key == f"{entity}|{attribute}" and same_value(v.value, value)
                             for v in self.found):
            self.found.append(Value(entity, attribute, value, op))

    def polarities_of(self, value: str) -> list[_Polarity]:
        """The polarity of every clause that names ``value`` (its words or words alike)."""
        name = _norm(value).split()
        return [pol for piece, pol in self.clauses if name and all(
            any(_inflected(w, s) or _alike(w, s) for s in _norm(piece).split()) for w in name)]

    def governed(self, value: str) -> bool:
        """Whether the negation of the clause that names ``value`` governs the word it is
        named by there (``denial.negation_governs``); a value the text names by no word of
        it keeps its denial."""
        name = _norm(value).split()
        if not name:
            return True
        for close in (True, False):
            for piece, _ in self.clauses:
                said = re.findall(r"[\w-]+", piece)
                word = next((s for s in said
                             if (_inflected if close else _alike)(name[0], _norm(s))), None)
                if word is not None and all(
                        any(_inflected(w, _norm(s)) if close else _alike(w, _norm(s)) for s in said)
                        for w in name):
                    return negation_governs(piece, word, self.lang)
        return True

    def op_at(self, word: str, *, multi: bool) -> str:
        """The op of a value named by another word than itself ("курю" -> курение, "веган" ->
        веганство): the polarity of the clause that says that word; "" when that clause says
        the past ("раньше курила": no value now)."""
        pol = self.polarity_of(word)
        if (pol.past and not pol.changed) or pol.unreal:
            return ""
        if pol.negated and not pol.ended and not self.governed(word):
            return ""  # "курить сил нет": the negation governs "сил", no value either way
        if multi:
            return "remove" if pol.ended else "negate" if pol.negated else "add"
        return "negate" if pol.negated else "remove" if pol.ended else "set"

    def multi_op(self) -> str:
        return self.MULTI

    def single_op(self) -> str:
        return self.SINGLE


def _car_class_denied(c: _Collector) -> None:
    """A car denied by its class word ("машины у меня нет", "у меня никогда не было машины")
    denies any car the person holds, whatever its make ("Киа Рио"): the value is ``ANY``, as
    "детей у меня нет" is of children. A car by its make denied ("Киа не моя") stays that one,
    and so does one said with a word of a change ("продала киашку ... без машины теперь": the
    car sold, not denied; tuning_37's false alarm)."""
    c.found[:] = [replace(v, value=ANY) if (
        v.attribute == "vehicle" and v.op == "negate" and v.value != ANY
        and (_norm(v.value) in W.CAR_CLASS or ru_lemma(_norm(v.value)) in W.CAR_CLASS)
        and not c.polarity_of(v.value).changed and not W.CHANGE.search(c.text)) else v
        for v in c.found]


def species(word: str) -> str | None:
    """The pet species a noun names ("кошек" -> "cat", "пёс" -> "dog"), None for any other."""
    low = _norm(word)
    return W.SPECIES.get(low) or W.SPECIES.get(ru_lemma(low).replace("ё", "е"))


def of_species(text: str, name: str, kind: str) -> bool:
    """Whether ``text`` says the pet ``name`` is of the species ``kind`` (``species``): a noun
    of it within three words of the name ("кот Рыжик", "Муся, кошка", "Рыжик — кот мой")."""
    words = re.findall(r"[\w-]+", text)
    return any(_alike(_norm(name).split()[0], _norm(w)) and any(
        species(x) == kind for x in words[max(0, i - 3):i + 4]) for i, w in enumerate(words))


def _contrast(c: _Collector) -> None:
    """A new value said against the old one ("я теперь пескетарианка, а не вегетарианка",
    "живу в Казани, а не в Самаре"): where a message sets a value of a single-valued attribute
    of an entity, its negation of another value of that attribute is the value replaced, not a
    denial that asks which is true; the set replaces it."""
    said = {v.key for v in c.found if v.op == "set" and single_valued(v.attribute)}
    c.found[:] = [v for v in c.found if not (
        v.op == "negate" and v.value != ANY and v.key in said
        and not any(f.key == v.key and f.op == "set" and same_value(f.value, v.value)
                    for f in c.found))]


def _same_word(name: str, word: str) -> bool:
    return name == word


def _inflected(name: str, word: str) -> bool:
    """``word`` is ``name`` with at most its last two letters changed and two more added."""
    stem = name[:-2] if len(name) > 4 else name
    return word.startswith(stem) and len(word) - len(name) <= 2


def _alike(a: str, b: str) -> bool:
    """One word in two inflections: a common beginning of three letters or more that leaves
    at most two letters of the shorter word ("йога" / "йогу", "Рыжик" / "Рыжика")."""
    if a == b:
        return True
    common = 0
    for x, y in zip(a, b, strict=False):
        if x != y:
            break
        common += 1
    return common >= 3 and min(len(a), len(b)) - common <= 2


def _brand(text: str) -> str | None:
    """A vehicle's or device's make: a quoted name or a Latin capitalised word ("Kia Rio")."""
    quoted = re.search(r"[«\"„“]([^»\"”“]{2,40})[»\"”“]", text)
    if quoted:
        return quoted.group(1).strip()
    latin = re.search(r"\b([A-Z][a-zA-Z0-9]+(?:\s+[A-Z0-9][a-zA-Z0-9]*)?)\b", text)
    if latin and latin.group(1) not in ("I", "My", "We", "The") and latin.start() > 0:
        return latin.group(1)
    return None


def _from_words(text: str, reading: Reading, words: Sequence[tuple[str, str]],
                c: _Collector) -> None:
    put_, multi_op, single_op, pol = c.put, c.multi_op, c.single_op, c.pol
    lemmas = [lem for _, lem in words]
    forms = [w for w, _ in words]
    lower = text.lower()
    # phone: a long run of digits said with a phone word or on its own ("новый номер: ...")
    phone = W.PHONE.search(text)
    if phone and (len(re.sub(r"\D", "", phone.group(1))) >= 9):
        put_(USER, "phone", re.sub(r"[^\d+]", "", phone.group(1)), "set")
    # age
    age_said = W.AGE.search(text)
    if age_said:
        n = next(g for g in age_said.groups() if g)
        # (not a count said after "мне": "мне 2 раза звонили", "мне 5 минут до дома")
        if 0 < int(n) < 120 and not (reading.language == "ru" and age.counts_after(
                text, age_said.end())):
            # "в мои 29" presupposes the age: a "не" elsewhere in its clause denies something
            # else ("в мои 29 можно и не такое")
            put_(_holder(text, age_said.group(0), reading.language), "age", n,
                 "set" if age_said.group(0).lower().startswith("в ") else single_op())
    elif (named_age := W.AGE_OF.search(text)) is not None and 0 < int(named_age.group(1)) < 120:
        whose = _holder(text, named_age.group(1), reading.language)
        first = named_age.group(0).split()[0]
        # a pet the person holds, whose name a dictionary reads as a thing ("Рыжику 9 лет": a
        # mushroom's, to pymorphy3)
        pet = next((name for name in c.pets if _alike(_norm(name), _norm(first))), None)
        if pet is not None:
            put_(pet, "age", named_age.group(1), single_op())
        elif whose not in (None, USER) and _a_someone(first):
            put_(whose, "age", named_age.group(1), single_op())
    elif W.OWN_BIRTHDAY.search(text) and (said_age := _bare_age(text, words)) is not None:
        put_(USER, "age", said_age, "set")  # "сорок четыре стукнуло", "34! с днём рождения меня"
    elif reading.language == "ru" and (passing := age.said_ages(text)):
        _age_in_passing(text, passing[0], c)  # "мне ж уже 35", "в 32 года начинать", "маме 62"
    birthday = W.BIRTHDAY.search(text) or W.BIRTHDAY_BEFORE.search(text)
    # the person's own when the sentence that says the birthday says "у меня" / "my", and not
    # someone else's "у неё" ("мама у меня Галина Петровна. день рождения у неё 3 мая")
    said_at = W.BIRTHDAY_SAID.search(text)
    sentence = next((s_ for s_ in re.split(r"(?<=[.!?…])\s+", lower)
                     if said_at is not None and said_at.group(0).lower() in s_), lower)
    # or when the person states their own age beside it ("мне 31, день рождения 14 ноября":
    # two months' authors, tuning_2 and tuning_19)
    own_age = any(v.entity == USER and v.attribute == "age" and v.op == "set" for v in c.found)
    own_birthday = (re.search(r"\b(?:мой|моё|мое|у меня|my|mam|moje)\b", sentence)
                    or own_age) and not re.search(
        r"\bу\s+(?:неё|нее|него|них)\b|\b(?:her|his)\b|\b(?:jej|jego)\b", sentence)
    if birthday and own_birthday:
        put_(USER, "birthday", birthday.group(1), "set")
    elif own_birthday and re.search(r"(?:день\s+рождения|днюха|\bдр\b|birthday|urodziny)", lower):
        # by its month, the day after it or none ("день рождения у меня в марте", "в апреле,
        # 9-го", "в начале марта"): five months' authors give the birthday so
        month = W.BIRTHDAY_MONTH.search(text)
        if month is not None:
            nominative, genitive = W.MONTHS[month.group(2).lower()]
            when = {"начале": "начало", "конце": "конец", "середине": "середина"}.get(
                (month.group(1) or "").lower())
            put_(USER, "birthday", f"{month.group(3)} {genitive}" if month.group(3) else
                 f"{when} {genitive}" if when else nominative, "set")
    # price: an amount of money and what it pays for
    # (a bare number counts when said with paying, per unit, or as the new value with no verb:
    # "теперь урок 1800", "nowy czynsz 2600")
    amount = W.AMOUNT.search(text) or W.AMOUNT_BEFORE.search(text) or (
        W.BARE_AMOUNT.search(text) if set(forms + lemmas) & W.PAY
        or W.says_new(text, set(forms + lemmas)) or W.PER_UNIT.search(text)
        or W.CHANGE.search(text) or W.SINCE.search(text) or W.RECURS.search(text) else None) or (
        # "за" and a bare amount beside a price noun ("из подписок — Яндекс Плюс за 399")
        W.FOR_AMOUNT.search(text) if any(x in W.PRICE_WORDS for x in forms + lemmas) else None)
    if amount and not phone:
        what = next((W.PRICE_WORDS[x] for pair in words for x in pair if x in W.PRICE_WORDS), None)
        # a pass is the price of where it lets one in ("абонемент в бассейн" is the pool's)
        to = W.PASS_TO.search(text)
        place = next((g.lower() for g in to.groups() if g), "") if to is not None else ""
        for x in (place, ru_lemma(place)):
            if x in W.PRICE_WORDS:
                what = W.PRICE_WORDS[x]
                break
        if what == "subscription" or (what is None and (W.PER_UNIT.search(text) or W.RECURS.search(text))):
            what = _service(text, reading, c.found) or what
        if what is not None:
            subject = next((W.SUBJECT[x] for pair in words for x in pair if x in W.SUBJECT), None)
            name = f"{subject}_{what}" if what == "lessons" and subject else what
            if name == "lessons":
                # a lesson's price with no subject said ("Лусия подняла цену, теперь урок 1800"):
                # the one kind of lessons the person pays for, when there is one
                kinds = {v.attribute for v in c.held
                         if v.attribute.startswith("price:") and v.attribute.endswith("_lessons")}
                name = kinds.pop()[len("price:"):] if len(kinds) == 1 else name
            put_(USER, f"price:{_held_service(name, c.held)}", _money(amount.group(0)), "set")
    if (not amount and not phone and reading.language == "ru"
            and (rent := _rent_in_thousands(text, set(forms + lemmas))) is not None):
        # "хозяйке перевела 22 за первый месяц", "с этого месяца за квартиру 35": a rent said
        # in thousands with no word for them (five tuning months' authors, month 40)
        put_(USER, f"price:{_held_service('rent', c.held)}", rent, "set")
    # diet
    diets = [(w, W.DIET[x]) for w, lem in words for x in (w, lem) if x in W.DIET]
    said_diet = diets[0] if diets else None
    if len({d for _, d in diets}) > 1:
        # two diets named, the old one with the new ("вегетарианство — плохая идея ... теперь я
        # пескетарианка", "кето закончилось, теперь я вегетарианка"): the one said last as
        # held now is the diet; the other is what it replaces
        now = [d for d in diets if c.op_at(d[0], multi=False) == "set"]
        said_diet = now[-1] if now else said_diet
    meat = next((w for w, lem in words if {w, lem} & W.MEAT), None)
    if said_diet is not None:
        put_(_holder(text, said_diet[0], reading.language), "diet", said_diet[1],
             c.op_at(said_diet[0], multi=False))
    elif meat is not None and set(forms + lemmas) & W.EAT and c.polarity_of(meat).negated:
        diet = {"ru": "вегетарианство", "pl": "wegetarianizm"}.get(reading.language, "vegetarian")
        # "мясо не ем": the diet is set, not denied
        put_(_holder(text, meat, reading.language), "diet", diet, c.op_at(meat, multi=False) and "set")
    # habit
    habits = [(w, W.HABIT[x]) for w, lem in words for x in (w, lem) if x in W.HABIT]

    def habit_op(word: str) -> str:
        op = c.op_at(word, multi=True)
        clause = next((p for p, _ in c.clauses if word in p.lower()), text)
        said = _words(clause, reading.language)
        if op == "add" and any(lem in W.THREW or w in W.THREW for w, lem in said):
            op = "remove"  # "выкинула сигареты": the habit given up, not held
        elif op == "add" and any(lem in W.WISH or w in W.WISH for w, lem in said):
            op = ""  # "дико хочется курить, но держусь": a wish, no value either way
        return op

    said_habit = habits[0] if habits else None
    if said_habit is not None and habit_op(said_habit[0]) == "add":
        # said twice, held in one clause and denied in the speaker's own ("коллега позвала
        # курить, а я ей: я в жизни ни одной сигареты не выкурила": three months' authors):
        # the invitation is not the person's habit
        said_habit = next((h for h in habits[1:] if set(re.findall(r"[\w-]+", next(
            (p.lower() for p, _ in c.clauses if h[0] in p.lower()), ""))) & W.SPEAKER
            and habit_op(h[0]) == "negate"), said_habit)
    if said_habit is not None:
        put_(_holder(text, said_habit[0], reading.language), "habit", said_habit[1],
             habit_op(said_habit[0]))
    # allergy: "аллергия на кошек" / "allergic to nuts" / "uczulenie na orzechy"
    whose = possessor(text)  # "у Сони аллергия" is Sonya's; None: someone unnamed's
    said_allergy = next((w for w in forms + lemmas if w in W.ALLERGY), None)
    if said_allergy is not None and whose is not None:
        to = re.search(r"(?:аллерги\w*|allerg\w*|alergi\w*|uczul\w*)\s+(?:на|to|on|na)\s+"
                       r"([\w-]+(?:\s+и\s+[\w-]+)?)", lower)
        # the negation of the allergy's own clause ("у меня аллергия на амоксициллин, в детстве
        # чуть не задохнулась" denies nothing)
        denied = c.polarity_of(said_allergy).negated or any(
            c.polarity_of(w).negated for w in forms if w in W.ALLERGY)
        if not to and not denied:
            # asked about, and answered after it ("спросили про аллергии — сказала, что
            # никаких, никогда не было", "графа «аллергии» — прочерк. у меня их никогда не
            # было": three months' authors): none is what the answer says
            answer = lower[lower.find(said_allergy) + len(said_allergy):]
            denied = W.NONE_HELD.search(answer) is not None
        if to and not denied:
            thing = to.group(1).split()[0]
            put_(whose, "allergy", ru_lemma(thing) if reading.language == "ru" else thing,
                 multi_op())
        else:
            put_(whose, "allergy", ANY, "negate" if denied else "add")
    elif whose is not None and (found := _ALLERGIST_FOUND.search(lower)) is not None and not (
            c.polarity_of(found.group(1)).negated):
        # the allergist's finding, said without the word allergy ("аллерголог сказал — на
        # пылевого клеща", "the allergist said it's to dust mites")
        put_(whose, "allergy", _allergen(found.group(1), reading.language), multi_op())
    # children, said as a class ("детей у меня нет", "no kids")
    children = next((w for w, lem in words if lem in W.CHILDREN or w in W.CHILDREN), None)
    people = [m.name for m in reading.mentions if m.type is EntityType.PERSON]
    if children is not None and c.polarity_of(children).negated:
        # only a denial that governs the class word and is the person's (``denial``): not
        # "с ребёнком ... без машины никак", not "Олег женат, детей пока нет"
        if the_persons(text, children, reading.language, people):
            put_(USER, "child", ANY, "negate")
    else:
        for form, lem in words:
            role = kin.role_of(form) if reading.language != "ru" else kin.role_of(lem)
            if role in ("son", "daughter") and own_relative(lower, form):
                named = [m.name for m in reading.mentions if m.type is EntityType.PERSON]
                if not any(link.type == f"kin:{role}" for link in reading.links):
                    put_(USER, "child", named[0] if len(named) == 1 else lem,
                         multi_op())
    # partner: "встречаюсь с Димой", "I'm seeing Tom"
    if set(lemmas) & W.PARTNER_VERB:
        people = [m.name for m in reading.mentions if m.type is EntityType.PERSON]
        for person in people[-1:]:
            put_(USER, "partner", person, single_op())
    else:
        partner = _couple(text, reading, c.held)
        if partner is not None:
            put_(USER, "partner", partner, single_op())
    # a pet the reader typed (a pet noun beside its name) whose owner link the parse missed
    # ("У меня кот Рыжик." parses otherwise than without its full stop): the person's, when
    # the statement says so with a possessive, or as living with the person ("дома со мной
    # кот Рыжик", "живём втроём: я, Тима и кошка Муся")
    owned = {link.source for link in reading.links if link.type == "pet_of"}
    mine = re.search(r"\b(?:у меня|у нас|мо[йяеи]\w*|наш\w*|my|our|mam|mamy|mój|moja|nasz\w*|"
                     r"со мной|живём|живем|with me|ze mną|mieszkamy)\b", lower)
    # or when the statement names no one else and its clause ends or denies nothing ("И
    # попугай Кеша, он не считается"; an ending of a held pet is the held value's, ``_endings``)
    no_one_else = not (any(m.type is EntityType.PERSON for m in reading.mentions)
                       or any(kin.role_of(lem) is not None for _, lem in words)
                       or re.search(r"\b(?:[уУ]|[uU])\s+[А-ЯЁA-ZŁŚŻ]|\w's\b", text))  # "у Кости"
    for m in reading.mentions:
        if m.type is EntityType.PET and m.name not in owned:
            here = c.polarity_of(m.name)
            if mine or (no_one_else and not (here.ended or here.negated)):
                put_(USER, "pet", m.name, multi_op())
    # a diagnosis: an illness named with the doctor who gave it ("была у гастроэнтеролога.
    # гастрит", "терапевт сказала, гастрита больше нет", "the doctor said asthma")
    if W.DOCTOR.search(text) and not any(link.type == "has_condition" for link in reading.links):
        for form, lem in words:
            kind, name = _lexicon_kind(form, lem, reading.language)
            if kind is None and reading.language == "ru" and e5_illness(lem):
                # an illness no table lists ("была у эндокринолога. гипотиреоз"): its nearest
                # lexicon nouns in e5 are all illnesses (``kinds.e5_illness``)
                kind, name = EntityType.ILLNESS, lem
            if kind is EntityType.ILLNESS and name.lower() not in W.ALLERGY:
                put_(_holder(text, form, reading.language), "condition", name, multi_op())
    # a pastime said with when it recurs ("Йога по понедельникам и четвергам", "w soboty
    # basen"): the holder's, when the statement neither denies nor ends it
    if W.SCHEDULE.search(text) and not (pol.ended or pol.negated):
        for form, lem in words:
            kind, name = _lexicon_kind(form, lem, reading.language)
            if kind is EntityType.HOBBY and not _VERB_FORM.fullmatch(name):  # not "пусть плавает"
                put_(_holder(text, form, reading.language), "hobby", name, multi_op())
    # a pastime ended or denied by its own noun ("йогу забросила", "rzuciłam jogę"); not
    # one said as when ("после бокса не чувствую рук")
    for i, (form, lem) in enumerate(words):
        kind, name = _lexicon_kind(form, lem, reading.language)
        if kind is EntityType.HOBBY and (pol.ended or (pol.negated and not (
                i and words[i - 1][0] in W.CIRCUMSTANCE))):
            # whose: the one named before it ("Тимур бросил плавание" is the son's)
            put_(_holder(text, form, reading.language), "hobby", name, multi_op())
    # a class denied as a whole: "ни братьев, ни сестёр", "никаких хронических болячек"
    for attribute, klass in (("sibling", W.SIBLINGS), ("condition", W.ILLNESSES)):
        said = next((w for w, lem in words if lem in klass or w in klass), None)
        if said is not None and c.polarity_of(said).negated and _denied_as_class(
                text, said, reading.language) and the_persons(text, said, reading.language, people):
            put_(USER, attribute, ANY, "negate")
    if W.ONLY_CHILD.search(text) or W.ONLY_CHILD_OF_PARENTS.search(text):
        # "я единственный ребёнок в семье", "я у родителей единственная": no siblings
        put_(USER, "sibling", ANY, "negate")
    # a pastime named by its verb: "начал бегать", "бегать бросил", "lubię pływać"
    for form, lem in words:
        if lem in W.HOBBY_VERBS and (form == lem or (  # the infinitive: a pastime, not one errand
                W.SCHEDULE.search(text) and _OWN_VERB.fullmatch(form))):
            # or said as what one does on a schedule: "по вечерам вяжу", "по субботам плаваю"
            put_(USER, "hobby", W.HOBBY_VERBS[lem], c.op_at(form, multi=True))
    # a pastime taken up by enrolling in it or by going and saying it will recur ("записалась
    # на скалодром!", "записалась к Гульнаре в студию на бачату", "сходила на скалодром ...
    # купила абонемент", "zapisałam się na salsę", "signed up for pottery"): added beside the
    # others, never in place of one
    for whose, name in _taken_up(text, reading.language):
        there = c.polarity_of(name)  # the clause that names it: "рук не чувствую" denies nothing
        if not (there.ended or there.negated or (there.past and not there.changed)):
            put_(whose, "hobby", name, "add")
    # a promotion names the new role: "меня повысили до начальника смены"
    promoted = W.PROMOTED.search(text)
    if promoted:
        said = next(g for g in promoted.groups() if g)
        head, *rest = said.split()
        role = " ".join([ru_lemma(head.lower()), *rest]) if reading.language == "ru" else said
        put_(USER, "role", role, "set")
    # a living or moving verb and one place the parse left unlinked ("я в Калининграде, живу
    # теперь тут", "Дина переехала в Москву"): whose is said by a name or kin word before the
    # verb, else the speaker's
    verb = next((w for w, lem in words if lem in W.LIVE | W.MOVE), None)
    places = [m.name for m in reading.mentions if m.type is EntityType.PLACE]
    if verb is None and places and ((W.CHANGE.search(text) and W.NOW_HERE.search(text))
                                    or W.ARRIVED.search(text)):
        verb = places[0]  # "теперь мы в Казани", "всё, мы в Вологде": the new place, no verb
    if verb is not None and len(places) == 1 and not any(
            link.type == "lives_in" for link in reading.links):
        who = _holder(text, verb, reading.language)  # None: "she moved ..."
        if who is not None and _lives_there(text, places[0]) and (
                who != USER or re.search(r"\b(?:я|мы|i|we|ja|my)\b", lower)
                or not any(m.type is EntityType.PERSON for m in reading.mentions)):
            put_(who, "city", places[0], single_op())
    night = _FIRST_NIGHT.search(text)
    if night is not None and not _TRIP.search(text) and not any(
            v.entity == USER and v.attribute == "city" for v in c.found):
        # "первая ночь в Калининграде. коробки везде": the first night in a town is where one
        # now lives (four tuning months' authors and month 40's label it the city set); not
        # a trip's ("в отпуске", "в отеле"), nor a place the parse reads no town
        said = night.group(1)
        place = next((m.name for m in reading.mentions if m.type is EntityType.PLACE
                      and any(_alike(_norm(w), _norm(said)) for w in m.name.split())), None)
        here = c.polarity_of(said)
        if place is not None and not (here.negated or here.unreal or here.past) and _holder(
                text, said, reading.language) == USER and not re.match(
                r"\W*(?:у|u|for)\s", text[:night.start()].split(".")[-1].lower() + " "):
            # not someone else's: "у Лёвы первая ночь в Москве", "мама пишет: первая ночь ..."
            put_(USER, "city", place, single_op())
    # "Работаю инженером-технологом в «СИБУРе»": the first person, an organisation and an
    # occupation the parse did not tie to the verb
    if reading.language == "ru" and set(forms) & W.WORK_FIRST_PERSON:
        if not any(link.type == "works_at" for link in reading.links):
            for m in reading.mentions:
                if m.type is EntityType.ORGANISATION:
                    put_(USER, "employer", m.name, single_op())
                    break
        if not any(link.type == "works_as" for link in reading.links):
            for m in reading.mentions:
                if m.type is EntityType.OCCUPATION:
                    put_(USER, "role", m.name, single_op())
                    break
    # employer named by the work itself: "первый день на новой работе в «Сбере»"
    job = re.search(r"\b(?:job|position|role|internship|first\s+day)\s+(?:at|with)\s+([A-Z][\w&.-]+"
                    r"(?:\s+[A-Z][\w&.-]+)?)|\b(?:pracę|pracy|praca|staż|dzień)\s+w\s+(?:firmie\s+)?"
                    r"[„\"«]?([A-ZŁŚŻ][\w-]+)|\bдень\s+(?:на\s+нов\w+\s+работе\s+)?в\s+[«\"]?"
                    r"([A-Z][\w&.-]+)", text)  # "первый день в ICL": a Latin name no NER reads
    if job and not any(link.type == "works_at" for link in reading.links):
        put_(USER, "employer", job.group(1) or job.group(2) or job.group(3), single_op())
    elif (reading.language == "ru" and not any(link.type == "works_at" for link in reading.links)
          and (firm := _first_day_firm(text)) is not None):
        put_(USER, "employer", firm, single_op())
    first_day = W.FIRST_DAY.search(text)
    if first_day and reading.language == "ru":
        # "первый день в «Точке»! продакт-менеджер, звучит-то как": the job said alone next
        after = re.split(r"(?<=[.!…])\s+", text[first_day.end():], maxsplit=1)
        alone = job_said_alone(after[1]) if len(after) == 2 else None
        if alone is not None:
            put_(USER, "role", alone, "set")
    if reading.language == "ru" and not any(
            v.entity == USER and v.attribute == "role" for v in c.found) and (
            said_job := speaker_job(text)) is not None:
        # "я теперь ведущий продуктовый дизайнер", "я теперь лид дизайн-команды": a job the
        # parse took apart (a participle, a name "Лида", a Latin prefix); not denied or wished
        here = c.polarity_of(said_job[1])
        if not (here.negated or here.unreal or here.ended or (here.past and not here.changed)):
            put_(USER, "role", said_job[0], "set")
    if reading.language == "ru" and (title := formal_title(text)) is not None:
        # the title as written down ("официально должность — руководитель группы дизайна", "в
        # трудовой — «руководитель группы аналитики»"): the role the message sets, over a word
        # said of it in passing ("я над ними главная", "я теперь тимлид") or one cut short
        here = c.polarity_of(title[1])
        others = {link.target for link in reading.links
                  if link.type == "works_as" and link.source != USER}
        if not (here.negated or here.unreal or here.ended or (here.past and not here.changed)
                or title[0] in others or _holder(text, title[1], reading.language) != USER):
            c.found = [v for v in c.found if not (
                v.entity == USER and v.attribute == "role" and v.op == "set")]
            put_(USER, "role", title[0], "set")
    if reading.language == "ru" and not any(
            v.entity == USER and v.attribute == "role" for v in c.found) and (
            led := leads_as(text)) is not None:
        # "теперь я руковожу группой аналитиков": the role said by its verb
        here = c.polarity_of("руковожу")
        if not (here.negated or here.unreal or (here.past and not here.changed)):
            put_(USER, "role", led, "set")
    if {"работа", "praca", "pracy", "job", "work"} & set(lemmas) or W.FIRST_DAY.search(text):
        # (not a place the parse has someone study at: "Тимофея перевели в школу №39, завтра
        # первый день" is the child's school, not the person's employer)
        studied = {link.target for link in reading.links if link.type == "studies_at"}
        orgs = [m.name for m in reading.mentions
                if m.type is EntityType.ORGANISATION and m.name not in studied]
        if orgs and not any(link.type == "works_at" for link in reading.links):
            put_(USER, "employer", orgs[0], single_op())


# the first night (morning, evening) in a town: "первая ночь в Казани", "first night in Leeds",
# "pierwsza noc w Gdańsku"; the town is the capitalised word right after
_FIRST_NIGHT = re.compile(r"\b(?:[Пп]ерв(?:ая|ое|ый)\s+(?:ночь|утро|вечер)\s+(?:в|во)|[Ff]irst\s+"
                          r"(?:night|morning|evening)\s+in|[Pp]ierwsz[aey]\s+(?:noc|poranek|wiecz[oó]r)"
                          r"\s+(?:w|we))\s+([A-ZА-ЯЁŁŚŻŹĆ][\w-]+)")
# a stay away from home: the first night there is no move
_TRIP = re.compile(r"\b(?:отпуск\w*|командировк\w*|отел\w*|гостиниц\w*|хостел\w*|vacation|"
                   r"holiday|hotel|trip|urlop\w*|wakacj\w*|delegacj\w*)\b", re.I)


# "Первый день в Т-Банке!", "первый день в Сбере позади": a capitalised name right after the
# first day, which the parse types as nothing or as a place
_FIRST_DAY_AT = re.compile(r"\b(?:[Пп]ерв\w+\s+(?:рабоч\w+\s+)?день)\s+(?:на\s+нов\w+\s+работе\s+)?"
                           r"(?:в|во)\s+([А-ЯЁ][А-ЯЁа-яё]*(?:-[А-ЯЁа-яё]+)?"
                           r"(?:\s+[А-ЯЁ][А-ЯЁа-яё]*(?:-[А-ЯЁа-яё]+)?){0,2})(?![\w-])")


def _first_day_firm(text: str) -> str | None:
    """The firm a first day is at, when it is said by a capitalised Russian name that pymorphy's
    dictionary does not know as a place ("первый день в Казани" is a move, not a job), nor as a
    person's name ("первый день в Маше" is no Russian)."""
    said = _FIRST_DAY_AT.search(text)
    if said is None:
        return None
    word = said.group(1)
    last = re.split(r"[\s-]", word)[-1]
    if any(geographic(w) for w in re.split(r"\s+", word)) or geographic(last) or first_name(last):
        return None
    if _holder(text, word, "ru") != USER:
        return None  # "у Лёвы первый день в Лицее": the child's school
    return word


_UNITS, _TEENS, _TENS = age.UNITS, age.TEENS, age.TENS  # the number words, said once in world/age.py


def _service(text: str, reading: Reading, found: Sequence[Value] = ()) -> str | None:
    """What a price pays for when a name says it, not a price noun (``W.SERVICE``: "списали за
    Плюс 449", "Яндекс Плюс опять подорожал"): the name's last word, in Cyrillic letters, so
    "Яндекс Плюс" and "Плюс" are one price. Not a place, nor a car or a device (a car by
    subscription is a subscription: "по подписке — Haval Jolion ... 49 900 в месяц"); the reader
    takes "Плюс" for a person, so a person is kept."""
    named = W.SERVICE.search(text)
    said = next((g for g in named.groups() if g), None) if named is not None else None
    if said is None:
        return None
    last = said.split()[-1]
    things = [m.name for m in reading.mentions
              if m.type in (EntityType.PLACE, EntityType.VEHICLE, EntityType.DEVICE)]
    things += [v.value for v in found if v.attribute in ("vehicle", "device")]
    if any(_alike(_norm(w), _norm(last)) for thing in things for w in thing.split()):
        return None
    word = _norm(last)
    return _cyrillic(word) if word.isascii() else (
        ru_lemma(word) if reading.language == "ru" else word)


def _held_service(name: str, held: Sequence[Value]) -> str:
    """The held price a service's name stands for when it is spelled in the other alphabet
    ("Yandex Plus ... charged me 449" after "Яндекс Плюс, 399 в месяц": letter by letter
    "плус", not "плюс"): the one held price whose name has the same consonants; else ``name``."""
    held_names = {v.attribute[len("price:"):] for v in held if v.attribute.startswith("price:")}
    if name in held_names:
        return name
    alike = {h for h in held_names if _consonants(h) and _consonants(h) == _consonants(name)}
    return alike.pop() if len(alike) == 1 else name


def _consonants(name: str) -> str:
    """A name's consonants in Cyrillic letters ("плюс", "плус" -> "плс")."""
    return "".join(ch for ch in _cyrillic(name) if ch.isalpha() and ch not in "аеёиоуыэюяйьъ")


# held values that are names of someone or something else than a partner ("тимлид" is a role,
# not the name Тимур, however alike)
_NAMED_OTHERWISE = frozenset({"child", "sibling", "pet", "vehicle", "device"})


def _couple(text: str, reading: Reading, held: Sequence[Value]) -> str | None:
    """The person's partner in a couple said as such (``W.COUPLE``: "мы с Денисом расстались",
    "живём с Денисом", "z Markiem jesteśmy razem", "Tom and I broke up"), or with no name of the
    one person the statement names (``W.TOGETHER``: "Денис ... живём вместе два года"). Not
    someone the reading or the held values already place otherwise (a relative, a friend, a
    pet: "живём с Катей" of a sister Катя)."""
    persons = [m.name for m in reading.mentions if m.type is EntityType.PERSON]
    couple = W.COUPLE.search(text)
    said = next((g for g in couple.groups() if g), None) if couple is not None else None
    if said is not None:
        mention = next((m for m in reading.mentions if _alike(_norm(m.name), _norm(said))), None)
        if mention is not None and mention.type is not EntityType.PERSON:
            if " " not in mention.name:
                return None  # "живу с Ленинградской" is no one
            mention = None  # a name read with its verb as a place: "Артём расстающийся"
        name = mention.name if mention is not None else (
            ru_lemma(said.lower()).capitalize() if reading.language == "ru" else said)
    elif W.TOGETHER.search(text) and len(persons) == 1:
        name = persons[0]
    else:
        return None
    otherwise = {link.target for link in reading.links
                 if link.source == USER and (link.type == "friend_of" or (
                     link.type.startswith("kin:") and link.type[4:] not in W.PARTNER_ROLES))}
    if any(_alike(_norm(o), _norm(name)) for o in otherwise) or any(
            v.attribute in _NAMED_OTHERWISE and v.value != ANY and same_value(v.value, name)
            for v in held):
        # (a relative, a pet, a car held by that name: "Логан продала ... 6 лет вместе")
        return None
    return name


def _age_in_passing(text: str, said: age.SaidAge, c: _Collector) -> None:
    """An age said in passing (``world/age.py``): the speaker's after "мне" or in "в N лет";
    someone else's after their name or kin word in the dative, a held pet's by its name."""
    if said.whose is None or said.whose.lower() == "мне":
        c.put(USER, "age", said.years, "set")
        return
    if said.whose.lower() in age.PRONOUNS:
        c.put(_antecedent(text, said, c), "age", said.years, "set")  # "сын Лёва, ему семь"
        return
    if said.bare:  # "сын Миша, 7 лет, первоклассник": the name the clause before ends with
        from wave_agent.world.morphology import is_name, name_nominative

        pet = next((name for name in c.pets if _alike(_norm(name), _norm(said.whose))), None)
        if pet is not None or is_name(said.whose):
            c.put(pet or name_nominative(said.whose, "Nom"), "age", said.years, "set")
        return
    pet = next((name for name in c.pets if _alike(_norm(name), _norm(said.whose))), None)
    if pet is not None:
        c.put(pet, "age", said.years, "set")
        return
    whose = _holder(text, said.said_as, "ru")
    if whose not in (None, USER) and _a_someone(said.whose):
        c.put(whose, "age", said.years, "set")


_SENTENCE_END = re.compile(r"[.!?\n]+")
_NAMED = ("child", "sibling", "partner", "pet")


def _gender(word: str) -> str | None:
    """The gender of a name or a pet's name as pymorphy3 reads it (its reading as a first name
    first, then as a noun), None when it has none."""
    from wave_agent.world.morphology import _morph

    parses = _morph().parse(word.lower())
    for p in [p for p in parses if "Name" in p.tag.grammemes] + [
            p for p in parses if p.tag.POS == "NOUN"]:
        if p.tag.gender:
            return str(p.tag.gender)
    return None


def _antecedent(text: str, said: age.SaidAge, c: _Collector) -> str | None:
    """Whom a dative pronoun before an age stands for ("сын у меня Миша, ему 8", "Лиза, моя
    младшая сестра, завтра приезжает. Ей 27", "это моя кошка, британка, ей 5 лет"): the one
    person or pet named in its sentence or the one before whose gender the pronoun's is
    (pymorphy3); a relative or pet the statement names or the person holds, or a first name.
    None when no one or more than one fits, or when someone else is said between them in
    another case than the nominative ("Артём звонил, у его отца юбилей, ему 60")."""
    from wave_agent.world.morphology import _morph, is_name, name_nominative

    assert said.whose is not None
    genders = age.PRONOUNS[said.whose.lower()]
    ends = [m.end() for m in _SENTENCE_END.finditer(text, 0, max(said.at, 0))]
    start = ends[-2] if len(ends) >= 2 else 0
    known = [v.value for v in (*c.found, *c.held) if v.attribute in _NAMED
             and v.op in ("set", "add") and v.entity == USER] + list(c.pets)
    fits: list[tuple[int, str]] = []
    for m in re.finditer(r"(?<![\w-])[А-ЯЁ][а-яё]+", text[start:said.at]):
        word = m.group(0)
        name = next((k for k in known if _alike(_norm(k), _norm(word))), None)
        if name is None and is_name(word):
            name = name_nominative(word, None)
        if name is not None and _gender(name) in genders:
            fits.append((start + m.end(), name))
    if len({n for _, n in fits}) != 1:
        return None
    at, name = fits[-1]
    for word in re.findall(r"[а-яё]+", text[at:said.at].lower()):
        parse = _morph().parse(word)[0]
        if (parse.tag.POS == "NOUN" and "anim" in parse.tag.grammemes
                and parse.tag.case != "nomn" and parse.tag.gender in genders):
            return None
    return name


def _bare_age(text: str, words: Sequence[tuple[str, str]]) -> str | None:
    """The one age a birthday statement names with no "мне" or "лет": a lone number ("ну всё,
    34") or a Russian numeral in words ("сорок четыре стукнуло"); None when it names none or
    several (a date, a count)."""
    numbers: list[str] = [n for n in re.findall(r"(?<![\d.:/+-])(\d{1,3})(?![\d.:/]\d)", text)
               if 0 < int(n) < 120]
    if len(numbers) == 1:
        return numbers[0]
    if numbers:
        return None
    lemmas = [lem for _, lem in words]
    for i, lem in enumerate(lemmas):
        if lem in _TENS:
            unit = _UNITS.get(lemmas[i + 1], 0) if i + 1 < len(lemmas) else 0
            return str(_TENS[lem] + unit)
        if lem in _TEENS:
            return str(_TEENS[lem])
    return None


def _named_pet(text: str, reading: Reading, words: Sequence[tuple[str, str]],
               c: _Collector) -> None:
    """A new animal given its name ("взяли щенка из приюта, назвали Бим", "Матвей назвал её
    Шпротой", "named him Max"): the person's pet is the name, not the animal's noun, nor the
    name read as a place ("назвали Пиксель"). Not a child's name: a child word and no animal
    ("родилась дочка, назвали Аней")."""
    named = W.NAMED.search(text)
    if named is None:
        return
    animal = any(lexicon.kind_of(lem) is EntityType.PET or lexicon.kind_of(form) is
                 EntityType.PET for form, lem in words)
    if not animal and any(lem in W.CHILDREN or kin.role_of(lem) in ("son", "daughter")
                          for _, lem in words):
        return  # a child named, no animal said
    said = next(g for g in named.groups() if g)
    name = next((m.name for m in reading.mentions if _alike(_norm(m.name), _norm(said))), None)
    if name is None:
        name = ru_lemma(said.lower()).capitalize() if reading.language == "ru" else said
    c.found[:] = [v for v in c.found if not same_value(v.value, name) and not (
        v.attribute == "pet" and lexicon.kind_of(v.value) is EntityType.PET)]
    c.put(USER, "pet", name, c.MULTI)


_APPOSED = re.compile(r"([\w-]+)\s*[,:—-]?\s+([А-ЯЁA-ZŁŚŻ][\w-]+(?:\s*(?:,|\bи\b|\band\b|\boraz\b)\s*"
                      r"[А-ЯЁA-ZŁŚŻ][\w-]+)*)")


def _pets_listed(text: str, reading: Reading, words: Sequence[tuple[str, str]],
                 c: _Collector) -> None:
    """Animals named by the names set beside their noun ("и два кота, Рыжик и Муся"): each
    name is a pet, though the parse types one as a person; the person's when its clause
    names no other holder (``_holder``). Without it a pet that dies later ("Рыжика больше
    нет") has nothing held to end."""
    names = {_norm(m.name): m.name for m in reading.mentions}
    for match in _APPOSED.finditer(text):
        noun = match.group(1)
        if not any(lexicon.kind_of(x) is EntityType.PET
                   for x in (noun.lower(), ru_lemma(noun.lower()))):
            continue
        if _holder(text, noun, reading.language) != USER:
            continue  # "у Кости два кота, Рыжик и Муся": Костя's
        for said in re.findall(r"[А-ЯЁA-ZŁŚŻ][\w-]+", match.group(2)):
            name = next((n for k, n in names.items() if _alike(k, _norm(said))), None)
            if name is None or kin.role_of(ru_lemma(said.lower())) is not None:
                continue
            c.found[:] = [v for v in c.found if not (v.entity == USER and
                                                     same_value(v.value, name))]
            c.put(USER, "pet", name, c.MULTI)


_CALL_LEMMAS = frozenset({"звонить", "позвонить", "писать", "написать", "прислать",
                          "присылать"})


def _calls_from(text: str, start: int, end: int) -> bool:
    """Whether a Russian clause has a verb of calling or writing ("звонила", "написал"):
    someone else who calls from a town lives there, as the world reader reads it
    (``russian._come_from``). Polish and English are not read so: on the tuning months
    "Mama dzwoniła z Wrocławia" gained one contradiction and "Kasia zadzwoniła z Gdańska"
    (on a visit) with a mother "в Польше" raised two false ones (round thirty-three)."""
    clause = text[start:end]
    return any(
        ru_lemma(w.lower(), "VERB") in _CALL_LEMMAS
        for w in re.findall(r"[а-яёА-ЯЁ]+", clause))


def _lives_there(text: str, place: str, *, other: bool = False) -> bool:
    """Whether a place is said as where one is, not a street ("снимаю однушку на
    Мельникайте", "on Baker Street") nor where one came from ("moved from Gdańsk", "приехал
    из Омска"): by the preposition before it. Someone else (``other``) calling or writing from
    a town lives there ("мама звонила из Самары", "Кирилл звонил из Самары")."""
    word = _said_as(text, place)
    at = max(text.find(word), 0)
    before = re.findall(r"[\w-]+", text[:at].lower())
    if before and before[-1] in W.NOT_WHERE_ONE_LIVES:
        start = max(text.rfind(sep, 0, at) for sep in ",.;!?\n") + 1
        ends = [i for i in (text.find(sep, at) for sep in ",.;!?\n") if i >= 0]
        return (other and before[-1] == "из"
                and _calls_from(text, start, min(ends, default=len(text))))
    # "Когда мне было 25, я жила в Перми", "When I was 20 I lived in Leeds": a living verb in
    # the past tense in the place's clause says where one lived, not where one lives
    start = max(text.rfind(sep, 0, at) for sep in ",.;!?\n") + 1
    ends = [i for i in (text.find(sep, at) for sep in ",.;!?\n") if i >= 0]
    return not any(_lived(w) for w in re.findall(r"[\w-]+", text[start:min(ends, default=len(text))]))


# the speaker as the subject outside Russian: a Polish verb in the first person ("byłam",
# "poznałem", "mieszkamy"), a first-person pronoun; another person as one: a pronoun
_SPEAKER_VERB_PL = re.compile(r"\w+(?:łam|łem|łyśmy|liśmy|my)")
_SPEAKER_ELSEWHERE = frozenset({"i", "we", "ja", "my"})
_THIRD_SUBJECT = frozenset({"он", "она", "они", "he", "she", "they", "on", "ona", "oni", "one"})


def _said_as_subject(text: str, name: str, place: str, lang: str) -> bool:
    """Whether another person whose city the parse read can be the one who lives there: said
    in the nominative at least once ("Kasia już w Warszawie"), or, where the place's sentence
    has the speaker as its subject ("w Krakowie ... poznałam Kasię", "мы с Мишей переезжаем в
    Казань"), another subject beside them (a third-person pronoun, in Russian a verb in the
    third person: "живём отдельно, он в Дзержинске", "мой бывший муж, живёт в Москве"). The
    case is the form as written against the name, in Russian pymorphy3's reading. A person
    named by no word of the name (a role) is left as read."""
    from wave_agent.world.morphology import _morph

    first = name.split()[0].lower() if name.split() else ""
    lower = text.lower()
    forms = [t for t in re.findall(r"[\w-]+", lower) if first and _alike(first, t)]
    if not forms or first in forms:
        return True
    if lang == "ru":
        for form in forms:
            parses = _morph().parse(form)
            if parses and any(p.tag.case == "nomn" for p in parses
                              if p.score >= parses[0].score * 0.5):
                return True
    at = max(lower.find(_said_as(text, place).lower()), 0)
    start = max(lower.rfind(sep, 0, at) for sep in ".;!?\n") + 1
    ends = [i for i in (lower.find(sep, at) for sep in ".;!?\n") if i >= 0]
    sentence = re.findall(r"[\w-]+", lower[start:min(ends, default=len(lower))])
    if set(sentence) & _THIRD_SUBJECT:
        return True
    if any(a in ("мы", "my", "we") and b in ("с", "со", "z", "ze", "with") and _alike(first, c)
           for a, b, c in zip(sentence, sentence[1:], sentence[2:], strict=False)):
        return True  # "мы с Мишей переезжаем в Казань": a subject with the speaker
    if lang == "ru":
        tags = [p.tag for t in sentence for p in _morph().parse(t)[:1]]
        if any("3per" in tag.grammemes for tag in tags):
            return True
        return not any("1per" in tag.grammemes and tag.POS in ("VERB", "NPRO") for tag in tags)
    return not any(t in _SPEAKER_ELSEWHERE or (lang == "pl" and _SPEAKER_VERB_PL.fullmatch(t))
                   for t in sentence)


def _lived(word: str) -> bool:
    """A living verb in the past tense: "жила", "проживал", "lived", "mieszkałam"."""
    low = word.lower()
    if low in ("lived",) or low.startswith("mieszkał"):
        return True
    if not re.fullmatch(r"[а-яё-]+", low):
        return False
    from wave_agent.world.morphology import _morph

    return any(p.normal_form in ("жить", "проживать") and "past" in p.tag.grammemes
               for p in _morph().parse(low))


def _said_as(text: str, value: str) -> str:
    """The word of ``text`` that says a value's first word in its inflection ("Москву" for
    Москва), or the value itself."""
    first = _norm(value).split()[:1]
    return next((w for w in re.findall(r"[\w-]+", text) if first and _alike(first[0], _norm(w))),
                value)


_JOIN = re.compile(r"\s(?:и|а|но|and|but|ale|oraz)\s")


def _holder(text: str, word: str, lang: str) -> str | None:
    """Whose value a word of the person's own vocabulary says (a habit, a diet, an age): the
    one named before it in its clause ("Мой брат не курит", "Маме исполнилось 60": a kin role
    or a name), None for someone unnamed ("Сыну 12, он не ест мясо": a third-person pronoun
    and no first-person one), else the speaker's."""
    lower = text.lower()
    at = lower.find(word.lower())
    start = max(lower.rfind(sep, 0, max(at, 0)) for sep in ",;:.!?—") + 1
    # a conjunction starts another subject's clause too ("My son is 7 and I'm 34")
    joined = [m for m in _JOIN.finditer(lower, start, max(at, 0))]
    sentence = start
    start = joined[-1].end() if joined else start
    before = set(re.findall(r"[\w-]+", lower[start:max(at, 0)]))
    if before & W.SPEAKER:
        return USER  # "я с Диной переехала в Москву"
    who = _named_before(text[start:], word.lower(), lang)
    if who is not None:
        return who
    if joined and lang == "ru" and joined[-1].group(0).strip() == "и" and not before & (
            W.OTHER_PRONOUNS | W.FIRST_PERSON) and _opens_with_verb(lower[start:max(at, 0)]):
        # "Оля переехала в Казань и устроилась в «Яндекс»": a clause with no subject of its
        # own after "и" shares the one before it, so each of two changes in one message is
        # the one's who made them (h/promo40)
        shared = _subject_of(text[sentence:joined[-1].start()])
        if shared is not None:
            return shared
    if before & W.OTHER_PRONOUNS and not before & W.FIRST_PERSON:
        # the one person the message names before the pronoun ("Лиза, моя младшая сестра,
        # завтра приезжает. Ей 27"); none or several: unread
        return _only_named(text[:start], lang)
    return USER


def _opens_with_verb(clause: str) -> bool:
    """Whether a Russian clause opens with a verb that is not in the first person
    ("устроилась в «Яндекс»"; not "устроилась я", not "я устроилась")."""
    from wave_agent.world.morphology import _morph

    first = re.findall(r"[а-яё-]+", clause)
    if not first:
        return False
    parses = _morph().parse(first[0])
    return bool(parses) and parses[0].tag.POS == "VERB" and "1per" not in parses[0].tag


def _subject_of(clause: str) -> str | None:
    """The one the clause before "и" is said of when it names them in the nominative before
    its verb ("Оля переехала в Казань", "сестра переехала"): a first name, or a kin word as
    ``role:<role>``; None for the speaker's clause, one naming no one, or a name in another
    case ("Оле позвонила")."""
    from wave_agent.world.morphology import _morph, is_name, name_nominative

    words = re.findall(r"[\w-]+", clause)
    if {w.lower() for w in words} & (W.SPEAKER | W.FIRST_PERSON):
        return None
    for word in words:
        parses = _morph().parse(word.lower())
        if not any(p.tag.case == "nomn" for p in parses):
            continue
        role = kin.role_of(ru_lemma(word.lower()))
        if role is not None:
            return ROLE_PREFIX + role
        if word[:1].isupper() and len(word) > 1 and is_name(word):
            return name_nominative(word, "Nom")
        if parses[0].tag.POS == "VERB":
            return None  # the verb came first: what follows is no subject of it
    return None


def _only_named(text: str, lang: str) -> str | None:
    """The one person a text names by a first name (in the nominative), None for none or more."""
    if lang != "ru":
        return None
    from wave_agent.world.morphology import is_name, name_nominative

    named = {name_nominative(w, "Nom") for w in re.findall(r"(?<![\w-])[А-ЯЁ][а-яё]+", text)
             if is_name(w)}
    return named.pop() if len(named) == 1 else None


def _given_to(name: str, text: str, lang: str) -> bool:
    """Whether a person is named as the one given something ("отдала Тиме", "продал брату")."""
    words = _words(text, lang)
    if lang != "ru" or not any(lem in ("отдать", "подарить", "продать", "отдавать")
                               for _, lem in words):
        return False
    from wave_agent.world.morphology import _morph

    for form, _ in words:
        if _alike(_norm(name).split()[0] if _norm(name) else name, form):
            return any("datv" in p.tag.grammemes for p in _morph().parse(form))
    return False


# who the speaker is when an ending is done to them ("Макс меня бросил", "left me"): the
# subject's ending then ends the subject, for the speaker
_SPEAKER = frozenset({"меня", "мной", "нас", "me", "us", "mnie", "mną", "nas"})
# what may follow an English or Polish ending verb without being its object ("broke up",
# "split with", "rozstał się z")
_NOT_OBJECT = frozenset({"up", "with", "off", "away", "out", "on", "from", "him", "her", "it",
                         "them", "się", "z", "ze", "od", "go", "ją", "ich"})


def _ends_a_thing(name: str, text: str, lang: str) -> bool:
    """Whether a person is named as the one who ends something else: the subject of an ending
    verb with its own object ("Тимур бросил плавание", "Сын бросил курить", "Tim quit
    swimming"), not the one ended ("Рыжика больше нет", "с Максом всё", "Макс ушёл", "Макс меня
    бросил"). In Russian the name is in the nominative and the word after the verb is a noun
    or an infinitive, not the speaker; elsewhere any word but the speaker after the verb."""
    first = _norm(name).split()[0] if _norm(name) else ""
    if len(first) < 3:
        return False
    for clause in _CLAUSE.split(text):
        forms = re.findall(r"[^\W\d_]+", clause)
        at = next((i for i, w in enumerate(forms) if _alike(first, _norm(w))), None)
        if at is None:
            continue
        verb = next((i for i in range(at + 1, len(forms))
                     if {pair for w, lem in _words(forms[i], lang) for pair in (w, lem)}
                     & W.ENDING), None)
        if verb is None or verb + 1 >= len(forms):
            return False
        after = forms[verb + 1].lower()
        if after in _SPEAKER:
            return False
        if lang != "ru":  # "Tom quit swimming": the name alone right before the verb
            return verb == at + 1 and after not in _NOT_OBJECT
        from wave_agent.world.morphology import _morph

        if not any("nomn" in p.tag.grammemes for p in _morph().parse(forms[at].lower())):
            return False
        top = _morph().parse(after)[0].tag
        return "INFN" in top.grammemes or ("NOUN" in top.grammemes and "accs" in top.grammemes)
    return False


def _a_someone(word: str) -> bool:
    """Whether a word in the dative names someone (a first name, a kin word, a pet: "Тёме",
    "Маме"), not a thing ("Машине 14 лет" is the car's)."""
    from wave_agent.world.morphology import _morph

    parses = _morph().parse(word.lower())
    return bool(parses) and ("anim" in parses[0].tag.grammemes or any(
        {"Name", "datv"} <= p.tag.grammemes for p in parses))


def _denied_as_class(text: str, word: str, lang: str) -> bool:
    """Whether a class word in a negated clause is what is denied ("ни братьев, ни сестёр",
    "no siblings"), not the subject of another denial ("Мой брат не курит"): in Russian a
    denied thing is in the genitive, elsewhere the negation comes before it."""
    if lang == "ru":
        from wave_agent.world.morphology import _morph

        parses = _morph().parse(word)
        return not parses or "nomn" not in parses[0].tag.grammemes
    lower = text.lower()
    at = lower.find(word.lower())
    start = max(lower.rfind(sep, 0, max(at, 0)) for sep in ",;:.!?—") + 1
    before = set(re.findall(r"[\w']+", lower[start:max(at, 0)]))
    return bool(before & W.NEGATION) or "n't" in lower[start:max(at, 0)]


def _named_before(text: str, verb: str, lang: str) -> str | None:
    """The person named right before ``verb`` in its clause ("Дина переехала"): a first name
    (pymorphy3), or a kin word as ``role:<role>``; None when the clause names no one."""
    at = text.lower().find(verb)
    start = max(text.rfind(sep, 0, max(at, 0)) for sep in ",;:.!?—") + 1
    for word in reversed(re.findall(r"[\w-]+", text[start:max(at, 0)])):
        role = kin.role_of(word) if lang != "ru" else kin.role_of(ru_lemma(word.lower()))
        if role is not None:
            return ROLE_PREFIX + role
        if word[:1].isupper() and len(word) > 1 and lang == "ru":
            from wave_agent.world.morphology import is_name, name_nominative

            if is_name(word):
                return name_nominative(word, "Nom")
    return None


def _lexicon_kind(form: str, lem: str, lang: str) -> tuple[EntityType | None, str]:
    """The kind of thing a word names in the world lexicon, under any of its lemmas ("йогу":
    pymorphy's first lemma is "йог", the lexicon's is "йога"), and that lemma."""
    for name in (lem, form):
        if lexicon.kind_of(name) is not None:
            return lexicon.kind_of(name), name
    if lang == "ru":
        from wave_agent.world.morphology import _morph

        for parse in _morph().parse(form):
            name = str(parse.normal_form).replace("ё", "е")
            if lexicon.kind_of(name) is not None:
                return lexicon.kind_of(name), name
    return None, form


# an allergist and what they found it to be, within the sentence: "аллерголог сказал — на
# пылевого клеща", "allergist says it's to birch pollen", "alergolog: na roztocza"
# (the finding right after a verb of saying or finding, so "записалась к аллергологу на
# пятницу" and "аллерголог сказал прийти на неделе" find nothing)
_ALLERGIST_FOUND = re.compile(
    r"\b(?:аллерголог\w*|allergist\w*|alergolog\w*)\s+(?:\w+\s+)?(?:сказал\w*|говорит|"
    r"нашл\w*|наш[её]л|выявил\w*|показал\w*|подтвердил\w*|said|says|found|told\s+me|"
    r"powiedział\w*|stwierdził\w*|wykrył\w*)\W+(?:(?:что|that|że|it'?s|it\s+is|у\s+меня|"
    r"аллергия|allergic)\s+)*(?:на|to|na)\s+([\w-]+(?:\s+[\w-]+)?)")


def _allergen(said: str, lang: str) -> str:
    """What an allergy is to, as a dictionary names it: a Russian adjective with the noun it
    agrees with ("пылевого клеща" -> "пылевой клещ"), else the first word."""
    first, *rest = said.split()
    if lang != "ru":
        return first
    from wave_agent.world.morphology import _morph

    parse = _morph().parse(first)[0]
    if rest and parse.tag.POS in ("ADJF", "PRTF"):
        return f"{ru_lemma(first)} {ru_lemma(rest[0])}"
    return ru_lemma(first)


def _money(said: str) -> str:
    digits = re.sub(r"[^\d.,]", "", said).replace(",", ".").strip(".")
    thousands = re.search(r"тыс|тыщ|\bк\b|\dk\b|\bk\b", said.lower())
    try:
        number = float(digits.replace(" ", ""))
    except ValueError:
        return said.strip()
    if thousands:
        number *= 1000
    return str(int(number)) if number == int(number) else f"{number:g}"


# a two-digit number said alone, not a count of something else ("4 км", "9 этаж", "15 числа",
# "в 19:00", "30 лет", "-го")
_BARE_TENS = re.compile(r"(?<![\d+.,:/-])\b([1-9]\d)\b(?![\d%/-]|[.,:]\d)(?!\s*(?:км|м\b|кв|метр|%|лет|год|"
                        r"этаж|мин|час|сек|дн|недел|месяц|раз|числ|утра|вечера|ночи|человек|шт|кг|"
                        r"г\b|см|градус|°|тысяч|тыс|руб|р\b|₽|к\b))", re.I)
# the word before a number that makes it no amount: an age ("мне 34"), a time or a date
_NOT_AN_AMOUNT = frozenset({"мне", "тебе", "ему", "ей", "нам", "вам", "им", "в", "во", "на", "с",
                            "со", "к", "через", "около", "после", "номер", "№"})
# the landlord asking, raising or being paid
_RENT_VERBS = frozenset({"попросить", "просить", "поднять", "поднимать", "повысить"})


def _rent_in_thousands(text: str, said: set[str]) -> str | None:
    """A rent said in thousands with no word for them ("хозяйке перевела 22 за первый месяц",
    "за квартиру тут 38 отдаю", "хозяйка подняла аренду: с этого месяца 35 вместо 32"): a
    word of renting (``W.PRICE_OF["rent"]``: квартира, аренда, хозяйка), paying, the landlord
    asking or raising it, or a date it holds from, and the first two-digit number said alone,
    as thousands (no Russian rent is under a thousand roubles)."""
    if not any(W.PRICE_WORDS.get(x) == "rent" for x in said):
        return None
    if not (said & W.PAY or said & _RENT_VERBS or W.SINCE.search(text) or W.CHANGE.search(text)):
        return None
    for number in _BARE_TENS.finditer(text):
        before = re.findall(r"[\w-]+", text[:number.start()].lower())
        if before and before[-1] in _NOT_AN_AMOUNT:
            continue  # "мне 34", "в 20", "с 15": an age, a time, a date
        start = max(text.rfind(sep, 0, number.start()) for sep in ".!?\n") + 1
        ends = [i for i in (text.find(sep, number.end()) for sep in ".!?\n") if i >= 0]
        sentence = text[start:min(ends, default=len(text))]
        words = {w for form in re.findall(r"[^\W\d_]+", sentence.lower())
                 for w in (form, ru_lemma(form, "NOUN"), ru_lemma(form, "VERB"))}
        if any(W.PRICE_WORDS.get(x) == "rent" for x in words) or words & (W.PAY | _RENT_VERBS):
            return str(int(number.group(1)) * 1000)  # said where the rent or its paying is
        return None
    return None


_PEOPLE = frozenset({"partner", "child", "sibling"})


def _names_person(name: str, text: str) -> bool:
    """Whether ``text`` names the person ``name``: a capitalised word alike to it, or any word
    that begins with all of it ("сын" / "сына") or all of it but its last letter ("Дима" /
    "димой"); not a common word alike to it by three letters ("денег" is not "Денис")."""
    first = _norm(name).split()[0] if name.split() else ""
    if len(first) < 3:
        return False
    for token in re.findall(r"\w+", text):
        low = _norm(token)
        if (token[:1].isupper() and _alike(first, low)) or low.startswith(first) or (
                len(first) >= 4 and low.startswith(first[:-1])):
            return True
    return False


def _pets_away(text: str, words: Sequence[tuple[str, str]], held: Iterable[Value],
               c: _Collector) -> None:
    """A held pet taken to live with someone else ("Кешу отвезла маме в Балахну", "пристроили
    в хорошие руки"): it ends, as one given away does. Only a pet the person holds, named by
    its name; the taking done (not "надо отвезти"), and to someone (a relative, a person, a
    shelter: "отвезла к ветеринару" is a visit)."""
    done = [form for form, lem in words if (lem in W.AWAY or form in W.AWAY)
            and (c.lang != "ru" or re.search(r"л[аио]?$", form))]
    if not done:
        return
    to_someone = any(kin.role_of(lem) is not None or lem in W.AWAY_TO for _, lem in words)
    if not to_someone:
        return
    said = [form for form, _ in words if len(form) >= 3]
    for value in held:
        # the household's pet, the person's or a child's ("Ну и попугай Кеша" after "Сын
        # Тимофей"): the one who takes it away says it is gone from home
        if value.attribute != "pet" or value.op not in ("set", "add"):
            continue
        name = _norm(value.value).split()
        if not name or not any(_alike(name[-1], s) for s in said) or any(
                f.key == value.key and same_value(f.value, value.value) for f in c.found):
            continue
        word = next(s for s in said if _alike(name[-1], s))
        pol = c.polarity_of(word)
        if pol.unreal or pol.negated:
            continue  # "отвезла бы", "не отвезла": nothing ended
        c.put(value.entity, "pet", value.value, "remove")


def _last_day(text: str, held: Iterable[Value], c: _Collector) -> None:
    """The last day at the employer the person holds ("последний день в Ростелекоме. торт,
    обнимашки", "last day at Acme"): the job ends. Only a held employer named right after the
    words ("последний день в Самаре" is a city's, "последний день ноября" nobody's)."""
    said = W.LAST_DAY_AT.search(text)
    if said is None:
        return
    word = _norm(said.group(1)).split()[0]
    for value in held:
        if (value.entity == USER and value.attribute == "employer" and value.op in ("set", "add")
                and any(len(w) >= 3 and _inflected(w, word) for w in _norm(value.value).split())
                and not any(f.key == value.key for f in c.found)):
            c.put(USER, "employer", value.value, "remove")


def _said_over(text: str, held: Iterable[Value], c: _Collector) -> None:
    """A held value said to be over by "всё" right after its own name ("бассейн, видимо, всё",
    "моржевание всё — клуба нет"): it ends. Only a value the person holds, named by its last word
    in any form, with at most one word set off by commas between ("видимо", "похоже"), and "всё"
    closing the clause ("бассейн всё время" is no ending; "съела всё" names nothing held)."""
    if not re.search(r"\bвс[её]\b", text, re.I):
        return
    for value in held:
        if (value.op not in ("set", "add") or value.value == ANY
                or value.attribute not in ("hobby", "habit", "diet", "condition", "pet")
                or any(f.key == value.key and same_value(f.value, value.value)
                       and f.op not in ("set", "add") for f in c.found)):
            continue
        # the value's own words, not what is said of it in brackets ("курение (пачка в день)");
        # three letters are enough for a pastime's ("бег, похоже, всё")
        name = [w for w in _norm(re.sub(r"\(.*?\)", " ", value.value)).split() if len(w) >= 3]
        if not name:
            continue
        for word in re.finditer(r"[\w-]+", text):
            if not any(_inflected(w, _norm(word.group(0))) for w in name):
                continue
            rest = text[word.end():]
            if re.match(r"\s*(?:,\s*[а-яё]+\s*,\s*|[—–-]\s*)?вс[её](?![\w-])"
                        r"(?=\s*(?:[.!,;…]|\s[—–-]|$))", rest, re.I):
                if not c.polarity_of(word.group(0)).unreal:
                    # the value the parse read in the same words as held ("бег" done) is over
                    c.found[:] = [f for f in c.found if not (
                        f.key == value.key and same_value(f.value, value.value)
                        and f.op in ("set", "add"))]
                    c.put(value.entity, value.attribute, value.value, "remove")
                break


_BURIED = re.compile(r"\b(?:(?:по)?хорони(?:ли|ла|л|м)|buried|pochowa(?:liśmy|łam|łem|li|ła|ł))\s+"
                     r"(?:(?:сегодня|вчера|наконец|today|yesterday|dziś|wczoraj)\s+)?"
                     r"(?:(?:нашего|нашу|моего|мою|our|my|naszego|naszą|mojego|moją)\s+)?([\w-]+)", re.I)


def _buried(text: str, held: Iterable[Value], c: _Collector) -> None:
    """A held pet buried ("похоронили Бублика", "вчера похоронила Рыжика под яблоней",
    "we buried Max"): it ends. Only the pet the person holds, named right after the verb as what
    was buried ("похоронили с Кириллом у мамы" buries no Кирилл)."""
    for said in _BURIED.finditer(text):
        word = _norm(said.group(1))
        for value in held:
            if value.attribute != "pet" or value.op not in ("set", "add"):
                continue
            names = [w for w in _norm(value.value).split() if len(w) >= 3]
            if any(_alike(w, word) for w in names) and not any(
                    f.key == value.key and same_value(f.value, value.value) and f.op == "remove"
                    for f in c.found):
                c.found = [f for f in c.found if not (  # (not the "add" the name alone read)
                    f.key == value.key and f.op in ("set", "add")
                    and any(_alike(w, word) for w in _norm(f.value).split()))]
                c.put(value.entity, "pet", value.value, "remove")


def _endings(text: str, words: Sequence[tuple[str, str]], held: Iterable[Value],
             c: _Collector) -> None:
    """A held value named with an ending ("Рыжика больше нет", "йогу забросила"), or with a
    negation of the whole: the attribute it ends is the one that holds it."""
    pol, found, put = c.pol, c.found, c.put
    if not (pol.ended or pol.negated):
        return
    said = [w for pair in words for w in pair if len(w) >= 3]
    for value in held:
        if value.op not in ("set", "add") or value.value == ANY or value.attribute == "birthplace":
            continue  # (a birthplace does not end; "не сглазь" names no Казань)
        if any(f.key == value.key and (f.value == ANY or same_value(f.value, value.value))
               for f in found):
            continue
        name = _norm(value.value).split()
        partly = False  # named by one word of it only: an ending verb must end it
        if value.attribute in _PEOPLE and not _names_person(value.value, text):
            continue  # "денег нет", "два дня" do not name Денис
        if name and not all(any(_alike(w, s) for s in said) for w in name):
            if value.attribute == "pet":
                # a pet held with its kind ("кот Рыжик") named by its name alone ("Рыжика
                # больше нет"): an ending must end it
                named = [w for w in _norm(value.value).split() if len(w) >= 3
                         and re.search(r"(?<![\w-])" + re.escape(w[:1].upper()), value.value)
                         and any(_alike(w, s) for s in said)]
                if not named:
                    continue
                partly, name = True, named[:1]
            elif value.attribute not in ("vehicle", "device"):
                continue
            else:
                # a vehicle or device by its make or model alone, in either alphabet ("Рио
                # продала" ends "Kia Rio")
                either = [*said, *(_cyrillic(s) for s in said),
                          *(W.MAKE_SPELLINGS[m] for m in (ru_lemma(s) for s in said)
                            if m in W.MAKE_SPELLINGS)]
                named = [x for w in name if len(w) >= 3 and not w.isdigit()
                         for x in (w, _cyrillic(w)) if any(_alike(x, s) for s in either)]
                if not named:
                    continue
                partly = True
                name = named[:1]
        if name:
            # the held value's holder must be the one the clause speaks of ("Мой брат не
            # курит" ends nothing of the person's), and a wish or the past ends nothing
            word = next((w for w, _ in words if _alike(name[0], w)), name[0])
            pol_here = c.polarity_of(word)
            if pol_here.unreal or (pol_here.past and not pol_here.changed):
                continue
            if value.entity == USER and _holder(text, word, c.lang) != USER:
                continue
            if value.entity != USER and not _holder_named(value.entity, text):
                # someone else's value named by its word alone in a negated clause ("Руководитель
                # у меня Игорь", then "... руководитель не отпустил"): the clause speaks of a
                # руководитель, not of Игорь, and denies what he did, not what he is
                continue
            if not (pol_here.ended or pol_here.negated) or (partly and not pol_here.ended):
                continue  # "Персика больше нет. ... Соня плачет": the ending is another clause's
            if not pol_here.ended and not _denies(text, word, after_=value.attribute != "city"):
                continue  # "В Питере машина не нужна", "Соня ни одного": something else is denied
            if not pol_here.ended and value.attribute in ("child", "sibling"):
                continue  # "Лёве пока не сказала": a clause's "не" denies no one's child (27
                # months: each labelled denial of a child or sibling says the class, "детей нет")
            put(value.entity, value.attribute, value.value,
                "remove" if pol_here.ended else "negate")


_LATIN = dict(zip("abcdefghijklmnopqrstuvwxyz", "абкдефгхийклмнопкрстуввкиз", strict=True))


def _holder_named(entity: str, text: str) -> bool:
    """Whether ``text`` names the one a held value is of: a kin word of the role
    (``role:mother``: "мама", "маме") or the person's name in any form."""
    if entity.startswith(ROLE_PREFIX):
        role = entity[len(ROLE_PREFIX):]
        return any(kin.role_of(w) == role for w in re.findall(r"[^\W\d_]{2,}", text))
    return _names_person(entity, text)


def _cyrillic(word: str) -> str:
    """A Latin word as a Russian speaker writes it, letter by letter ("rio" -> "рио", "kia" ->
    "киа"): enough to compare a make named in either alphabet."""
    return "".join(_LATIN.get(ch, ch) for ch in word.lower())


_WITHOUT = frozenset({"без", "bez", "without"})
_VERB_FORM = re.compile(r"\w+(?:ть|ться|ти)")  # a Russian infinitive: the pastime's verb


# taking a pastime up: enrolling ("записалась на", "записал Мишу на", "zapisałam się na",
# "signed up for", "signed Misha up for") names it after its preposition; going once
# ("сходила на", "затащила меня на", "poszłam na", "went to") names one only where the message
# says it will recur
_ENROL = re.compile(r"\b(?:записал(?:ся|ась|ись|а|и|)|запишусь|записываюсь|записыва(?:лся|лась)|"
                    r"zapisał(?:am|em|a|)(?:\s+się)?|zapisuję\s+się|sign(?:ed)?(?:\s+\w+)?\s+up|"
                    r"enrolled|joined)\b", re.I)
_WENT = re.compile(r"\b(?:сходил[аи]?|сходили|затащил[аи]?\s+меня|пошл[аи]|пош[её]л|"
                   r"poszł(?:am|em|yśmy)|went)\b", re.I)
# what says the going recurs: a season ticket, a schedule, "буду ходить", a first lesson
_RECURS = re.compile(r"\bабонемент\w*|\bбуду\s+(?:ходить|лазать|заниматься|ещё)|\bхочу\s+ещ[её]|"
                     r"\bрегулярно|\bперв\w+\s+(?:занятие|тренировк\w*|урок)|\bkarnet\w*|"
                     r"\bbędę\s+chodzić|\b(?:membership|pass)\b|\bgoing\s+to\s+keep|"
                     r"\bevery\s+week\b", re.I)
# the words after the preposition: the pastime or its place
_AFTER = re.compile(r"\b(?:на|в|во|na|do|for|in)\s+((?:(?!(?:на|в|во|na|do|for|in)\b)"
                    r"[^\W\d_]+[\s-]?){1,3})", re.I)
# a preposition before a name makes it someone beside the taking up ("к Гульнаре", "с Маратом")
_BESIDE = frozenset({"к", "ко", "с", "со", "у", "от", "для", "по", "with", "by", "to", "z", "ze",
                     "u", "do", "dla", "od"})


def _taken_up(text: str, lang: str) -> list[tuple[str, str]]:
    """Who takes up which pastime in ``text``: the noun after an enrolling verb's "на" (else
    "в"), or after a going verb when the message says it will recur. Whose: a name or a kin
    word said with the verb and no preposition before it ("записала Соню на плавание", "Лёва
    записался на шахматы"), else the speaker's. A noun of another kind ("записалась к врачу на
    приём"), a time ("на пятницу") or a noun the word vectors put among other kinds ("на
    маникюр", "на курсы") is none, unless the message says the going recurs."""
    out: list[tuple[str, str]] = []
    recurs = bool(_RECURS.search(text) or W.SCHEDULE.search(text))
    for clause in re.split(r"[.!?;\n]+|,\s+(?=[а-яёa-z]+\s)", text):
        enrol = _ENROL.search(clause)
        went = None if enrol else _WENT.search(clause)
        verb = enrol or went
        if verb is None or W.DOCTOR.search(clause[verb.end():]):
            continue
        if went is not None and not recurs:
            continue
        found = _pastime_after(clause[verb.end():], lang, sure=recurs, enrolled=enrol is not None)
        if found is None:
            continue
        at, name = found
        whose = _taker(clause[:verb.end() + at], lang)
        if whose is not None:
            out.append((whose, name))
    return out


def _taker(said: str, lang: str) -> str | None:
    """Whose the pastime is: the one name or kin word of ``said`` (the clause up to the
    pastime's preposition) with no preposition before it; the speaker's when there is none;
    None when there are several."""
    from wave_agent.world.morphology import is_name, name_nominative

    words = re.findall(r"[^\W\d_]+", said)
    found: list[str] = []
    for i, word in enumerate(words):
        if i and words[i - 1].lower() in _BESIDE:
            continue
        if lang == "ru":
            role = kin.role_of(ru_lemma(word.lower()))
            if role is not None:
                found.append(ROLE_PREFIX + role)
                continue
        if i and word[:1].isupper() and (is_name(word) if lang == "ru" else word.lower() not in (
                "up", "i")):
            found.append(name_nominative(word, None) if lang == "ru" else word)
        elif not i and word[:1].isupper() and lang == "ru" and is_name(word) and len(words) > 1:
            found.append(name_nominative(word, None))
    if not found:
        return USER
    return found[0] if len(set(found)) == 1 else None


def _pastime_after(rest: str, lang: str, *, sure: bool, enrolled: bool) -> tuple[int, str] | None:
    """Where the pastime's preposition stands in ``rest`` (what follows the verb), and the
    pastime: its noun in the nominative, with an adjective before it kept ("гончарный курс").
    A noun the lexicon or navec reads as a pastime is one always; after an enrolling verb so
    is one whose two nearest lexicon nouns in navec are pastimes, however far ("скалодром");
    any other noun ("гончарка", "бачата": navec lacks them) only when the message says the
    going recurs (``sure``), and never a time, a visit or a noun of another kind. A course or
    a club keeps what it is of ("курс керамики", "курсы польского языка")."""
    preps = list(_AFTER.finditer(rest[:80]))
    if lang == "ru":
        preps.sort(key=lambda m: not rest[m.start():m.start() + 2].lower().startswith("на"))
    for found in preps:
        words = re.findall(r"[^\W\d_]+", found.group(1))
        if lang != "ru":
            head = words[0].lower()
            if head in ("a", "an", "the", "my", "classes", "class", "lessons") and len(words) > 1:
                head = words[1].lower()
            if sure or lexicon.kind_of(head) is EntityType.HOBBY:
                return found.start(), head
            continue
        name = _ru_noun_phrase(words)
        if name is None:
            continue
        kind = noun_kind(name.split()[-1])
        if kind is EntityType.HOBBY or (kind is None and (
                sure or (enrolled and pastime_near(name.split()[-1])))):
            return found.start(), name
    return None


def _ru_noun_phrase(words: Sequence[str]) -> str | None:
    """The first noun of ``words`` in the nominative, with the adjectives before it agreed
    ("гончарный курс"); None when the first noun is a person's name, a time or a count."""
    from wave_agent.world.morphology import _morph

    adjectives: list[Any] = []
    for n, word in enumerate(words):
        if word[:1].isupper() and adjectives == [] and word is not words[0]:
            return None
        # the case "на" / "в" of going somewhere governs: "скалодром" the accusative, not
        # pymorphy's likeliest reading (the instrumental of an unknown "скалодр")
        parses = _morph().parse(word.lower())
        parse = next((p for p in parses if p.tag.case == "accs"), parses[0])
        pos = parse.tag.POS
        if pos in ("ADJF", "PRTF"):
            adjectives.append(parse)
            continue
        if pos != "NOUN" or parse.tag.case != "accs" or (word[:1].isupper() and {
                "Name", "Surn", "Patr", "Geox"} & set(parse.tag.grammemes)):
            return None  # not where one goes ("в восторге"), or a name ("на Катю")
        noun = str(parse.normal_form).replace("ё", "е")
        if noun in _NOT_PASTIME or len(noun) < 3:
            return None
        nominative = parse.inflect({"nomn"})
        agree = {"nomn", *(g for g in (nominative.tag.gender, nominative.tag.number)
                           if nominative is not None and g)} if nominative else {"nomn"}
        said = []
        for a in adjectives:
            agreed = a.inflect(agree)
            said.append(str(agreed.word if agreed is not None else a.normal_form))
        if nominative is not None and nominative.tag.number == "plur":
            noun = str(nominative.word)  # "на танцы": танцы, not танец
        if noun_kind(noun) is not EntityType.HOBBY:
            # what a course or a club is of, in the genitive: "курс керамики"
            of = list(itertools.takewhile(lambda w: len(w) > 2 and _morph().parse(
                w.lower())[0].tag.POS in ("NOUN", "ADJF") and any(
                p.tag.case == "gent" for p in _morph().parse(w.lower())), words[n + 1:]))
            noun = " ".join([noun, *of[:2]])
        return " ".join([*said, noun])
    return None


# a time, a count or a visit: "на пятницу", "на неделю", "на 8 занятий", "на приём"
_NOT_PASTIME = frozenset({
    "понедельник", "вторник", "среда", "четверг", "пятница", "суббота", "воскресенье",
    "неделя", "месяц", "год", "день", "вечер", "утро", "время", "выходные", "завтра",
    "приём", "прием", "занятие", "тренировка", "урок", "раз", "час", "минута", "очередь",
    "работа", "дом", "улица", "центр", "город", "машина", "такси", "метро", "автобус",
})
_OWN_VERB = re.compile(r"\w+(?:ю|у|ем|им|юсь|усь|ешь|ишь|ёшь)")


def _denies(text: str, word: str, *, after_: bool = True) -> bool:
    """Whether a negation in ``word``'s clause denies it: said before it ("не живу в Самаре",
    "nie mam kota", "I don't have a cat"), or after it as "нет" or a negated verb of the
    person's ("Рыжика нет", "йогой не занимаюсь"); not a negation of something else said
    beside it ("В Питере машина всё равно не нужна", "Я упала три раза, Соня ни одного": the
    tuning months' false alarms)."""
    key = word.lower()
    for piece in _CLAUSE.split(text):
        tokens = re.findall(r"[\w'-]+", piece.lower())
        at = next((i for i, t in enumerate(tokens) if _alike(key, t)), None)
        if at is None:
            continue
        before, after = tokens[:at], tokens[at + 1:]
        if before and before[-1] in W.CIRCUMSTANCE:
            return False  # "после бокса не чувствую рук": the value is when, not what is denied
        # "без" (without) governs the noun right after it, not a value further on ("Без машины
        # в Казани тяжко" denies no city)
        negations = {t for i, t in enumerate(before)
                     if t in W.NEGATION and (t not in _WITHOUT or i >= len(before) - 2)}
        if negations or any("n't" in t for t in before):
            return True
        if not after_:
            return False  # a city is denied before it ("не живу в Казани"); after it the
            # negation is of what one does there ("В Казани искать студию не буду")
        return any(t == "нет" or (t == "не" and i + 1 < len(after)
                                  and _OWN_VERB.fullmatch(after[i + 1]) is not None)
                   for i, t in enumerate(after))
    return True  # the word is in no clause as said: the whole text's negation stands


_MAKE = r"([A-ZА-ЯЁ][\w-]*(?:\s+(?:[A-ZА-ЯЁ][\w-]*|\d{1,3}\b)){0,2})"
# "Езжу на Ладе Весте", "I drive a Civic", "jeżdżę Toyotą": what one drives is one's vehicle
_DRIVES = re.compile(r"\b(?:(?i:езжу|ездим|вожу|гоняю|drive|driving|jeżdżę|jeździmy)\s+"
                     r"(?i:на\s+|a\s+|an\s+|my\s+|our\s+)?(?i:своей\s+|своём\s+|moim\s+)?"
                     # one's own car taken somewhere: "доехала на своей Kia Rio", "повезла свою
                     # Kia Rio на ТО", "отогнала свою Kia Rio в сервис" (three months' authors)
                     r"|(?i:\w*ехал\w*|повез\w*|отогнал\w*)\s+(?i:на\s+)?(?i:сво(?:ей|ём|ю))\s+)"
                     + _MAKE)
# the new one of a replacement: "купил Шкоду Октавию", "to a Pixel 8", "na Samsunga"
# a device's make as people type it, small ("взяла самсунг S24", "новый айфон")
_DEVICE = (r"((?:[A-ZА-ЯЁ][\w-]*|(?i:" + "|".join(sorted(W.DEVICE_MAKES, key=len, reverse=True))
           + r")\w*)(?:\s+(?:[A-ZА-ЯЁ][\w-]*|\d{1,3}\b)){0,2})")
_NEW_ONE = re.compile(r"\b(?i:купил\w*|взял\w*|bought|got|kupił\w*|to|на|na)\s+"
                      r"(?i:a\s+|an\s+|the\s+|new\s+|нов\w+\s+|now\w+\s+)?" + _DEVICE)


# bought, taken, or said new ("настраиваю новый самсунг"); the make must be a device's
_BOUGHT = re.compile(r"\b(?:(?i:купил\w*|взял\w*|bought|got|kupił\w*|wziął\w*|wzięła\w*)\s+"
                     r"(?i:a\s+|an\s+|the\s+|new\s+|себе\s+|нов\w+\s+|now\w+\s+)?"
                     # (not what one would buy: "на новый айфон денег нет")
                     r"|(?<![Нн]а\s)(?<!for\s)(?<!na\s)(?i:нов(?:ый|ую|ого|ом|ым)|new|nowy|nowego|"
                     r"nowym)\s+)" + _DEVICE)


def _make(found: str, lang: str) -> str:
    """A make said in an inflection, in its dictionary form ("Ладе Весте" -> "Лада Веста")."""
    if lang != "ru" or not re.search("[А-ЯЁа-яё]", found):
        return found
    from wave_agent.world.morphology import _morph

    def nominative(word: str) -> str:
        parses = [p for p in _morph().parse(word.lower()) if "NOUN" in p.tag.grammemes]
        named = [p for p in parses if {"Name", "Surn", "Orgn", "Trad"} & p.tag.grammemes]
        best = (named or parses or [None])[0]
        return str(best.normal_form).capitalize() if best is not None else word

    return " ".join(w if w.isdigit() else nominative(w) for w in found.split())


def _vehicles_and_devices(text: str, lang: str, held: Iterable[Value], c: _Collector) -> None:
    """A vehicle by what one drives ("Езжу на Ладе Весте"), and a held vehicle or device
    replaced by a new one named in the same message ("Продал Весту, купил Шкоду Октавию",
    "Switched from my old iPhone 11 to a Pixel 8"): the new one is set (a vehicle) or added
    and the old one ended (a device, one of many)."""
    drives = _DRIVES.search(text)
    if drives and c.op_at(drives.group(1), multi=False) == "set":
        c.put(USER, "vehicle", _make(drives.group(1), lang), "set")
    said = [_norm(w) for w in re.findall(r"[\w-]+", text)]
    for bought in _BOUGHT.finditer(text):
        # a phone or laptop bought or taken by its make, the old one said in another sentence
        # or not at all ("утопила айфон ... взяла Pixel 8": two of the months' authors)
        make = bought.group(1)
        if _norm(make).split()[0] in W.DEVICE_MAKES and c.op_at(make, multi=True) == "add":
            c.put(USER, "device", _make(make, lang), "add")
    swapped = bool({lem for _, lem in _words(text, lang)} & W.SWAP)
    for value in held:
        if value.entity != USER or value.attribute not in ("vehicle", "device") or \
                value.op not in ("set", "add") or value.value == ANY:
            continue
        named = [w for w in _norm(value.value).split() if not w.isdigit() and len(w) >= 3]
        if not any(_alike(w, s) for w in named for s in said) or not (
                c.pol.ended or c.pol.changed or swapped):
            continue
        new = next((m.group(1) for m in _NEW_ONE.finditer(text)
                    if not any(_alike(w, _norm(m.group(1)).split()[0]) for w in named)), None)
        if new is None:
            continue
        if value.attribute == "vehicle":
            c.put(USER, "vehicle", _make(new, lang), "set")
        else:
            c.put(USER, "device", _make(new, lang), "add")
            c.put(USER, "device", value.value, "remove")


_AMONG_US = re.compile(r"(?<![\w-])([А-ЯЁ][а-яё]+|[Оо]н[аи]?)\s+(?:же\s+|ведь\s+)?у\s+нас\s+"
                       r"(?:же\s+|ведь\s+|теперь\s+)?([а-яё-]{4,})\b"
                       # "Лена, кстати, хирург в областной больнице", "Оля — кстати, педиатр"
                       # (round thirty-eight): the job said beside the name by a remark
                       r"|(?<![\w-])([А-ЯЁ][а-яё]+)\s*[,—–-]\s*(?:кстати|между\s+прочим|"
                       r"вообще-то|кстати\s+говоря|если\s+что)\s*,?\s+([а-яё-]{4,})(?=[\s,.!?]|$)")


def _birthplace(text: str, reading: Reading, held: Sequence[Value], c: _Collector) -> None:
    """The speaker's birthplace (``world.birthplace``): a value that never changes, so another
    one said later is a contradiction. A native's word read as a job ("я коренная
    самарчанка": the parse's ``works_as``) is no role."""
    places = [(m.name, m.aliases) for m in reading.mentions if m.type is EntityType.PLACE]
    said = birthplace.read(text, reading.language, places,
                           [v.value for v in held if v.attribute in ("city", "birthplace")])
    if said is None:
        return
    place, word = said
    c.found[:] = [v for v in c.found if not (
        v.attribute == "role" and any(_alike(_norm(word), w) for w in _norm(v.value).split()))]
    pol = c.polarity_of(word)
    if pol.negated or pol.unreal:
        return
    if not any(v.key == f"{USER}|birthplace" for v in c.found):
        c.found.append(Value(USER, "birthplace", place, "set"))


def _job_among_us(text: str, c: _Collector) -> None:
    """Someone's job said as what they are "у нас" ("Костя у нас стоматолог", "Лёша же у нас
    врач", "написала Лене, она же у нас учительница": three months' authors): the named one's
    role, by the job noun's head (a job by its navec neighbours or its agent suffix)."""
    if c.lang != "ru":
        return
    from wave_agent.world.morphology import is_name, name_nominative

    for found in _AMONG_US.finditer(text):
        who = found.group(1) or found.group(3)
        job = ru_lemma((found.group(2) or found.group(4)).lower())
        if kin.role_of(job) is not None or lexicon.kind_of(job) is not None or not (
                job_noun(job) or AGENT.search(job)):
            continue
        if who.lower() in ("он", "она", "они"):
            # the one named before the pronoun ("написала Лене, она же у нас учительница")
            named = [w for w in re.findall(r"[А-ЯЁ][а-яё]+", text[:found.start()]) if is_name(w)]
            if len(set(named)) != 1:
                continue
            who = named[0]
        elif not is_name(who):
            continue
        c.put(name_nominative(who, "Nom"), "role", job, c.single_op())


def _car_name(token: str) -> str | None:
    """The car make or model a word names, in the table's (dictionary) form, in any
    inflection ("Шкоду" -> "Шкода", "октавии" -> "Октавия", "Toyotą" -> "Toyota"); None for
    any other word. A name typed in Latin capitals stays as typed ("Kia Rio")."""
    word = token.lower().replace("ё", "е")
    if word in _CARS:
        return token if token[:1].isupper() else token.capitalize()
    if len(word) >= 3 and word[-1] in "аяуюеиыąęoy":
        name = next((n for n in _CARS_BY_STEM.get(word[:-1], ()) if len(n) == len(word)
                     and n[-1] in "аяa"), None)
        if name is not None:
            return name.capitalize()
    return None


_CARS = frozenset(w.replace("ё", "е") for w in W.CAR_NAMES)
_CARS_BY_STEM: dict[str, list[str]] = {}
for _name in _CARS:
    _CARS_BY_STEM.setdefault(_name[:-1], []).append(_name)


def _own_car(text: str, c: _Collector) -> None:
    """A car named by its make or model as one's own ("Моя Киа Рио еле завелась", "гранта моя
    опять не завелась", "на моей старенькой Kia Rio") or as just taken ("взяла Шкоду Фабию",
    "забрала машину из салона! Haval Jolion") is the person's vehicle, named by every make and
    model word the message says ("Киа моя ... Рио 2015 года": "Киа Рио"). Sold ("продала свою
    Kia Rio") it ends, by the held value (`_endings`); wished for, or said of the past, it is not."""
    if any(v.entity == USER and v.attribute == "vehicle" for v in c.found):
        return
    tokens = list(re.finditer(r"[\w-]+", text))
    lows = [t.group(0).lower() for t in tokens]
    names = [(i, n) for i, t in enumerate(tokens) if (n := _car_name(t.group(0))) is not None]
    for i, _ in names:
        token = tokens[i]
        own = bool(set(lows[max(0, i - 2):i]) & W.OWN_CAR) or bool(
            set(lows[i + 1:i + 3]) & W.OWN_CAR)
        took = any(W.TOOK_CAR.fullmatch(w) for w in lows[max(0, i - 6):i])
        if not (own or took):
            continue
        pol = c.polarity_of(token.group(0))
        if pol.ended or pol.unreal or (pol.past and not pol.changed) or (
                took and not own and pol.negated):
            continue
        said: list[str] = []
        for _, name in names:
            if not any(_alike(_cyrillic(_norm(name)), _cyrillic(_norm(s))) for s in said):
                said.append(name)
        c.put(USER, "vehicle", " ".join(said[:3]), "set")
        return


def line_names(line: str, value: str) -> bool:
    """Whether a line of text names ``value``: every word of it, in any inflection; a number
    as an amount or a phone number the line says ("48 тысяч" names "48000")."""
    if re.fullmatch(r"\+?\d+", value):
        said = {re.sub(r"[^\d+]", "", m.group(1)) for m in W.PHONE.finditer(line)}
        said |= {_money(m.group(0)) for m in W.AMOUNT.finditer(line)}
        said |= {re.sub(r"\D", "", m) for m in W.BARE_AMOUNT.findall(line)}
        return value in said or value.lstrip("+") in {s.lstrip("+") for s in said}
    words = _norm(line).split()
    name = _norm(value).split()
    return bool(name) and all(any(_alike(w, s) for s in words) for w in name)


def kind_of_value(attribute: str) -> EntityType | None:
    """The entity type an attribute's value is (for the page and the entity graph)."""
    return {"city": EntityType.PLACE, "employer": EntityType.ORGANISATION,
            "pet": EntityType.PET, "hobby": EntityType.HOBBY, "vehicle": EntityType.VEHICLE,
            "device": EntityType.DEVICE, "condition": EntityType.ILLNESS}.get(attribute)


__all__ = ["ANY", "MULTI", "SINGLE", "TYPE_OF", "Value", "kind_of_value", "line_names",
           "read_values", "record_type", "same_value", "single_valued"]
