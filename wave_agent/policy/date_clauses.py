"""Which clause of a message is the person's own task: for two dates where only one is due.

"концерт в субботу, а в пятницу распечатать билеты", "Катя улетает 14го, обещал вернуть ей
чемодан 12го", "the party is on Saturday but I need to buy the gift by Thursday": the message
names two days, and the verb of each clause says which is the promise. The date reader
(``dates.py``) asks about two different days; when it does, it splits the text into clauses
(``clauses``) and asks ``role`` what each one is:

- ``OWN``: the person's own task or promise, by the form of its verb: an infinitive or an
  imperative ("распечатать", "позвони"), a first-person verb that is not past ("отдам",
  "выезжаем"), a modal predicative ("надо", "нужно", "должен"), a verb of promising with no
  other subject ("обещал"). Russian is read by pymorphy3's tags (already loaded by the typo
  reader), so every form of every verb counts, not a list of words. Polish and English, with
  no morphology shipped: the Polish infinitive's ending "-ć" and the modal verbs (muszę,
  trzeba, powinienem, obiecałem); the English modals after a subject or alone in a note ("I
  need to", "have to", "promised", "I'll");
- ``OWN_FIRST``: ``OWN`` said in the first person or as a promise ("я сказал что отдам",
  "обещал", "muszę", "I need to"): it also answers another person's request;
- ``OTHER``: another person's request or promise ("Рома просил вернуть долг", "she asked me
  to"): a task form whose subject is an animate noun or a third-person pronoun, with no first
  person beside it;
- ``UNKNOWN``: an English clause with none of these and no form of "to be"/"to have" or an
  opening determiner either: without morphology a bare imperative ("marinate Sat night") looks
  like a noun, so the reader keeps asking; except a clause opening with a common errand verb
  ("print the tickets on Friday", ``_EN_ERRANDS``) or holding a deadline word ("by the 22nd"),
  which is ``OWN``, and a single noun beside its date ("party on Saturday"), the ``SCENE``. A Polish note's task is an infinitive ("odebrać")
  far more often than an imperative, so a Polish clause with none is the scene (a Polish
  imperative, "kup", is not seen, a known limit; a first-person verb opening the clause,
  "kupię", "jedziemy", is: its ending -ę / -my);
- ``SCENE``: none of these ("у Макса свадьба 20 июня", "рейс в 14:20", "mam wizytę", "он до
  восьми работает"): an event, or another person's doing, that only sets the scene; and a
  clause in the past tense with a word that looks back and no task form of its own ("обещала
  ещё в июле", "promised back in July", "obiecałam już w lipcu"): when the promise was made.

The reader keeps the dated ``OWN`` clauses and drops the others' dates when every other dated
clause is ``SCENE`` (or ``OTHER`` and the own clause is ``OWN_FIRST``); when both clauses are
the person's own, or neither is, it keeps asking.
"""

from __future__ import annotations

import re
from enum import Enum

from wave_agent.policy.date_typos import morph as _morph


class Role(Enum):
    UNKNOWN = "unknown"
    SCENE = "scene"
    OTHER = "other"
    OWN = "own"
    OWN_FIRST = "own_first"


# a clause ends at punctuation, a dash between spaces, or a contrasting conjunction
_BOUNDARY = re.compile(r"[,;:!?.](?=\s|$)|\s-\s|(?<!\S)(?:а|но|однако|зато|ale|lecz|but|whereas)"
                       r"(?=\s)|(?<=\S )(?=(?:потому что|так как|ибо|bo|ponieważ|gdyż|because)\s)")
_WORD = re.compile(r"[а-я]+(?:-[а-я]+)?|[a-ząćęłńóśźż']+")

# Russian: modal predicatives (a closed grammatical class) and verbs that make a promise
_RU_MODALS = frozenset({"надо", "нужно", "необходимо", "должный", "обязан", "обязанный"})
_RU_PROMISE = frozenset({"обещать", "пообещать", "договориться", "обязаться"})

_PL_FIRST = re.compile(r"\b(?:muszę|musimy|powinienem|powinnam|powinniśmy|obiecał(?:em|am|iśmy|yśmy)"
                       r"|ja|my|zrobię|oddam|odbiorę|kupię)\b")
# the modals, the infinitive's "-ć", and the imperatives of common errands ("wydrukuj",
# "kup", "zadzwoń"): a Polish imperative has no one ending to tell it from a noun ("maj",
# "dzień"), so these are listed
_PL_OWN = re.compile(r"\b(?:trzeba|należy|musisz|obieca\w*)\b|\b\w{2,}ć\b|\b(?:kup|weź|zadzwoń|"
                     r"wyślij|odbierz|oddaj|zamów|wydrukuj|przynieś|zanieś|zawieź|napisz|sprawdź|"
                     r"przypomnij|umów|zarezerwuj|odwołaj|przedłuż|podlej|nakarm|posprzątaj|"
                     r"ugotuj|upiecz|spakuj|zrób|załatw|odwieź|przywieź|podrzuć|zapłać|opłać)\b")
_PL_OTHER = re.compile(r"\b(?:on|ona|oni|one)\b|\b(?:prosi|kaza|chcia)(?:ł|ła|li|ły)\b|\bchce\b")
# "I need to", "we leave at 11", "I'd call": a first-person verb other than "to be"/"to have"
_EN_FIRST = re.compile(r"\b(?:i|we)(?:'ll|'d|'m going to|'ve got to| am going to|"
                       r" have (?:got )?to)\b|\b(?:i|we) (?!(?:am|was|were|have|had|has|'m)\b)"
                       r"[a-z]+|\bpromised\b")
_EN_OWN = re.compile(r"\b(?:need to|have to|has to|must|promised|promise to|gotta|got to|"
                     r"remember to|don't forget to|supposed to)\b")
# the same, for Polish typed without diacritics ("musze odebrac", "obiecalem"): the infinitive
# then ends in a plain "-c" after a vowel or "s"/"z" ("odebrac", "isc"; "noc" and "pomoc" do not)
_FOLD_PL = str.maketrans("ąćęłńóśźż", "acelnoszz")
_PL_FIRST_PLAIN = re.compile(_PL_FIRST.pattern.translate(_FOLD_PL))
_PL_OWN_PLAIN = re.compile(_PL_OWN.pattern.translate(_FOLD_PL).replace(
    r"\b\w{2,}c\b", r"\b\w{2,}(?:ac|ec|ic|yc|uc|sc|zc)\b"))
_PL_OTHER_PLAIN = re.compile(_PL_OTHER.pattern.translate(_FOLD_PL))
_POLISH = re.compile(r"[ąćęłńóśźż]|\b(?:w|z|ze|na|się|sie|jest|oraz|nie|mam|jutro|dzis|dzisiaj|"
                     r"pojutrze|rano|wieczorem|stycznia|lutego|marca|kwietnia|maja|czerwca|"
                     r"lipca|sierpnia|wrzesnia|pazdziernika|listopada|grudnia)\b")
# a clause opening with a determiner or a possessive is a noun phrase, not an imperative
_EN_STATED = re.compile(r"\b(?:is|are|was|were|be|has|have|had)\b|'s\b|'re\b"
                        r"|^\s*(?:the|a|an|my|his|her|our|their|your)\b")
# the verbs of errands people write as bare imperatives in a to-do ("print the tickets on
# Friday", "buy a gift Thursday"): a clause opening with one is the writer's own task
_EN_ERRANDS = frozenset({
    "call", "ring", "phone", "text", "email", "message", "write", "send", "post", "mail",
    "reply", "answer", "ask", "tell", "remind", "invite", "buy", "get", "order", "pick",
    "collect", "fetch", "grab", "bring", "take", "drop", "deliver", "return", "give", "lend",
    "pay", "transfer", "book", "reserve", "schedule", "cancel", "confirm", "renew", "register",
    "sign", "fill", "file", "submit", "print", "scan", "copy", "finish", "start", "prepare",
    "plan", "organise", "organize", "check", "review", "read", "fix", "repair", "clean",
    "wash", "tidy", "pack", "unpack", "cook", "bake", "make", "feed", "walk", "water",
    "charge", "visit", "meet", "see", "help", "drive", "move", "carry", "install", "update",
    "upload", "download", "back", "top",
})
_EN_LEAD = frozenset({"and", "then", "also", "please", "pls", "just", "so", "must", "gotta"})
_EN_OTHER = re.compile(r"\b(?:he|she|they)\b|\b(?:asked|wants|told) (?:me|us) to\b|"
                       r"^\W*it (?!is\b|'s\b)\w+s\b")   # "it expires": a thing's state


# short forms whose dot is not a sentence's end: weekdays, months, "godz.", "ok.", "след."
_ABBREVIATION = re.compile(r"(?<![^\W\d_])(?:pon|wt|śr|sr|czw|pt|sob|niedz|ndz|nd|mon|tue|tues|wed|"
                           r"weds|thu|thur|thurs|fri|sat|sun|jan|feb|mar|apr|jun|jul|aug|sep|sept|"
                           r"oct|nov|dec|sty|lut|kwi|cze|lip|sierp|wrz|paź|paz|lis|gru|godz|ok|np|"
                           r"ul|tel|пн|вт|ср|чт|пт|сб|вс|янв|фев|апр|авг|сент|окт|нояб|дек|след|"
                           r"ч|мин|ул|тел|a\.m|p\.m)$")


def clauses(text: str) -> list[tuple[int, int]]:
    """Where each clause of a normalised text lies, boundaries left out."""
    out: list[tuple[int, int]] = []
    start = 0
    for m in _BOUNDARY.finditer(text):
        if m.group(0) == "." and _ABBREVIATION.search(text[:m.start()]):
            continue   # "w pt. obiecałem", "след. неделе": the dot of a short form
        if text[start:m.start()].strip():
            out.append((start, m.start()))
        start = m.end()
    if text[start:].strip():
        out.append((start, len(text)))
    return out


def language(text: str) -> str:
    """"ru", "pl" or "en": the message's language, by its letters and its small words."""
    if re.search(r"[а-я]", text):
        return "ru"
    if _POLISH.search(text) or _PL_OWN.search(text) or _PL_FIRST.search(text):
        return "pl"
    return "en"


# a clause that gives a reason ("bo w sobotę już odeślą", "because they charge on the 3rd",
# "а то утром всё разберут"): its date is why, never when; the text before the clause is read
# with it, for "а то" (the "а" ends the clause before)
_REASON = re.compile(r"(?:^|(?<=\sа )|(?<=^а ))\s*(?:потому что|так как|ибо|а то|то|бо|bo|ponieważ|"
                     r"gdyż|because|'cause|since)\s")


def gives_reason(before: str, clause: str) -> bool:
    """True when ``clause`` opens with a reason's conjunction; ``before`` is the text before
    it (a clause after "а" opening with "то" is "а то": "or else")."""
    opening = clause.lstrip()
    if re.match(r"(?:потому что|так как|ибо|бо|bo|ponieważ|gdyż|because|'cause|since)\s",
                opening):
        return True
    return opening.startswith("то ") and bool(re.search(r"(?:^|\s)а\s*$", before))


# a clause that draws a consequence ("значит в пн не ужинать поздно", "so no coffee on
# Monday", "więc w poniedziałek nie jeść") or a past-tense relative clause about a thing
# ("которую он мне ещё летом давал", "którą mi pożyczył w lipcu", "which he lent me in June"):
# its date is not the task's when the rest is the person's own task with its own date
_CONSEQUENCE = re.compile(r"(?:значит|то есть|следовательно|więc|zatem|czyli|so|therefore)\s")
_RELATIVE = re.compile(r"(?:котор\w+|któr\w+|which|that|who)\s")


def only_beside(clause: str, lang: str) -> bool:
    """True when ``clause`` draws a consequence or is a relative clause in the past tense."""
    opening = clause.lstrip()
    if _CONSEQUENCE.match(opening):
        return True
    if not _RELATIVE.match(opening):
        return False
    if lang == "ru":
        morph = _morph()
        return any("past" in morph.parse(word)[0].tag for word in _WORD.findall(opening))
    if lang == "pl":
        return bool(re.search(r"\b\w{2,}(?:ł|ła|ło|li|ły)(?:em|am|eś|aś)?\b", opening))
    return bool(re.search(r"\b(?:gave|lent|sent|bought|told|showed|brought|\w{3,}ed)\b",
                          opening))


# a request to the assistant with its own time ("разбуди меня в 6", "remind me at 5"): the
# person's own say about when, over any event's time
REQUEST = re.compile(r"(?<!\w)(?:напомни\w*|разбуди\w*|przypomnij\w*|obudź\w*|obudz\w*|"
                     r"remind me|wake me)(?!\w)")


def about_another(clause: str, lang: str) -> bool:
    """True when the clause's subject is someone or something else and the person has no task
    in it: "она на даче до воскресенья", "they charge on the 3rd", "teść przyjeżdża"."""
    if lang == "ru":
        morph = _morph()
        other = speaker = False
        for word in _WORD.findall(clause):
            tag = morph.parse(word)[0].tag
            if tag.POS == "NPRO":
                speaker = speaker or "1per" in tag
                other = other or ("3per" in tag and "nomn" in tag)
            elif tag.POS == "NOUN" and "anim" in tag and "nomn" in tag:
                other = True
            elif tag.POS in ("INFN", "VERB") and ("1per" in tag or "impr" in tag
                                                 or tag.POS == "INFN"):
                speaker = True
        return other and not speaker
    pattern = _PL_OTHER if lang == "pl" else _EN_OTHER
    return bool(pattern.search(clause)) and role(clause, lang) is Role.SCENE


def role(clause: str, lang: str | None = None, undated: str | None = None) -> Role:
    """What a clause is to the person who wrote it (see the module docstring); ``lang`` is the
    whole message's language (a short clause may have no telling word of its own), ``undated``
    the clause with its date words blanked (NUL or spaces), where a Polish clause's verb opens."""
    lang = lang or language(clause)
    if looks_back(clause, lang):
        return Role.SCENE
    if lang == "ru":
        return _role_ru(clause)
    if lang == "pl":
        first, own, other = (bool(_PL_FIRST.search(clause)) or _pl_opens_first(undated or clause),
                             bool(_PL_OWN.search(clause)), bool(_PL_OTHER.search(clause)))
        # typed without diacritics ("musze odebrac"): the date words were put right already,
        # the verbs were not; read with their date words blanked
        plain = (undated or clause).replace("\0", " ")
        first = first or bool(_PL_FIRST_PLAIN.search(plain))
        own = own or bool(_PL_OWN_PLAIN.search(plain))
        other = other or bool(_PL_OTHER_PLAIN.search(plain))
        stated = True   # a Polish task is an infinitive or a modal (see the docstring)
    else:
        first, own, other = (bool(_EN_FIRST.search(clause)), bool(_EN_OWN.search(clause)),
                             bool(_EN_OTHER.search(clause)))
        stated = bool(_EN_STATED.search(clause))
    found = _decide(first, first or own, other)
    # no morphology here to tell an imperative ("marinate Sat night") from a noun: a clause is
    # the scene only when a form of "to be"/"to have" or another's subject says it is stated
    if found is Role.SCENE and not (stated or other):
        # "order flowers by the 22nd": a deadline belongs to a task, never to an event
        if lang == "en" and re.search(r"\b(?:by|before|until|till|no later than)\b", clause):
            return Role.OWN
        words = [x for x in re.findall(r"[a-z']+", (undated or clause).replace("\0", " "))
                 if x not in _EN_LEAD]
        if lang == "en" and words and words[0] in _EN_ERRANDS:
            return Role.OWN       # "print the tickets on Friday": an errand's imperative
        if lang == "en" and len(words) == 1:
            return Role.SCENE     # "party on Saturday", "flight on the 20th": an event
        return Role.UNKNOWN
    return found


_PL_LEAD = frozenset({"a", "i", "ale", "że", "to", "ja", "my", "więc", "potem", "też", "jeszcze"})


def _pl_opens_first(text: str) -> bool:
    """"w piątek kupię jej prezent", "jedziemy w sobotę": a clause opening (after its date,
    a conjunction or a pronoun) with a word in -ę or -my opens with a first-person verb; a noun
    in -ę stands after its verb or preposition ("mam wizytę", "w środę")."""
    words = [x for x in re.findall(r"[a-ząćęłńóśźż]+", text.replace("\0", " "))
             if x not in _PL_LEAD]
    return bool(words) and len(words[0]) >= 5 and words[0].endswith(("ę", "my"))


def _decide(first: bool, own: bool, other: bool) -> Role:
    if other and not first:
        # "Рома просил вернуть долг": another's request; "он до восьми работает": the scene
        return Role.OTHER if own else Role.SCENE
    if first:
        return Role.OWN_FIRST
    return Role.OWN if own else Role.SCENE


# "обещала ещё в июле", "promised back in July", "obiecałam już w lipcu": a past verb with a
# word that looks back says when something was done, not when it is due
_LOOKING_BACK = re.compile(r"(?<!\w)(?:еще|уже|давно|тогда|back|already|ago|jeszcze|już|dawno)"
                           r"(?!\w)")
_EN_PAST = re.compile(r"\b(?:promised|said|told|agreed|asked|did|was|were|\w{3,}ed)\b")
_PL_PAST = re.compile(r"\b\w{2,}(?:łem|łam|łeś|łaś|liśmy|łyśmy|ł|ła|li|ły)\b")


def looks_back(clause: str, lang: str) -> bool:
    """A clause in the past tense with a word that looks back ("обещала ещё в июле") and no
    task form of its own: the date in it is when something happened."""
    if not _LOOKING_BACK.search(clause):
        return False
    if lang == "ru":
        morph = _morph()
        tags = [morph.parse(x)[0].tag for x in _WORD.findall(clause)]
        past = any(t.POS == "VERB" and "past" in t for t in tags)
        task = any(t.POS == "INFN" or (t.POS == "VERB" and ("impr" in t or (
            "1per" in t and "past" not in t))) for t in tags)
        modal = any(x in _RU_MODALS for x in _WORD.findall(clause))
        return past and not task and not modal
    if lang == "pl":
        return bool(_PL_PAST.search(clause)) and not re.search(r"\b\w{2,}ć\b|\b(?:muszę|"
                                                                r"trzeba|musimy)\b", clause)
    return bool(_EN_PAST.search(clause)) and not _EN_OWN.search(
        re.sub(r"\bpromised\b", "", clause)) and not re.search(r"\bto \w+", clause)


def _role_ru(clause: str) -> Role:
    morph = _morph()
    speaker = first = own = other = modal = False
    for word in _WORD.findall(clause):
        parse = morph.parse(word)[0]
        tag, lemma = parse.tag, parse.normal_form
        if tag.POS == "NPRO":
            speaker = speaker or "1per" in tag       # "я", "мне", "мы"
            other = other or ("3per" in tag and "nomn" in tag)   # "он", "она"
        elif tag.POS == "NOUN" and "anim" in tag and "nomn" in tag:
            other = True                              # "Рома просил", "мама хочет"
        elif tag.POS == "VERB" and "1per" in tag and "past" not in tag:
            speaker = first = True                    # "отдам", "выезжаем"
        elif tag.POS == "VERB" and lemma in _RU_PROMISE:
            own = first = True                        # "обещал": a promise
        elif lemma in _RU_MODALS or word in _RU_MODALS:
            own = modal = True                        # "надо", "нужно", "должен"
        elif tag.POS == "INFN" or (tag.POS == "VERB" and "impr" in tag):
            own = True                                # "распечатать", "позвони"
    if other and not speaker:
        return Role.OTHER if own or first else Role.SCENE
    # "надо до четверга успеть": an impersonal modal with no one else named is the speaker's
    # own need, said as plainly as "мне надо"
    return _decide(first or (speaker and own) or modal, first or own, False)
