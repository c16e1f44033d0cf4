"""A first guess at a fact's type when the caller gives none (``wave remember TEXT``, imports).

The post-processor's extractor types what it extracts; this covers a person typing a note.
Keyword cues in Russian, Polish and English; ``event`` when nothing matches.

A ``commitment`` decays fast, so only the person's own promise or task is one: "Я обещал
маме позвонить", "Мне надо до пятницы отправить счёт", "I'll send it by Friday". Someone
else's promise ("Сосед сверху залил нам ванную, обещал оплатить ремонт", "Szef obiecał
podwyżkę"), reported speech ("Врач сказал, что надо меньше сидеть") and narrative "надо"
("Надо же", "надо было") are events: they stay findable instead of decaying away. Russian
past tense does not show the person ("обещал" is "I" or "he"), so the words before the cue
decide: a first-person pronoun, or nothing but time words, make it the person's own.

Measured on ``bench/data/types`` (``scripts/bench_types.py``; figures in docs/benchmarks.md).
"""

from __future__ import annotations

import re

from graph.models import FactType

_I = re.IGNORECASE

_DAYS = (r"понедельник\w*|вторник\w*|сред\w*|четверг\w*|пятниц\w*|суббот\w*|воскресень\w*|"
         r"завтр\w*|обеда|вечера|утра|конца|выходных|\d+(?:-?го)?\b")
_DEADLINE_RU = re.compile(rf"\b(?:до|к)\s+(?:{_DAYS})", _I)

# The person's own task or promise (the words before it decide whose it is, see _own_ru).
_TASK_RU = re.compile(
    r"\b(?:по)?обещал[аи]?\b|\bнадо\b|\bнужно\b|\bнеобходимо\b|\bдолж(?:ен|на|ны)\b"
    r"|\bобязательно\b|\bне забыть\b|\bпридётся\b|\bпридется\b", _I)
_ALWAYS_TASK = re.compile(
    r"\b(?:напомни|напомнить мне|дедлайн|remind me|deadline|przypomnij|termin)\b", _I)
_FIRST_PERSON_RU = re.compile(r"\b(?:я|мы)\b", _I)
# "мне надо", "нам нужно": the person, when right before the cue ("залил нам ванную,
# обещал" is someone else's promise).
_DATIVE_RU = re.compile(r"\b(?:мне|нам)\s+(?:\w+\s+)?$", _I)
_TIME_TEXT = """завтра послезавтра сегодня вечером утром срочно обязательно ещё еще
    в во на этой следующей неделе понедельник вторник среду четверг пятницу субботу
    воскресенье тоже также ну и а"""
_TIME_WORDS = frozenset(_TIME_TEXT.split())
_NARRATIVE_RU = re.compile(
    r"\bнадо же\b|\b(?:надо|нужно) было\b|\bсказал[аи]?\b|\bговорит\b|\bсчитает\b"
    r"|\bпосоветовал[аи]?\b|\bобещал[аи]?\b.*\bно\b", _I)
# "Завтра отвезу кота": a first-person future (-у/-ю) opened by a time word.
_FUTURE_RU = re.compile(
    r"^(?:завтра|послезавтра|сегодня|вечером|в (?:понедельник|вторник|среду|четверг|пятницу|"
    r"субботу|воскресенье))\s+[а-яё]+(?:у|ю)\b", _I)
_OWN_FUTURE_RU = re.compile(r"\bя\s+(?:не\s+)?[а-яё]+(?:у|ю)\b", _I)

_TASK_EN = re.compile(
    r"\b(?:i will|i'll|i promised|i need to|i have to|i've got to|i must|i'm going to|"
    r"i am going to|i should|we need to|we have to|we will|we'll)\b", _I)
_REPORTED_EN = re.compile(r"\b(?:said|told me|says|thinks|advised)\b", _I)
_DEADLINE_EN = re.compile(
    r"\bby (?:monday|tuesday|wednesday|thursday|friday|saturday|sunday|tomorrow|tonight|"
    r"the end|next)\b", _I)

_TASK_PL = re.compile(
    r"\b(?:muszę|musimy|obiecał(?:em|am)|obiecaliśmy|zrobię|mam zamiar|powinienem|powinnam|"
    r"trzeba|nie zapomnieć)\b", _I)

_DECISION = re.compile(
    r"\b(?:решили|решил[а]?|решено|договорились|выбрали|выбрал[а]?|остановились на"
    r"|we decided|i decided|decided to|we chose|i chose|we agreed|i picked|we picked"
    r"|postanowi\w+|zdecydowa\w+|wybrali\w*|wybrał\w*|umówiliśmy się)\b", _I)

_STATE = re.compile(
    r"\b(?:устал[аи]?|устаю|болею|болит|болела?|простыл[аи]?|простужен[аы]?|на больничном"
    r"|в отпуске|в командировке|нервничаю|волнуюсь|чувствую|настроение|выспал(?:ся|ась)"
    r"|не высыпаюсь|плохо сплю|температур\w*|на этой неделе|грустно|тревожно|в стрессе"
    r"|i feel|i'm feeling|i am feeling|tired|exhausted|i'm sick|i am sick|i'm ill|a cold"
    r"|headache|nervous|anxious|currently|right now|this week|on (?:a )?(?:business trip|"
    r"holiday|vacation|sick leave)|sleeping badly|stressed"
    r"|zmęczon\w*|chor[ayu]\b|na urlopie|na zwolnieniu|boli mnie|przeziębion\w*"
    r"|w tym tygodniu|denerwuję się)\b", _I)

_IDENTITY = re.compile(
    r"\b(?:меня зовут|я живу в|живу в|я родил(?:ся|ась)|родил(?:ся|ась) в|я работаю|работаю "
    r"(?:в|на|как|\w+ом\b|\w+ем\b)|по профессии|аллерги\w+|вегетариан\w*|веган\w*"
    r"|мне \d+ (?:год|лет)|мой день рождения|я окончил\w*|я закончил\w*"
    r"|я (?:программист|инженер|врач|юрист|учитель|дизайнер|бухгалтер|менеджер|аналитик)\w*"
    r"|my name is|i am called|i live in|i was born|i work (?:as|at|for|in)|allergic|allergy"
    r"|years old|i'm an? (?:software|data|nurse|doctor|teacher|lawyer|engineer|designer|"
    r"developer|student|vegetarian|vegan)|i am an? (?:software|nurse|doctor|teacher|lawyer|"
    r"engineer|designer|developer|student)|my birthday is|i graduated"
    r"|nazywam się|mam na imię|mieszkam w|pracuję (?:jako|w|na)|urodził(?:em|am) się"
    r"|alergi\w+|mam \d+ lat)", _I)

_KIN_RU = (r"(?:жен\w*|муж\w*|сестр\w*|брат\w*|мам\w*|мать|матери|пап\w*|отц\w*|отец|сын\w*|"
           r"доч\w*|друг\w*|подруг\w*|начальни\w*|партн[её]р\w*|коллег\w*|бухгалтер\w*|"
           r"родител\w*|дет\w*|крёстн\w*|крестн\w*|бабушк\w*|дедушк\w*|тёщ\w*|свекр\w*|"
           r"племянни\w*|сосед\w*|шеф\w*|жених\w*|невест\w*|парень|девушк\w*)")
_RELATIONSHIP = re.compile(
    rf"\b(?:мо[йяеи]|моего|моей|моему|моим|моих)\s+(?:\w+\s+)?{_KIN_RU}\b"
    r"|\bу меня (?:есть )?(?:\w+ )?(?:двое|трое|четверо|брат|сестра|сын|дочь|дочка|дети|детей)"
    r"|\bу [А-ЯЁ]\w+ есть\b"
    r"|\bmy (?:\w+ )?(?:wife|husband|sister|brother|mother|mom|mum|father|dad|son|daughter|"
    r"friend|boss|partner|colleague|accountant|parents|kids|children|neighbour|neighbor|"
    r"girlfriend|boyfriend|fiancée?|aunt|uncle|cousin|grandmother|grandfather)\b"
    r"|\bi have (?:a |an |two |three )?(?:younger |older |little |big )?(?:brother|sister|son|"
    r"daughter|kids|children)"
    r"|\b(?:mój|moja|moi|moje|mojego|mojej)\s+(?:\w+\s+)?(?:żon\w*|mąż|męż\w*|siostr\w*|"
    r"brat\w*|mam\w*|tat\w*|syn\w*|córk\w*|przyjaciel\w*|przyjaciółk\w*|szef\w*|partner\w*|"
    r"kolega|koleżank\w*|rodzic\w*|dzieci)", _I)

_PREFERENCE = re.compile(
    r"\b(?:i like|i love|i prefer|i hate|i don't like|i do not like|i enjoy|i can't stand|"
    r"i cannot stand|favourite|favorite|i'm a fan|i am a fan"
    r"|люблю|нравится|нравятся|предпочитаю|ненавижу|любим\w*|обожаю|терпеть не могу"
    r"|по душе|фанат\w*|не выношу"
    r"|lubię|uwielbiam|wolę|nie znoszę|nienawidzę|ulubion\w*)", _I)


# Something that happened: a past-tense verb turns "my boss", "моя бабушка" into an event
# ("Моя бабушка упала и сломала руку", "My boss promised a bonus but never paid it").
_PAST = re.compile(
    r"\b(?![а-яё]*тел[иья]\b|[а-яё]*(?:дел|тел|сил|мал|бел|цел)[аоы]?\b)[а-яё]{2,}"
    r"(?:ил|ал|ял|ел|ыл|ул|ил[аио]|ал[аио]|ял[аио]|ел[аио]|ыл[аио]|ул[аио]|лся|лась|лись)\b"
    r"|\b(?!(?:married|engaged|retired|called|named|based|related|interested|excited|"
    r"tired|exhausted|stressed|worried)\b)[a-z]{3,}ed\b"
    r"|\b(?:fell|broke|went|came|said|told|made|gave|took|bought|sold|left|lost|won|got|"
    r"had|ran|saw|met|paid|sent|brought|wrote|flew|drove)\b"
    r"|\b[a-ząćęłńóśźż]{2,}(?:ł|ła|ło|li|ły)\b", _I)


def _own_ru(text: str, match: re.Match[str]) -> bool:
    """The Russian cue at ``match`` is the person's own: a first-person pronoun before it, or
    nothing but time words ("Завтра надо позвонить", "Обещал маме позвонить")."""
    before = text[:match.start()]
    if _FIRST_PERSON_RU.search(before) or _DATIVE_RU.search(before):
        return True
    words = re.findall(r"[^\W\d_]+", before.lower())
    return all(w in _TIME_WORDS for w in words)


def _commitment(text: str) -> bool:
    if _ALWAYS_TASK.search(text):
        return True
    match = _TASK_RU.search(text)
    if (match is not None and not _NARRATIVE_RU.search(text[:match.end() + 6])
            and _own_ru(text, match)):
        return True
    if _DEADLINE_RU.search(text) and (_OWN_FUTURE_RU.search(text) or (
            re.search(r"^(?:я|мне)\b", text, _I) and match is None)):
        return True
    if _FUTURE_RU.search(text):
        return True
    english = _TASK_EN.search(text)
    if english is not None and not _REPORTED_EN.search(text[:english.start()]):
        return True
    if _DEADLINE_EN.search(text) and re.search(r"\bI\b", text) and not _REPORTED_EN.search(text):
        return True
    return bool(_TASK_PL.search(text))


def guess_type(text: str) -> FactType:
    if _DECISION.search(text):
        return FactType.DECISION
    if _commitment(text):
        return FactType.COMMITMENT
    if _STATE.search(text):
        return FactType.STATE
    if _IDENTITY.search(text):
        return FactType.IDENTITY
    if _PREFERENCE.search(text):
        return FactType.PREFERENCE
    if _RELATIONSHIP.search(text) and not _PAST.search(text):
        return FactType.RELATIONSHIP
    return FactType.EVENT
