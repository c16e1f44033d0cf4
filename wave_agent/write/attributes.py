"""What a new record does to the attribute values the person holds: the writer's step that
reads a statement as values of attributes (``wave_agent.world.attributes``) and compares them
with the values the person's active records state.

- a new value of a single-valued attribute (city, employer, partner, phone, a price ...)
  replaces the record that holds the old one (a change: "переехала в Казань", or implied:
  "за квартиру в этом месяце отдала 48 тысяч");
- an ending of a held value of a many-valued one ("Рыжика больше нет", "йогу забросила")
  replaces the record that added it;
- a negation of a held value ("аллергий нет" after an allergy, "детей у меня нет" after a
  son) is a contradiction: both stay, a conflict asks the person which is true.

A record that also holds other values the new one does not touch is not replaced (that would
drop them from the prompt): it stops holding the changed value instead (``released``).
Pure decisions over plain data here; the writer carries them out under the person's lock.

Why one file of this size: ``decide`` is one comparison of a record's values with the held,
denied, ended and replaced ones, and its helpers (ages, birthdays, the held value a denial
meets) are read with it; split, each rule would be read apart from the others it orders.
"""

from __future__ import annotations

import re
from calendar import monthrange
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from datetime import date, datetime

from graph.models import Fact, FactType, Status
from wave_agent.world import held_role, read_many, school, teacher
from wave_agent.world.attribute_words import MONTHS
from wave_agent.world.attributes import (
    ANY,
    MULTI,
    Value,
    as_said,
    of_species,
    read_values,
    record_type,
    same_value,
    single_valued,
    species,
)
from wave_agent.world.birthplace import same_place
from wave_agent.world.reading import USER
from wave_agent.write.move_news import tells_move

# Types a statement's attribute settles: a lasting value is not an event that fades. A promise
# or a decision keeps its own type (its lifetime is its own).
_SETTLED = frozenset({FactType.EVENT, FactType.STATE, FactType.IDENTITY, FactType.PREFERENCE,
                      FactType.RELATIONSHIP})


# what one does or owns, so that a use of it is a use of the thing ("вышла покурить", "на своей
# Киа"): an ended person or animal named again is mourned or recalled ("похоронили Рыжика")
_USED = frozenset({"habit", "hobby", "vehicle", "device"})


@dataclass(frozen=True, slots=True)
class Held:
    fact: Fact
    value: Value


@dataclass(slots=True)
class Decision:
    """What the new record's values do: records to replace, values to release, conflicts."""

    values: tuple[Value, ...] = ()
    replaces: list[Fact] = field(default_factory=list)            # superseded by the new one
    released: dict[str, list[str]] = field(default_factory=dict)  # fact id -> values it keeps
    carried: list[str] = field(default_factory=list)  # values a replaced record held besides
    contradicts: list[tuple[Fact, Value]] = field(default_factory=list)
    changes: list[dict[str, str]] = field(default_factory=list)   # for the result and blocks

    @property
    def acts(self) -> bool:
        return bool(self.replaces or self.released or self.contradicts)


def held_values(facts: Sequence[Fact], *, ops: tuple[str, ...] = ("set", "add")) -> list[Held]:
    """The values the person's active records hold (set or added, not ended or denied); with
    ``ops=("negate",)`` the values they deny ("алкоголь не пью" denies alcohol)."""
    out = []
    for fact in facts:
        for raw in fact.attributes:
            value = Value.decode(raw)
            if value is not None and value.op in ops and (value.value != ANY or "negate" in ops):
                out.append(Held(fact, value))
    return out


async def read(text: str, held: Sequence[Held]) -> tuple[Value, ...]:
    """The values ``text`` states (the world reader in a worker thread)."""
    reading = (await read_many([as_said(text)]))[0]
    return read_values(text, reading, [h.value for h in held])


async def with_values(facts: Sequence[Fact]) -> list[Fact]:
    """Active records with the attribute values they state (``Fact.attributes``), read in one
    batch (an import); a held record states nothing."""
    texts = [as_said(f.text) if f.status is Status.ACTIVE else "" for f in facts]
    readings = await read_many(texts)
    return [replace(f, attributes=tuple(v.encode() for v in read_values(f.text, r)))
            if f.status is Status.ACTIVE else f for f, r in zip(facts, readings, strict=True)]


_FOUND_OUT = re.compile(r"\b(?:оказалось|выяснилось|обнаружил\w*|turned\s+out|found\s+out|"
                        r"okazało\s+się|wyszło\s+na\s+jaw)\b", re.I)


def finds_out(text: str) -> bool:
    """Whether a statement tells of a value newly found ("оказалось, у меня аллергия на
    киви", "выяснилось", "turned out", "okazało się")."""
    return _FOUND_OUT.search(text) is not None


def marks_change(text: str) -> bool:
    """Whether a statement says something changed or started again ("теперь", "снова",
    "начал", "now", "again", "znowu"): a value taken up again is then no contradiction."""
    from wave_agent.world.attribute_words import CHANGE, RESUME

    return bool(CHANGE.search(text) or RESUME.search(text))


_WORDS = re.compile(r"[\w'’]+|[.!?;]")
_NEGATED = frozenset({"не", "nie", "not", "didn't", "haven't", "hasn't", "never"})
_EN_PAST = frozenset({"been", "had", "did", "done", "was", "were", "drank", "drunk", "ate",
                      "eaten", "smoked", "lived", "owned", "worked", "tried", "touched"})


def _past_verb(word: str) -> bool:
    """Whether a word is a verb in the past: Russian by pymorphy3 ("курила", "брала"), Polish
    by its ending ("paliłam", "piłem"), English by its form ("smoked", "been")."""
    low = word.lower()
    if re.fullmatch(r"[а-яё]+", low):
        from wave_agent.world.morphology import _morph

        return any(p.tag.POS == "VERB" and "past" in p.tag for p in _morph().parse(low))
    return (re.search(r"ł(?:a|o|y|i|em|am|eś|aś|yśmy|iśmy)?$", low) is not None
            or low in _EN_PAST or (low.endswith("ed") and len(low) > 4))


def denies_ever(text: str) -> bool:
    """Whether a statement denies a value for the whole of the past ("я ведь никогда в жизни
    не курила", "в жизни сигарету в руки не брала", "nigdy nie paliłam", "I've never smoked"):
    a word of the whole past ("никогда", "в жизни", "ни разу", "nigdy", "never") and, in the
    same sentence within six words, a negated verb in the past. Against a value a replaced
    record held, that is a contradiction ("курю", then "бросила", then "никогда не курила"),
    where a denial of now ("не курю") is what the ending already said."""
    from wave_agent.world.attribute_words import EVER

    for match in EVER.finditer(text):
        before = _WORDS.findall(text[:match.start()])[-6:]
        after = _WORDS.findall(text[match.end():])[:7]
        if "." in before or "!" in before or "?" in before or ";" in before:
            before = before[max(i for i, w in enumerate(before) if w in ".!?;") + 1:]
        cut = next((i for i, w in enumerate(after) if w in ".!?;"), len(after))
        near = [w.lower() for w in (*before, *([match.group(0)] if match.group(0).lower() == "never" else []), *after[:cut])]
        for i, w in enumerate(near[:-1]):
            if w in _NEGATED and _past_verb(near[i + 1]):
                return True
    return False


def only_again(text: str) -> bool:
    """Whether the only change word a statement says is "again" ("сын опять с соплями", "снова
    заболела"): of children or siblings it says the illness is back, not the child."""
    from wave_agent.world.attribute_words import CHANGE, RESUME

    return bool(RESUME.search(text)) and not CHANGE.search(text)


def tells_news(text: str) -> bool:
    """Whether a statement brings news of a value: a change word ("теперь", "новый"), a move
    ("переехала", "перебрался", "przeprowadziła się"), a new job taken ("устроился в Яндекс",
    "перешёл в «Ростелеком»"), a date it holds from ("с сегодняшнего дня", "с этой недели"); a
    holiday named by "new" ("обещал на Новый год") is a date, not news. Another person's new
    value said with none of them ("Оля ... она же учительница", "мама всю жизнь прожила в
    Калининграде") contradicts the held one."""
    from wave_agent.world import attribute_words as W
    from wave_agent.world.morphology import lemma

    if marks_change(text) or W.SINCE.search(text):
        return True
    words = re.findall(r"\w+", text.lower())
    return W.says_new(text, set(words)) or any(
        w in W.MOVE or w in W.JOINED or lemma(w, "VERB") in W.MOVE or lemma(w, "VERB") in W.JOINED
        for w in words)


def given_first(given: Sequence[str], read_values_: Sequence[Value]) -> tuple[Value, ...]:
    """A model's values (``entity|attribute|value|op``) for their attributes, then the ones
    the offline reader found for the attributes the model left out."""
    told = [v for v in (Value.decode(raw) for raw in given) if v is not None]
    keys = {v.key for v in told}
    return (*told, *(v for v in read_values_ if v.key not in keys))


def about_other_things(values: Sequence[Value], held: Sequence[str]) -> bool:
    """Whether two records that read as opposites state values of different attributes or of
    different holders (a new record's ``values``, an older one's encoded ``held``): then the
    negation in one does not deny the other. False when either states none (the surface check
    stands)."""
    keys = {v.key for v in values}
    theirs = {v.key for v in (Value.decode(raw) for raw in held) if v is not None}
    return bool(keys) and bool(theirs) and not keys & theirs


# a month's number by its stem in any of the three languages (MONTHS lists each language's
# twelve in order)
_MONTH_NUMBER = {stem: n % 12 for n, stem in enumerate(MONTHS)}


def _birthday_parts(said: str) -> tuple[str | None, int | None]:
    """A birthday's day ("14", None when unsaid) and month (0-11, None when unsaid)."""
    low = said.lower()
    day = re.search(r"\b(\d{1,2})\b", low)
    month = next((stem for stem in sorted(MONTHS, key=len, reverse=True)
                  if re.search(rf"\b{stem}", low)), None)
    return (day.group(1).lstrip("0") if day else None), (
        _MONTH_NUMBER[month] if month is not None else None)


def _same_birthday(a: str, b: str) -> bool:
    """Whether two birthdays may be one: the same day of the same month, or one of them says
    only the month ("март", "начало марта") and it is the other's."""
    (day_a, month_a), (day_b, month_b) = _birthday_parts(a), _birthday_parts(b)
    if month_a is None or month_b is None:
        return day_a == day_b if day_a and day_b else same_value(a, b)
    return month_a == month_b and (day_a is None or day_b is None or day_a == day_b)


def decide(values: Sequence[Value], held: Sequence[Held], new_id: str,
           denied: Sequence[Held] = (), *, changed: bool = False,
           at: datetime | None = None, birthday: bool | None = None,
           news: bool | None = None, again: bool = False, found_out: bool = False,
           past: Sequence[Held] = (), ever: bool = False,
           ended: Sequence[Held] = (), moved: bool | None = None) -> Decision:
    """Compare a new record's values with the held ones (``held_values``) and the denied ones
    (``held_values(ops=("negate",))``). ``changed``: the statement marks a change ("теперь",
    "снова", "начал", "уже не"), so a value once denied is taken up again, not contradicted, and
    one of many held values denied ("йогу уже не хочу") is ended, not contradicted. ``at`` and
    ``birthday`` (whether the statement speaks of a birthday, ``says_birthday``): an age moves
    on by the years since the held one was said, and by one more at a birthday; without them,
    by one or two. ``news`` (``tells_news``): False when the statement brings no news of a
    value; someone else's new value is then a contradiction, not a change (nine tuning months:
    each of the six changes of another person's city, role or phone is said with a move, a
    change word or a date; none of the seven contradictions of a city or role is). ``again``
    (``only_again``): the change word is "again" alone, which takes up no denied child or
    sibling ("детей у меня нет", then "сын опять с соплями"). ``found_out`` (``finds_out``):
    the statement tells of a value newly found ("у меня аллергия на арахис, выяснилось"), so
    a value denied before is news, not a contradiction. ``past``: the values replaced records
    held (``held_values`` of the superseded ones); ``ever`` (``denies_ever``): the statement
    denies a value for the whole of the past ("никогда в жизни не курила"), so a value a
    replaced record held is contradicted too (the newest such record), where a denial of now
    ("не курю" after "бросила") passes. ``ended``: the values the person's active records
    end (``held_values(ops=("remove",))``: "бросила курить", "продала Киа"); one of them used
    again in passing, held by no active record and said with no word of a change or news
    ("вышла покурить на балкон", "поеду на своей Киа"), is a contradiction with the newest
    ending, where "снова закурила" is taken up again. ``moved`` (``tells_move``): for another
    person's city, whether the statement brings news of that city; it stands for ``news``
    there when given (a change word of another clause is no move: "мама у себя в Самаре,
    теперь на йогу ходит")."""
    decision = Decision(tuple(values))
    for value in values:
        same_key = [h for h in held if h.value.key == value.key and h.fact.id != new_id]
        if value.op in ("set", "add") and not found_out and (not changed or (
                again and value.attribute in ("child", "sibling"))):
            # a value the person said does not hold ("алкоголь не пью", then "пару бутылок в
            # неделю выпиваю"): both stay, the person is asked
            for h in denied:
                if h.value.key == value.key and h.fact.id != new_id and same_value(
                        h.value.value, value.value) and all(
                        h.fact.id != f.id for f, _ in decision.contradicts):
                    decision.contradicts.append((h.fact, value))
        if value.op in ("set", "add") and value.attribute in _USED and not changed and not (
                found_out or news):
            # a value the graph says ended, used again in passing ("бросила курить", then
            # "вышла покурить на балкон"): which is true? Not when a record still holds it
            over = [h for h in ended if h.value.key == value.key and h.fact.id != new_id
                    and same_value(h.value.value, value.value)]
            if over and not any(same_value(h.value.value, value.value) for h in same_key) and all(
                    v.key != value.key for _, v in decision.contradicts):
                newest = max(over, key=lambda h: h.fact.created_at)
                decision.contradicts.append((newest.fact, value))
        if value.op == "set" and single_valued(value.attribute):
            olds = [h for h in same_key if not same_value(h.value.value, value.value)]
            if value.attribute == "role" and value.entity != USER and held_role.above(value.value):
                # "руководитель у меня Игорь", then "Игорь, начальник мой, ...": one role said by
                # another word for the one above the person, neither a change nor a contradiction
                olds = [h for h in olds if not held_role.above(h.value.value)]
            if value.attribute == "age":
                # an age grows by one a year: a smaller one, or a jump, says another thing; the
                # birthday the graph holds counts when it fell since the held age was said. A
                # word of a change elsewhere in the message ("начала же", "опять забыл
                # сменку") counts as a birthday, no more: an age a year on is moved on, a
                # smaller one or a jump stays another thing
                younger = [h for h in olds if not _plausibly_older(
                    h.value.value, value.value, _years(h.fact, at),
                    True if changed else birthday if birthday is not False else _birthday_since(
                        held, value.entity, h.fact.created_at, at))]
                if len(younger) < len(olds):
                    # one held age leads to the new one ("мне 31", then at the birthday "мне
                    # сегодня 32"): it settles a contradicting one said between ("в свои 28"),
                    # which is replaced with it, not raised again (tuning_8)
                    younger = []
                for h in younger:
                    if all(h.fact.id != f.id for f, _ in decision.contradicts):
                        decision.contradicts.append((h.fact, h.value))
                olds = [h for h in olds if h not in younger]
            elif value.attribute in ("birthday", "birthplace"):
                # a birthday does not move: another one said is a contradiction, whoever's and
                # with whatever words (five months' authors, five of five); the same month
                # said without its day ("в марте" against "14 марта") is no other one. Nor
                # does a birthplace ("родом из Тольятти", then "коренная самарчанка")
                same = _same_birthday if value.attribute == "birthday" else same_place
                for h in olds:
                    if not same(h.value.value, value.value) and all(
                            h.fact.id != f.id for f, _ in decision.contradicts):
                        decision.contradicts.append((h.fact, h.value))
                olds = []
            elif value.attribute == "school":
                # a child's school or class said otherwise is the child moved ("Мишу взяли в
                # гимназию №7", "нашла Соне школу ..., взяли в 1«А»"): 16 changes over the
                # tuning months, none labelled a contradiction; one part unsaid is no other
                olds = [h for h in olds if not school.same_school(h.value.value, value.value)]
            elif value.attribute == "teacher":
                # a new teacher of the same subject replaces the old one ("английский теперь с
                # Джеймсом"; six tuning changes, none a contradiction); another subject's stays
                olds = [h for h in olds if teacher.same_subject(h.value.value, value.value)
                        and not teacher.same_teacher(h.value.value, value.value)]
            elif value.entity != USER and (
                    moved is False if value.attribute == "city" and moved is not None
                    else news is False):
                for h in olds:  # "Оля ... она же учительница" after "Оля, педиатр": which is it?
                    if all(h.fact.id != f.id for f, _ in decision.contradicts):
                        decision.contradicts.append((h.fact, h.value))
                olds = []
            for h in olds:
                _change(decision, h, value, held)
        elif value.op == "remove":
            for h in same_key:
                if same_value(h.value.value, value.value):
                    _change(decision, h, value, held)
        elif value.op == "negate":
            kind = species(value.value) if value.attribute == "pet" else None
            for h in same_key:
                if not same_value(h.value.value, value.value) and not (
                        # a species denied ("у меня никогда не было кошек") meets a held pet
                        # its record says is one ("кот Рыжик"; three tuning months' authors)
                        kind is not None and of_species(h.fact.text, h.value.value, kind)):
                    continue
                if (changed and not again and value.value != ANY
                        and value.attribute in MULTI and not (
                            # "у меня никогда не было кошек ... а теперь Бублик": a species
                            # denied for the whole past is not one pet ended by the "теперь"
                            ever and not same_value(h.value.value, value.value))):
                    # one of many values denied with a word of a change ("на йогу так и не
                    # записалась и уже не хочу", "забросила я йогу, уже не пойду"): it ended,
                    # as a value denied before and taken up with one is no contradiction
                    _change(decision, h, replace(value, op="remove"), held)
                elif all(h.fact.id != f.id for f, _ in decision.contradicts):
                    decision.contradicts.append((h.fact, h.value))
            if ever and (not changed or kind is not None) and not any(
                    v.key == value.key for _, v in decision.contradicts):
                # a record that ends the value says it was held too ("курить надо бросать,
                # пачка в день", then "я в жизни не курила")
                # (only where no replaced record held it: that one states the value itself)
                was = [h for h in past if h.value.key == value.key and h.fact.id != new_id
                       and _held_as(h, value, kind)] or [
                    h for h in ended if h.value.key == value.key and h.fact.id != new_id
                    and _held_as(h, value, kind)]
                if was:  # "курю", "бросила", then "никогда в жизни не курила": which is true?
                    newest = max(was, key=lambda h: h.fact.created_at)
                    decision.contradicts.append((newest.fact, newest.value))
    return decision


def _held_as(h: Held, value: Value, kind: str | None) -> bool:
    """Whether a held value is the one ``value`` denies: the same one, or a pet of the species
    ``kind`` denied ("у меня никогда не было кошек" against "кот Рыжик")."""
    return same_value(h.value.value, value.value) or (
        kind is not None and of_species(h.fact.text, h.value.value, kind))


def _plausibly_older(old: str, new: str, years: int | None = None,
                     birthday: bool | None = None) -> bool:
    """A new age above the held one by no more than time allows: the birthdays that may have
    passed since the held one was said (``_years``), one more when the statement speaks of a birthday ("мне сегодня 33!
    день рождения", "сорок четыре стукнуло"). The five tuning months label a new age said
    in passing, with no birthday, a contradiction (8 of 8: "в мои 36 я всё ещё ...", "Тёме же
    9 лет" two years on within the month) and one said at a birthday a change (5 of 5).
    Without the time or the birthday: one or two years up."""
    try:
        diff = int(new) - int(old)
    except ValueError:
        return True
    if years is None or birthday is None:
        return 0 < diff <= 2
    return 0 < diff <= years + int(birthday)


def _birthday_since(held: Sequence[Held], entity: str, since: datetime,
                    at: datetime | None) -> bool:
    """Whether ``entity``'s birthday, as a held record states it ("Мне 31, день рождения 14
    ноября"), fell after ``since`` (when the held age was said) and by ``at``: then an age one
    up said in passing ("мне 32 🎉 отмечаю в новом городе", "ну всё, мне 30") is the age moved
    on, not a contradiction. A birthday said by its month alone counts when any day of that
    month is in the span. The day the held age was said is not in it (an age said on the
    birthday is already the new one)."""
    if at is None:
        return False
    start, end = since.date(), at.date()
    for h in held:
        if h.value.attribute != "birthday" or h.value.entity != entity or h.value.op != "set":
            continue
        day, month = _birthday_parts(h.value.value)
        if month is None:
            continue
        for year in range(start.year, end.year + 1):
            if day is not None:
                try:
                    days = [date(year, month + 1, int(day))]
                except ValueError:
                    continue
            else:
                days = [date(year, month + 1, 1), date(year, month + 1,
                                                      monthrange(year, month + 1)[1])]
            if days[0] <= end and days[-1] > start:
                return True
    return False


def _years(fact: Fact, at: datetime | None) -> int | None:
    """The birthdays that may have passed between when ``fact`` was said and ``at`` unsaid:
    the whole years, and one more once half a year is over (a birthday nobody mentioned is
    likelier than not by then; "мне 34" in January and "мне 35" in November is not a
    contradiction). None without ``at``."""
    if at is None:
        return None
    days = max(0, (at - fact.created_at).days)
    return int(days // 365.25) + int(days % 365.25 >= 182)


def says_birthday(text: str) -> bool:
    """Whether a statement speaks of a birthday: the one time an age moves on."""
    from wave_agent.world.attribute_words import BIRTHDAY_SAID

    return bool(BIRTHDAY_SAID.search(text))


def _change(decision: Decision, old: Held, value: Value, held: Sequence[Held]) -> None:
    decision.changes.append({"entity": value.entity, "attribute": value.attribute,
                             "old": old.value.value, "new": value.value, "op": value.op,
                             "old_id": old.fact.id, "old_text": old.fact.text})
    # the record may say more that is still true ("Работаю инженером в «СИБУРе», офис в
    # центре"): it is replaced all the same (a stale value must leave the prompt), and the new
    # record carries the values the old one held besides, so they are still held
    changed = {v.key for v in decision.values}
    for h in held:
        if h.fact.id == old.fact.id and h.value.key not in changed:
            encoded = h.value.encode()
            if encoded not in decision.carried:
                decision.carried.append(encoded)
    if all(old.fact.id != f.id for f in decision.replaces):
        decision.replaces.append(old.fact)


_BULLET = re.compile(r"^\s*(?:[-*•–]\s+)?")


async def lines_holding(lines: Sequence[str], change: dict[str, str]) -> list[str]:
    """The lines of a core block that state the value a change replaced: the old record's own
    text, or a line that names the old value and reads as that attribute of that entity
    ("Пользователь живёт в Самаре" for the city Самара; not "Мама живёт в Самаре")."""
    from wave_agent.world.attributes import line_names

    found = []
    old_text = " ".join(change.get("old_text", "").lower().split())
    for line in lines:
        if not line.strip():
            continue
        # a fact is appended to a block as a list item ("- Мне 33"): the item is the record's text
        if " ".join(_BULLET.sub("", line).lower().split()) == old_text:
            found.append(line)
            continue
        if not line_names(line, change["old"]):
            continue
        key = f"{change['entity']}|{change['attribute']}"
        if any(v.key == key and same_value(v.value, change["old"]) and v.op in ("set", "add")
               for v in await read(line, ())):
            found.append(line)
    return found


def settled(fact: Fact, values: Sequence[Value], *, auto_until: datetime | None) -> Fact:
    """The record with its values and the type the first of them gives it; a ``state``'s
    automatic lifetime (``auto_until``) goes with the type it no longer has."""
    fact = replace(fact, attributes=tuple(v.encode() for v in values))
    kept = [v for v in values if v.op in ("set", "add")]
    if not kept or fact.type not in _SETTLED:
        return fact
    kind = record_type(kept[0].attribute)
    until = None if fact.valid_until == auto_until and kind is not FactType.STATE \
        else fact.valid_until
    return replace(fact, type=kind, valid_until=until)


__all__ = [
    "ANY",
    "Decision",
    "Held",
    "about_other_things",
    "decide",
    "given_first",
    "held_values",
    "lines_holding",
    "marks_change",
    "read",
    "settled",
    "tells_move",
    "with_values",
]
