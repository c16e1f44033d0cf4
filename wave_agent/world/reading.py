"""What reading one statement gives: mentions (entities by canonical name) and links (typed,
directed relations between mentions, or from the person themself, ``USER``). Plain data."""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace

from graph import kin
from graph.models import EntityType

USER = "user"          # the person speaking, as the source or target of a link
ROLE_PREFIX = "role:"  # a link end named only by a kin role ("муж"): the writer finds who it is

# Link types, as the entity set labels them; ``kin:<role>`` means "target is source's <role>".
LINK_TYPES = frozenset({"lives_in", "works_at", "works_as", "studies_at", "member_of",
                        "friend_of", "owns", "pet_of", "part_of", "has_condition", "does"})


@dataclass(frozen=True, slots=True)
class Mention:
    """An entity a statement names: canonical name (nominative, as usually called), type, and
    the other ways this statement refers to it (a role word, the inflected form)."""

    name: str
    type: EntityType
    aliases: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Link:
    """A typed relation: ``source`` and ``target`` are mention names, ``USER`` or
    ``ROLE_PREFIX + role``; ``type`` one of ``LINK_TYPES`` or ``kin:<role>``."""

    source: str
    type: str
    target: str


@dataclass(frozen=True, slots=True)
class Word:
    """One word of a Russian statement as natasha's parser left it: the relation model reads
    the tree between two mentions from these (``world.pairs``)."""

    text: str
    lemma: str
    rel: str          # the dependency label ("nsubj", "obl", ...)
    head: int         # index of the head word in the statement's words, -1 at a root
    case: str         # "Loc", "Ins", ... or ""
    preposition: str  # the preposition the word takes, or ""
    sentence: int
    pos: str = ""     # the tagger's part of speech ("NOUN", "PROPN", ...)
    start: int = -1   # where the word stands in the statement (characters)


@dataclass(frozen=True, slots=True)
class Reading:
    mentions: tuple[Mention, ...] = ()
    links: tuple[Link, ...] = ()
    language: str = "ru"
    # role words the statement uses for a person it names or for someone else's relative
    # ("с мужем Сергеем", "её сестрой"): not the speaker's relative known by that role
    named_roles: tuple[str, ...] = ()
    # the parsed words (Russian only), for the relation model; not part of what was read
    words: tuple[Word, ...] = field(default=(), compare=False, repr=False)

    def mention(self, name: str) -> Mention | None:
        return next((m for m in self.mentions if m.name == name), None)


_INTRODUCING = re.compile(r"(?:\b(?:меня\s+зовут|представлюсь\s*:?|my\s+name\s+is|call\s+me|"
                         r"nazywam\s+się|mam\s+na\s+imię|jestem)|(?<![\w-])(?:я|i'm|i\s+am))"
                         r"\s+$", re.IGNORECASE)


# after the speaker's name: "Рустам меня зовут"; an age opening a profile ("Руслан, 41. Казань.",
# "Виктор 45 лет воронеж", "Геннадий Степанович. 67 лет.")
_NAMED_BEFORE_ZOVUT = re.compile(r"\s*,?\s*меня\s+зовут\b", re.IGNORECASE)
_ZOVUT_AFTER = re.compile(r"\s+зовут\b", re.IGNORECASE)
_ME_BEFORE = re.compile(r"(?<![\w-])меня\s+$", re.IGNORECASE)
_AGE_AFTER = re.compile(r"\s*[,.]?\s*\d{1,3}(?![\d.,:/-]\d)(?!\s*(?:%|руб|тыс|км|кг|см|м\b|р\b|к\b))",
                        re.IGNORECASE)
# what may stand before a profile's opening name: nothing, or one short greeting sentence
# ("Здравствуйте.", "Добрый вечер.")
_OPENING = re.compile(r"\s*(?:[^\s.!?,]+\s+){0,2}[^\s.!?,]+\s*[.!,]+\s*|\s*")


def _introduces(text: str, said: str, nominative: bool) -> bool:
    """Whether the text names its speaker ``said`` where it is found: after "меня зовут" /
    "я" (the name in the ``nominative`` only: "я Олю видел" is someone else); before "меня
    зовут" ("Рустам меня зовут"), "Меня Марина зовут"; or opening a profile with an age
    ("Руслан, 41. Казань.")."""
    at = text.lower().find(said.lower()) if said else -1
    if at < 0:
        return False
    if nominative and _INTRODUCING.search(text[max(0, at - 40):at]):
        return True
    after = text[at + len(said):]
    if after[:1].isalnum():
        return False  # part of a longer word ("Марин" inside "Марина")
    return bool(_NAMED_BEFORE_ZOVUT.match(after)
                or (_ME_BEFORE.search(text[max(0, at - 10):at]) and _ZOVUT_AFTER.match(after))
                or (_opening(text[:at]) and _AGE_AFTER.match(after)))


def _opening(before: str) -> bool:
    """Nothing, or one short sentence that counts no one ("Здравствуйте.", not "двое детей.",
    "Сын."), before a profile's name."""
    from wave_agent.world.oblique import numeral

    return bool(_OPENING.fullmatch(before)) and not any(
        numeral(w) or kin.role_of(w) is not None for w in re.findall(r"\w+", before.lower()))


def without_speakers_name(text: str, reading: Reading) -> Reading:
    """The speaker introducing themself ("Меня зовут Татьяна Николаевна", "я кирилл, 24",
    "I'm Dom, 44", "Рустам меня зовут", a profile opening "Руслан, 41. Казань.") is ``USER``,
    not a third person: the name is left out of the mentions and what the statement says of
    that name is said of the speaker."""
    own = set()
    for m in reading.mentions:
        if m.type is not EntityType.PERSON:
            continue
        # as named, in the nominative (not "я Олю"), or as written; never by a role word
        # ("Муж, 45 лет, ...")
        if _introduces(text, m.name, nominative=True) or any(
                _introduces(text, said, nominative=False) for said in m.aliases
                if said[:1].isupper() and kin.role_of(said) is None):
            own.add(m.name)
    if not own:
        return reading
    links = tuple(dict.fromkeys(
        Link(USER if link.source in own else link.source, link.type, link.target)
        for link in reading.links if link.target not in own
        and not (link.source in own and link.type.startswith("kin:"))))
    return replace(reading, mentions=tuple(m for m in reading.mentions if m.name not in own),
                   links=links)


def kin_link(role: str) -> str:
    """The link type of a kin role from ``graph.kin`` ("mother-in-law" -> "kin:mother_in_law")."""
    return "kin:" + role.replace("-", "_")


__all__ = ["LINK_TYPES", "ROLE_PREFIX", "USER", "Link", "Mention", "Reading", "Word", "kin_link",
           "without_speakers_name"]
