"""The person's relatives: who "сын", "moja żona" and "my brother" are (pure, no I/O).

People name their relatives by role far more often than by name when they ask: "что я обещал
сыну?", "чем болела дочь?". A semantic model cannot know that the son is Igor; the memory can,
from the record that said so: "Сыну Игорю девять лет", "Мой старший брат Олег живёт в Казани",
"Мама, Людмила Петровна, живёт одна", "Nasz syn Kuba", "My wife, Anna, ...".

- ``relatives(text)``: the (role, name) pairs a record states about the person's own family.
  A role counts when it is the person's: after a possessive ("мой", "наша", "mój", "my"), or
  opening a sentence with the name next to it ("Сыну Игорю", "Córka Zosia", "Мама, Людмила
  Петровна,"). Someone else's relative is not the person's: "У Олега и Алсу сын Тимур" (no
  possessive, mid-sentence), "Сестра Марины, Катя" (Russian: the name is in another case),
  "Жену Олега зовут Алсу" / "Żona Marka ma na imię Ola" (a naming sentence names the other).
  Russian names are brought to the nominative (pymorphy3: "Игорю" -> "Игорь").
- ``roles_asked(query)``: the roles a question asks about by role alone ("сыну"; not "жену
  Олега", where the name is already there).
- ``role_words(role)``: the words of a role in every language, the alias a relative's entity
  carries (``alias``) among them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

# role -> (Russian lemmas, Polish forms, English forms); the first Russian lemma is the alias
# stored on a Russian-named relative, the first Polish / English form likewise.
_ROLES: dict[str, tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]] = {
    "son": (("сын", "сынок", "сыночек"),
            ("syn", "syna", "synowi", "synem", "synu", "synek", "synka", "synkowi"), ("son",)),
    "daughter": (("дочь", "дочка", "дочурка", "доченька"),
                 ("córka", "córki", "córce", "córkę", "córką", "córko", "córeczka", "córeczki",
                  "córeczce", "córeczkę"), ("daughter",)),
    "wife": (("жена", "супруга"), ("żona", "żony", "żonie", "żonę", "żoną", "żono"), ("wife",)),
    "husband": (("муж", "супруг"), ("mąż", "męża", "mężowi", "mężem", "mężu"), ("husband",)),
    "brother": (("брат", "братик", "братишка"), ("brat", "brata", "bratu", "bratem", "bracie"), ("brother",)),
    "sister": (("сестра", "сестрёнка", "сестренка", "сеструха"),
               ("siostra", "siostry", "siostrze", "siostrę", "siostrą"), ("sister",)),
    "mother": (("мама", "мать", "мамочка", "мамуля"),
               ("mama", "mamy", "mamie", "mamę", "mamą", "mamo", "matka", "matki", "matce",
                "matkę"), ("mom", "mum", "mother")),
    "father": (("папа", "отец", "батя"),
               ("tata", "taty", "tacie", "tatę", "tatą", "tato", "ojciec", "ojca", "ojcu"),
               ("dad", "father")),
    "father-in-law": (("тесть", "свёкор", "свекор"), ("teść", "teścia", "teściowi"),
                      ("father-in-law",)),
    "mother-in-law": (("тёща", "теща", "свекровь"), ("teściowa", "teściowej", "teściową"),
                      ("mother-in-law",)),
    "son-in-law": (("зять",), ("zięć", "zięcia", "zięciowi", "zięciem"), ("son-in-law",)),
    "daughter-in-law": (("невестка", "сноха"), ("synowa", "synowej", "synową"),
                        ("daughter-in-law",)),
    "sister-in-law": (("золовка", "свояченица"), ("szwagierka", "szwagierki", "szwagierkę",
                                                 "szwagierką"), ("sister-in-law",)),
    "brother-in-law": (("шурин", "деверь", "свояк"), ("szwagier", "szwagra", "szwagrowi",
                                                     "szwagrem"), ("brother-in-law",)),
    "grandmother": (("бабушка",), ("babcia", "babci", "babcię", "babcią"), ("grandma", "grandmother")),
    "grandfather": (("дедушка", "дед"), ("dziadek", "dziadka", "dziadkowi"), ("grandpa", "grandfather")),
    "nephew": (("племянник",), ("bratanek", "siostrzeniec"), ("nephew",)),
    "niece": (("племянница",), ("bratanica", "siostrzenica"), ("niece",)),
}

_RU_LEMMA = {lemma: role for role, (ru, _, _) in _ROLES.items() for lemma in ru}
_FEMININE = {"супруг": "wife"}  # a lemma pymorphy gives both partners, told apart by gender
_FORM = {form: role for role, (_, pl, en) in _ROLES.items() for form in (*pl, *en)}

_POSSESSIVES = frozenset((
    "мой", "моя", "моё", "мое", "мои", "моего", "моей", "моему", "мою", "моим", "моими", "моих",
    "наш", "наша", "наше", "наши", "нашего", "нашей", "нашему", "нашу", "нашим", "нашими", "наших",
    "mój", "moja", "moje", "mojego", "mojej", "mojemu", "moją", "moim", "nasz", "nasza", "nasze",
    "naszego", "naszej", "naszemu", "naszą", "naszym", "my", "our",
))

# A sentence that names someone ("Жену Олега зовут Алсу", "Żona Marka ma na imię Ola") names
# the other person's relative: the capitalised word after the role is whose she is.
_NAMING = re.compile(r"\b(зовут|звали|ma na imię|nazywa się|is called|is named|named)\b",
                     re.IGNORECASE)
_TOKEN = re.compile(r"[^\W\d_]+(?:-[^\W\d_]+)*|[.!?;:]|,", re.UNICODE)
_CAPITALISED = re.compile(r"^[^\W\d_]+(?:-[^\W\d_]+)*$", re.UNICODE)  # "Анна-Мария"
_CYRILLIC = re.compile(r"[\u0400-\u04ff]")


@dataclass(frozen=True, slots=True)
class Relative:
    role: str   # "son", "mother-in-law", ...
    name: str   # as the person's entity is called: "Игорь", "Людмила Петровна", "Kuba"
    alias: str  # the role word the entity carries: "сын", "syn", "son"


@lru_cache(maxsize=1)
def _morph() -> Any:
    import pymorphy3

    return pymorphy3.MorphAnalyzer(lang="ru")


def _ru_parses(word: str) -> list[Any]:
    return list(_morph().parse(word.lower()))


# The first two letters of every Russian role word's forms ("отца", "свёкра", "дочери"):
# a word starting otherwise is not parsed at all (recall asks of every candidate's words).
_RU_STARTS = frozenset(
    w.replace("ё", "е")[:2] for w in (*_RU_LEMMA, "отц", "матер", "дочер", "свекр"))


@lru_cache(maxsize=65_536)
def role_of(word: str) -> str | None:
    """The role a word names ("сыну" -> "son", "żonie" -> "wife"), or None."""
    lowered = word.lower()
    if _CYRILLIC.search(lowered):
        if lowered.replace("ё", "е")[:2] not in _RU_STARTS:
            return None
        for parse in _ru_parses(lowered):
            if parse.tag.POS == "NOUN" and parse.normal_form in _RU_LEMMA:
                if parse.normal_form in _FEMININE and parse.tag.gender == "femn":
                    return _FEMININE[parse.normal_form]  # pymorphy's "супруга" is "супруг"'s
                return _RU_LEMMA[parse.normal_form]
        return None
    return _FORM.get(lowered)


def role_name(role: str, lang: str) -> str:
    """A kin role as a word of ``lang`` (ru, pl, en): "sister" -> "сестра", "siostra"; an
    unknown role is itself."""
    if role not in _ROLES:
        return role
    ru, pl, en = _ROLES[role]
    return {"ru": ru, "pl": pl}.get(lang, en)[0]


def role_words(role: str) -> tuple[str, ...]:
    ru, pl, en = _ROLES[role]
    return (*ru, *pl, *en)


def _alias(role: str, word: str) -> str:
    ru, pl, en = _ROLES[role]
    if _CYRILLIC.search(word):
        return ru[0]
    return pl[0] if word.lower() in pl else en[0]


def _is_name(token: str) -> bool:
    return bool(_CAPITALISED.match(token)) and token[0].isupper() and len(token) > 1


def _cases(word: str, *, names: bool) -> set[str]:
    """The grammatical cases a Russian word can be in, in the singular (a relative is one
    person), as a name or as any noun."""
    found = set()
    for parse in _ru_parses(word):
        if names and not ({"Name", "Surn", "Patr"} & parse.tag.grammemes):
            continue
        if parse.tag.number == "plur":
            continue
        if parse.tag.case:
            found.add(parse.tag.case)
    return found


def _patronymic(word: str) -> bool:
    return bool(_CYRILLIC.search(word)) and any(
        "Patr" in parse.tag.grammemes for parse in _ru_parses(word))


def _nominative(word: str, cases: set[str] | None = None, gender: str | None = None) -> str:
    """A Russian name in the nominative ("Игорю" -> "Игорь"); other words as written. With
    ``cases`` (the role word's: "сестра" is nominative), the name's reading in one of them
    wins: "сестра Дина" is Дина, not the genitive of Дин; with ``gender`` (the role's:
    "сестре" is feminine) too: "сестре Дине" is Дина."""
    if not _CYRILLIC.search(word):
        return word
    if "-" in word:  # "Анне-Марии" -> "Анна-Мария"
        return "-".join(_nominative(part, cases, gender) for part in word.split("-"))
    named = [p for p in _ru_parses(word) if {"Name", "Surn", "Patr"} & p.tag.grammemes]
    agreeing = [p for p in named if cases and p.tag.case in cases] or named
    agreeing = [p for p in agreeing if gender and p.tag.gender == gender] or agreeing
    for parse in agreeing:
        if parse.tag.case == "nomn" and parse.tag.number != "plur":
            return word.capitalize()
        inflected = parse.inflect({"nomn"})
        if inflected is not None:
            return str(inflected.word).capitalize()
    return word


def relatives(text: str) -> list[Relative]:
    """The person's relatives the text names with their role, in order (see the module)."""
    tokens = _TOKEN.findall(text)
    naming = bool(_NAMING.search(text))
    found: list[Relative] = []
    for i, token in enumerate(tokens):
        role = role_of(token)
        if role is None:
            continue
        before = [t.lower() for t in tokens[max(0, i - 2):i]]
        possessive = bool(before) and (before[-1] in _POSSESSIVES or (
            len(before) == 2 and before[0] in _POSSESSIVES and before[1] not in ",.!?;:"))
        opens = i == 0 or tokens[i - 1] in {".", "!", "?", ";", ":"}
        if not (possessive or opens):
            continue  # "У Олега и Алсу сын Тимур": someone else's
        j = i + 1
        comma = j < len(tokens) and tokens[j] == ","
        if comma:
            j += 1
        if j >= len(tokens) or not _is_name(tokens[j]):
            continue
        parts = [tokens[j]]
        if j + 1 < len(tokens) and _is_name(tokens[j + 1]) and (
                comma or _patronymic(tokens[j + 1])):
            parts.append(tokens[j + 1])  # "Людмила Петровна", "Николай Андреевич"
        if not comma and naming:
            continue  # "Жену Олега зовут Алсу": Oleg's wife
        if not comma and _CYRILLIC.search(token):
            # "Сыну Игорю" (both dative) is the son; "Сестра Марины" (genitive) is Marina's
            roles = _cases(token, names=False)
            if roles and not roles & _cases(parts[0], names=True):
                continue
        cases = _cases(token, names=False) if _CYRILLIC.search(token) else set()
        genders = {p.tag.gender for p in _ru_parses(token) if p.tag.POS == "NOUN"
                   and p.normal_form in _RU_LEMMA} if _CYRILLIC.search(token) else set()
        gender = next(iter(genders)) if len(genders) == 1 else None
        name = " ".join(_nominative(p, cases, gender) for p in parts)
        relative = Relative(role, name, _alias(role, token))
        if relative not in found:
            found.append(relative)
    return found


def roles_asked(query: str) -> list[str]:
    """The roles a question names by role alone ("что я обещал сыну?" -> ["son"]); a role
    followed by a name ("жену Олега", "сыну Игорю") names someone already."""
    tokens = _TOKEN.findall(query)
    asked: list[str] = []
    for i, token in enumerate(tokens):
        role = role_of(token)
        if role is None or role in asked:
            continue
        if i + 1 < len(tokens) and _is_name(tokens[i + 1]):
            continue
        asked.append(role)
    return asked


def without_named_roles(text: str) -> str:
    """The text without the role words a name follows ("жену Олега", "сыну Игорю"): what is
    left spots the person's relatives by role only where a role stands alone."""
    tokens = _TOKEN.findall(text)
    named = {t for i, t in enumerate(tokens[:-1]) if role_of(t) is not None
             and _is_name(tokens[i + 1])}
    if not named:
        return text
    return re.sub(r"[^\W\d_]+", lambda m: " " if m.group() in named else m.group(), text)


def expand(query: str, names: list[str]) -> str:
    """The query with the names of the relatives it asks about: "что я обещал сыну? (Игорь)"."""
    return f"{query} ({', '.join(names)})" if names else query


# Who a sentence is about. "на что у меня аллергия?" asks about the person; "У Сони аллергия
# на арахис" is about Sonya, however alike in meaning. Possessives do not count as the person:
# "Моя жена Марина работает бухгалтером" is about Marina.
_FIRST_PERSON = frozenset((
    "я", "меня", "мне", "мной", "мною", "ja", "mnie", "mi", "mną", "i", "me", "myself",
))


def _tokens(text: str) -> list[str]:
    return _TOKEN.findall(text)


def _first_person(tokens: list[str]) -> bool:
    """Says "я" / "мне" / "me". Polish usually drops the pronoun ("jestem uczulony",
    "dotrzymałem"); reading the verb's person was tried and left out: without a Polish
    dictionary a name opening a sentence ("Zosia ma alergię") is not seen as a name, so the
    rule only demoted the records of a question about a promise to the son."""
    return any(token.lower() in _FIRST_PERSON for token in tokens)


@lru_cache(maxsize=65_536)
def _first_name(token: str) -> bool:
    return any("Name" in parse.tag.grammemes for parse in _ru_parses(token))


def _names_a_person(tokens: list[str]) -> bool:
    """A person named in the tokens: a role ("мама", "syn"), or a capitalised first name
    (Russian: a name by pymorphy3, wherever it stands; Latin script: capitalised mid-sentence,
    where only names are)."""
    for i, token in enumerate(tokens):
        if role_of(token) is not None:
            return True
        if not _is_name(token):
            continue
        if _CYRILLIC.search(token):
            # first names only: a surname is as often a street ("на Ленина")
            if _first_name(token):
                return True
        elif i > 0 and tokens[i - 1] not in {".", "!", "?", ";", ":"} and token != "I":
            return True
    return False


def asks_about_self(query: str) -> bool:
    """The question asks about the person themself: it says "я" / "мне" / "me" and names no
    one else ("на что у меня аллергия?"; not "что я обещал сыну?", "что я подарил Марине?")."""
    tokens = _tokens(query)
    return _first_person(tokens) and not _names_a_person(tokens)


@lru_cache(maxsize=65_536)
def about_someone_else(text: str) -> bool:
    """The record is about someone other than the person: it names someone and never says
    "я" / "мне" / "me" ("У Сони аллергия на арахис"; not "Врач сказал, что пенициллин мне
    нельзя", not "Я купил Марине цветы")."""
    tokens = _tokens(text)
    return not _first_person(tokens) and _names_a_person(tokens)
