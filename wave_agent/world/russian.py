"""Reading a Russian statement: natasha's NER for people, places and organisations, its syntax
tree for who lives, works, studies, owns, does what, and pymorphy3 for lemmas.

Names are brought to the nominative ("в Самаре" -> Самара, "с Игорьком" -> Игорёк, "Галине
Сергеевне" -> Галина Сергеевна). Who a verb is about: its subject ("я", a name, a role noun
with its name beside it: "Муж Олег работает"), else the subject of the verb it is joined to,
else the person speaking when the verb is in the first person. A role noun alone ("муж
работает водителем") is left for the writer to resolve (``ROLE_PREFIX``).

Models load once per process (``morphology.Models``), on first use; callers run ``read`` off the event
loop (``wave_agent.world.reader``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from graph import kin
from graph.models import EntityType
from wave_agent.world import lexicon
from wave_agent.world.lexicon import words
from wave_agent.world.morphology import (
    POS,
    Models,
    abbreviation,
    adjective_nominative,
    lemma,
    name_nominative,
)
from wave_agent.world.reading import ROLE_PREFIX, USER, Link, Mention, Reading, kin_link

_NER_TYPES = {"PER": EntityType.PERSON, "LOC": EntityType.PLACE, "ORG": EntityType.ORGANISATION}
_QUOTED = re.compile(r"[«\"„“]([^»\"”“]{2,60})[»\"”“]")

_LIVE = words("жить проживать переехать перебраться поселиться переезжать вернуться снимать")
_WORK = words("работать трудиться устроиться перейти служить подрабатывать")
_STUDY = words("учиться поступить обучаться закончить окончить")
_OWN = words("купить приобрести завести взять подарить получить")
_DO = words("заниматься увлекаться")
_PLAY = words("играть")
_GO = words("ходить ездить")
_MEMBER = words("состоять вступить петь играть участвовать")
_ILL = words("болеть страдать")
_SELF = words("я мы меня мне мной нас нам нами")
_THIRD = words("он она его её ее ему ей им ним ней него нее неё")
_SHE = words("она её ее ей ней нее неё")
_WISH = words("хотеть мечтать планировать собираться думать")
_PARTNER = words("парень девушка жених невеста")
# kin roles the shared table (``graph.kin``) does not hold, read the same way here
_MORE_KIN = {"внук": "grandson", "внучка": "granddaughter", "тётя": "aunt", "тетя": "aunt",
             "дядя": "uncle", "тётка": "aunt", "тетка": "aunt"}
_POSSESSIVE = words("мой моя моё мое мои моего моей моему моим моих моими моем моём")


@dataclass(slots=True)
class _Token:
    id: str
    text: str
    pos: str
    rel: str
    head: str
    case: str | None
    person: str | None
    animate: bool
    gender: str | None
    start: int
    stop: int
    lemma: str = ""


class _Sentence:
    """One parsed sentence: tokens by id, children by head, NER spans by token."""

    def __init__(self, tokens: list[_Token]) -> None:
        self.tokens = tokens
        self.by_id = {t.id: t for t in tokens}
        self.children: dict[str, list[_Token]] = {}
        for t in tokens:
            self.children.setdefault(t.head, []).append(t)

    def kids(self, token: _Token, *rels: str) -> list[_Token]:
        found = self.children.get(token.id, [])
        return [t for t in found if not rels or t.rel.split(":")[0] in rels]

    def head_of(self, token: _Token) -> _Token | None:
        return self.by_id.get(token.head)

    def preposition(self, token: _Token) -> str:
        case = [t.text.lower() for t in self.kids(token, "case")]
        return case[0] if case else ""


def read(text: str) -> Reading:
    """The mentions and links of one Russian statement."""
    return read_many([text])[0]


def read_many(texts: Sequence[str]) -> list[Reading]:
    """``read`` for many statements, the models run over all their sentences in batches (an
    import of thousands: one model call per batch of sentences, not nine per statement)."""
    models = Models.get()
    from natasha import Doc

    docs = [Doc(text) for text in texts]
    for doc in docs:
        doc.segment(models.segmenter)
    sentences = [sent for doc in docs for sent in doc.sents]
    words = [[t.text for t in sent.tokens] for sent in sentences]
    for sent, markup in zip(sentences, models.morph.map(words), strict=True):
        for token, tagged in zip(sent.tokens, markup.tokens, strict=True):
            token.pos, token.feats = tagged.pos, tagged.feats
    for sent, markup in zip(sentences, models.syntax.map(words), strict=True):
        for token, parsed in zip(sent.tokens, markup.tokens, strict=True):
            token.id, token.head_id, token.rel = parsed.id, parsed.head_id, parsed.rel
    spans = models.ner.map([doc.text for doc in docs])
    readings = []
    for doc, markup in zip(docs, spans, strict=True):
        builder = _Builder(doc.text)
        for span in markup.spans:
            builder.add_span(span.start, span.stop, span.type)
        for sent in doc.sents:
            tokens = [_Token(t.id, t.text, t.pos, t.rel or "", t.head_id, t.feats.get("Case"),
                             t.feats.get("Person"), t.feats.get("Animacy") == "Anim",
                             t.feats.get("Gender"), t.start, t.stop) for t in sent.tokens]
            for t in tokens:
                t.lemma = lemma(t.text, t.pos) if t.pos in POS else t.text.lower()
            builder.sentence(_Sentence(tokens))
        readings.append(builder.reading())
    return readings


def _common_noun(token: _Token) -> bool:
    """A word no reading of which is a name ("Внук", "Сосед", "Брат"): not part of a name."""
    from wave_agent.world.morphology import is_name

    return bool(re.search("[а-яё]", token.text.lower())) and not is_name(token.text)


class _Builder:
    """Collects one statement's mentions and links as its sentences are read."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.spans: list[tuple[int, int, EntityType]] = []
        self.mentions: dict[str, Mention] = {}
        self.links: list[Link] = []
        self.first_at: dict[str, int] = {}  # mention name -> where the text first names it
        self.gender: dict[str, str] = {}    # person name -> "Masc" / "Fem" (the parser's)
        for relative in kin.relatives(text):
            self._mention(relative.name, EntityType.PERSON, (relative.alias,))
            self._link(USER, kin_link(relative.role), relative.name)
            found = text.find(relative.name.split()[0][:4])
            self.first_at[relative.name] = found if found >= 0 else len(text)

    def add_span(self, start: int, stop: int, tag: str) -> None:
        kind = _NER_TYPES.get(tag)
        if kind is not None:
            self.spans.append((start, stop, kind))

    def reading(self) -> Reading:
        return Reading(tuple(self.mentions.values()), tuple(dict.fromkeys(self.links)), "ru")

    # -- collecting ------------------------------------------------------------------------

    def _mention(self, name: str, kind: EntityType, aliases: tuple[str, ...] = ()) -> str:
        name = " ".join(name.split())
        current = self.mentions.get(name)
        if current is None:
            self.mentions[name] = Mention(name, kind, tuple(a for a in aliases if a != name))
        else:
            merged = tuple(dict.fromkeys((*current.aliases, *aliases)))
            self.mentions[name] = Mention(name, kind if current.type is EntityType.PERSON
                                          and kind is EntityType.PET else current.type,
                                          tuple(a for a in merged if a != name))
        return name

    def _retype(self, name: str, kind: EntityType) -> None:
        current = self.mentions.get(name)
        if current is not None:
            self.mentions[name] = Mention(name, kind, current.aliases)

    def _link(self, source: str | None, kind: str, target: str | None) -> None:
        if source and target and source != target:
            self.links.append(Link(source, kind, target))

    # -- one sentence ------------------------------------------------------------------------

    def sentence(self, s: _Sentence) -> None:
        names = self._named(s)
        self._quoted(s, names)
        for token in s.tokens:
            if token.pos in ("VERB", "AUX"):
                self._verb(s, token, names)
            elif token.pos == "NOUN" or (token.pos == "PROPN" and token.id not in names):
                self._noun(s, token, names)  # "Внук" opening a sentence is tagged PROPN
        self._possessions(s, names)

    def _named(self, s: _Sentence) -> dict[str, str]:
        """Token id -> mention name, for the NER spans of this sentence."""
        names: dict[str, str] = {}
        for start, stop, kind in self.spans:
            inside = [t for t in s.tokens if t.start >= start and t.stop <= stop]
            if not inside:
                continue
            while len(inside) > 1 and kind is EntityType.PERSON and _common_noun(inside[0]):
                inside = inside[1:]  # "Брат Саша", "Внук Стёпа" opening a sentence: the name
                start = inside[0].start
            ids = {t.id for t in inside}
            head = next((t for t in inside if t.head not in ids), inside[0])
            quoted = start > 0 and self.text[start - 1] in "«\"„“"
            before = [t for t in s.tokens if t.stop <= start - (1 if quoted else 0)]
            noun = before[-1].lemma if before else ""
            if quoted and noun in lexicon.PROJECT_NOUNS:
                kind = EntityType.PROJECT
            elif quoted and noun in lexicon.GROUP_NOUNS | lexicon.ORG_NOUNS:
                kind = EntityType.ORGANISATION
            if abbreviation(self.text[start:stop]):
                name = self.text[start:stop]  # "МГУ", "УрФУ": never inflected
            elif quoted and len(inside) == 1 and inside[0].case not in (None, "Nom"):
                name = name_nominative(inside[0].text, inside[0].case)  # "продал «Ниву»"
            elif kind is EntityType.PERSON:
                name = " ".join(name_nominative(t.text, t.case) for t in inside)
            elif quoted:
                name = self.text[start:stop]
            elif kind is EntityType.PLACE:
                name = " ".join(name_nominative(t.text, t.case) if t.pos in ("PROPN", "NOUN")
                                else adjective_nominative(t) for t in inside)
            else:
                name = " ".join(name_nominative(t.text, t.case) if len(inside) == 1
                                else t.text for t in inside)
            surface = self.text[start:stop]
            typed = self._kind_by_head(s, head, kind)
            if typed is None:
                continue
            self._mention(name, typed, (surface,) if surface != name else ())
            self.first_at.setdefault(name, start)
            if head.gender:
                self.gender.setdefault(name, head.gender)
            for t in inside:
                names[t.id] = name
        return names

    def _kind_by_head(self, s: _Sentence, head: _Token, kind: EntityType) -> EntityType | None:
        """A name beside a pet noun is the pet ("кот Барсик"); a brand beside a device is
        not an organisation ("ноутбук Lenovo": the device is the entity)."""
        governor = s.head_of(head)
        if governor is not None and governor.pos == "NOUN" and head.rel in (
                "appos", "flat", "nmod", "nsubj", "conj"):
            governed = lexicon.kind_of(governor.lemma)
            if governed is EntityType.PET:
                return EntityType.PET
            if governed in (EntityType.DEVICE, EntityType.VEHICLE):
                return None
        for child in s.kids(head, "appos", "nmod"):
            if lexicon.kind_of(child.lemma) is EntityType.PET and kind is EntityType.PERSON:
                return EntityType.PET
        return kind

    def _quoted(self, s: _Sentence, names: dict[str, str]) -> None:
        """«Волга-Сервис» after "компания", «Солнышко» after "хор", «Альфа» after "проект"."""
        for match in _QUOTED.finditer(self.text):
            inside = [t for t in s.tokens if t.start >= match.start(1) and t.stop <= match.end(1)]
            if not inside or any(t.id in names for t in inside):
                continue
            before = [t for t in s.tokens if t.stop <= match.start()]
            noun = before[-1].lemma if before else ""
            kind = (EntityType.PROJECT if noun in lexicon.PROJECT_NOUNS
                    else EntityType.ORGANISATION)
            name = self._mention(match.group(1).strip(), kind)
            for t in inside:
                names[t.id] = name

    # -- who a verb is about ---------------------------------------------------------------

    def _subject(self, s: _Sentence, verb: _Token, names: dict[str, str],
                 seen: frozenset[str] = frozenset()) -> str | None:
        for subj in s.kids(verb, "nsubj"):
            return self._who(s, subj, names)
        if verb.rel in ("conj", "xcomp", "advcl", "parataxis") and verb.head not in seen:
            head = s.head_of(verb)
            if head is not None and head.pos in ("VERB", "AUX", "NOUN", "PRON"):
                found = self._subject(s, head, names, seen | {verb.id})
                if found is not None:
                    return found
        if verb.person == "1" or verb.person is None:
            return USER  # "живу", or a past tense with no subject ("купила"): the speaker
        return None

    def _who(self, s: _Sentence, token: _Token, names: dict[str, str]) -> str | None:
        if token.pos == "PRON" and token.lemma in _SELF:
            return USER
        if token.pos == "PRON" and token.text.lower() in _THIRD:
            # "Сыну Тимуру девять лет, он занимается хоккеем": the last person named before
            wanted = "Fem" if token.text.lower() in _SHE else "Masc"
            people = [m.name for m in self.mentions.values() if m.type is EntityType.PERSON
                      and self.first_at.get(m.name, len(self.text)) < token.start
                      and self.gender.get(m.name, wanted) == wanted]
            return people[-1] if people else None
        if token.id in names:
            return names[token.id]
        role = kin.role_of(token.text)
        if role is not None:
            for child in s.kids(token, "appos", "flat", "nmod"):
                if child.id in names:
                    return names[child.id]
            return ROLE_PREFIX + role
        if token.pos in ("NOUN", "PROPN"):  # "подруга Лена", "Внук Стёпа": the name beside
            for child in self._beside(s, token):
                if child.id in names and self.mentions[names[child.id]].type is EntityType.PERSON:
                    return names[child.id]
        return None

    def _target(self, s: _Sentence, token: _Token, names: dict[str, str],
                kind: EntityType) -> str | None:
        """The named entity of ``kind`` a verb's argument is (itself, or a name beside it:
        "в компании «Волга-Сервис»")."""
        for candidate in (token, *s.kids(token, "appos", "flat", "nmod")):
            name = names.get(candidate.id)
            mention = self.mentions.get(name) if name else None
            if mention is not None and mention.type is kind:
                return name
        if kind is EntityType.PLACE and token.pos == "PROPN":
            return self._mention(name_nominative(token.text, token.case), EntityType.PLACE)
        return None

    def _verb(self, s: _Sentence, verb: _Token, names: dict[str, str]) -> None:
        lem = verb.lemma
        if lem not in (_LIVE | _WORK | _STUDY | _OWN | _DO | _PLAY | _GO | _MEMBER | _ILL):
            return
        who = self._subject(s, verb, names)
        args = s.kids(verb, "obl", "obj", "xcomp", "iobj", "nmod")
        if lem in _LIVE:
            for arg in args:
                if s.preposition(arg) in ("в", "во", "на"):
                    self._link(who, "lives_in", self._target(s, arg, names, EntityType.PLACE))
        if lem in _WORK | _STUDY | _MEMBER:
            for arg in args:
                place = names.get(arg.id)
                if place and abbreviation(place) and self.mentions[place].type is EntityType.PLACE:
                    self._retype(place, EntityType.ORGANISATION)  # "учится в УрФУ"
                elif (place and lem in _WORK and s.preposition(arg) in ("в", "во")
                      and self.mentions[place].type is EntityType.PLACE):
                    self._link(who, "lives_in", place)  # "служит в Мурманске"
                org = self._target(s, arg, names, EntityType.ORGANISATION)
                if org is not None and s.preposition(arg) in ("в", "во", "на", ""):
                    link = ("studies_at" if lem in _STUDY else "works_at" if lem in _WORK
                            else "member_of")
                    self._link(who, link, org)
                if (lem in _WORK and arg.case == "Ins" and arg.pos == "NOUN"
                        and not s.preposition(arg) and arg.id not in names):
                    # "работает водителем (в «Волга-Транс»)": the occupation, beside the place
                    job = self._mention(arg.lemma, EntityType.OCCUPATION)
                    self._link(who, "works_as", job)
                if org is not None:
                    continue
                if lem in _WORK | _MEMBER and arg.lemma in lexicon.GROUP_NOUNS:
                    group = self._target(s, arg, names, EntityType.ORGANISATION)
                    self._link(who, "member_of", group)
                elif lem in _WORK | _MEMBER and arg.lemma in lexicon.PROJECT_NOUNS:
                    self._link(who, "part_of", self._target(s, arg, names, EntityType.PROJECT))
        wished = verb.rel == "xcomp" and (s.head_of(verb) or verb).lemma in _WISH
        if lem in _OWN and not wished:  # "хочет завести кошку": not owned yet
            for arg in s.kids(verb, "obj"):
                self._owned(s, arg, who, names)
        if lem in _DO | _PLAY | _GO:
            for arg in args:
                kind = lexicon.kind_of(arg.lemma)
                if kind is EntityType.HOBBY or (lem in _DO and arg.case == "Ins"
                                                and arg.pos == "NOUN" and kind is None):
                    self._link(who, "does", self._mention(arg.lemma, EntityType.HOBBY))
        if lem in _ILL:
            for arg in args:
                if lexicon.kind_of(arg.lemma) is EntityType.ILLNESS:
                    self._link(who, "has_condition", self._mention(arg.lemma, EntityType.ILLNESS))

    def _noun(self, s: _Sentence, noun: _Token, names: dict[str, str]) -> None:
        """"подруга Лена", "мой парень Костя", "проект «Альфа»", "я инженер": relations a
        noun states itself."""
        if noun.lemma in _PARTNER and self._owner(s, noun) == USER:
            for child in self._beside(s, noun):
                name = names.get(child.id)
                if name and self.mentions[name].type is EntityType.PERSON:
                    self._mention(name, EntityType.PERSON, (noun.lemma,))
                    self._link(USER, "kin:partner", name)
        role = _MORE_KIN.get(noun.lemma)
        if role is not None and (self._owner(s, noun) == USER or noun.start == s.tokens[0].start):
            for child in self._beside(s, noun):
                name = names.get(child.id)
                if name and self.mentions[name].type is EntityType.PERSON:
                    self._mention(name, EntityType.PERSON, (noun.lemma,))
                    self._link(USER, kin_link(role), name)
        if self._occupation_of_user(s, noun):
            self._link(USER, "works_as", self._mention(noun.lemma, EntityType.OCCUPATION))
        if noun.lemma in lexicon.FRIEND_NOUNS:
            owner = self._owner(s, noun)
            for child in self._beside(s, noun):
                name = names.get(child.id)
                if name and self.mentions[name].type is EntityType.PERSON:
                    self._mention(name, EntityType.PERSON, (noun.lemma,))
                    self._link(owner or USER, "friend_of", name)
        if noun.lemma in lexicon.PROJECT_NOUNS:
            target = self._target(s, noun, names, EntityType.PROJECT)
            if target is not None:
                verb = s.head_of(noun)
                who = self._subject(s, verb, names) if verb is not None and verb.pos in (
                    "VERB", "AUX") else None
                self._link(who or USER, "part_of", target)
        if noun.lemma in lexicon.GROUP_NOUNS:
            target = self._target(s, noun, names, EntityType.ORGANISATION)
            if target is not None:
                verb = s.head_of(noun)
                who = self._subject(s, verb, names) if verb is not None and verb.pos in (
                    "VERB", "AUX") else None
                self._link(who or USER, "member_of", target)

    @staticmethod
    def _beside(s: _Sentence, noun: _Token) -> list[_Token]:
        """The name a role-like noun stands beside: its apposition ("подруга Лена"), or the
        name it modifies when the parser hung it the other way ("Мой парень Костя")."""
        found = s.kids(noun, "appos", "flat", "nmod")
        head = s.head_of(noun)
        if head is not None and head.pos == "PROPN" and noun.rel in ("amod", "appos", "nmod"):
            found.append(head)
        return found

    def _occupation_of_user(self, s: _Sentence, noun: _Token) -> bool:
        """"Я инженер", "Я Игорь, программист": a lower-case animate noun in the nominative
        said of the speaker (no kin, friend or pet word)."""
        if not (noun.animate and noun.case == "Nom" and noun.text.islower()
                and kin.role_of(noun.text) is None and lexicon.kind_of(noun.lemma) is None
                and noun.lemma not in lexicon.FRIEND_NOUNS | _PARTNER):
            return False
        if any(k.pos == "PRON" and k.lemma in ("я",) for k in s.kids(noun, "nsubj")):
            return True
        head = s.head_of(noun)
        if head is None or noun.rel not in ("appos", "conj", "parataxis"):
            return False
        return head.pos == "PROPN" and any(k.pos == "PRON" and k.lemma == "я"
                                           for k in s.kids(head, "nsubj"))

    def _owner(self, s: _Sentence, noun: _Token) -> str | None:
        """Whose a noun is: "мой" -> the person; "у Олега" -> Oleg."""
        for det in s.kids(noun, "det", "amod"):
            if det.text.lower() in _POSSESSIVE:
                return USER
        return None

    def _owned(self, s: _Sentence, noun: _Token, who: str | None,
               names: dict[str, str]) -> None:
        kind = lexicon.kind_of(noun.lemma)
        if kind is None or who is None:
            return
        if kind is EntityType.PET:
            pet_name = next((names[c.id] for c in s.kids(noun, "appos", "flat", "nmod", "nsubj")
                             if c.id in names), None)
            pets = [pet_name] if pet_name is not None else []
            pets += [names[c.id] for c in s.kids(noun, "conj") if c.id in names]
            for c in s.kids(noun, "appos", "flat", "nmod", "nsubj", "conj"):
                pets += [names[k.id] for k in s.kids(c, "conj") if k.id in names]  # "Граф и Лайка"
            for pet in dict.fromkeys(pets):
                self._retype(pet, EntityType.PET)
                self._mention(pet, EntityType.PET, (noun.lemma,))
                self._link(pet, "pet_of", who)
            if not pets:
                self._link(self._mention(noun.lemma, EntityType.PET), "pet_of", who)
        elif kind is EntityType.ILLNESS:
            self._link(who, "has_condition", self._mention(noun.lemma, kind))
        elif kind is EntityType.HOBBY:
            self._link(who, "does", self._mention(noun.lemma, kind))
        else:
            self._link(who, "owns", self._mention(noun.lemma, kind))

    def _possessions(self, s: _Sentence, names: dict[str, str]) -> None:
        """"У меня кот Барсик", "у Олега диабет", "мой ноутбук", "моя собака Рекс"."""
        for token in s.tokens:
            if token.pos not in ("NOUN", "PROPN"):
                continue
            kind = lexicon.kind_of(token.lemma)
            if kind is None:
                continue
            owner: str | None = self._owner(s, token)
            head = s.head_of(token)
            if owner is None and head is not None and token.rel.startswith("nsubj"):
                for case_word in s.kids(head, "case"):
                    if case_word.text.lower() == "у":
                        owner = self._who(s, head, names)
                for u in s.kids(head, "obl", "nmod"):
                    if s.preposition(u) == "у":
                        owner = self._who(s, u, names)
            if owner is None and kind is EntityType.ILLNESS:
                owner = self._subject(s, head, names) if head is not None and head.pos in (
                    "VERB", "AUX") else None
            if owner is not None:
                self._owned(s, token, owner, names)


__all__ = ["read", "read_many"]
