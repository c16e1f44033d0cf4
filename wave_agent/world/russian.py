"""Reading a Russian statement: natasha's NER for people, places and organisations, its syntax
tree and the sentence's clauses for who lives, works, studies, owns, does what, and pymorphy3
for lemmas.

Names are brought to the nominative ("в Самаре" -> Самара, "с Игорьком" -> Игорёк, "Галине
Сергеевне" -> Галина Сергеевна); a first name the NER missed is taken from pymorphy's
dictionary of names. Each verb is read in its clause (``sentence.Sentence``): who it is about
is its subject in the tree, else the speaker for a first-person verb, else a subject its
clause names before it, else the subject the clause before carries on ("Дина живёт в Твери и
работает в «Ростелекоме»": Дина works there); a plural subject takes the people "с" it along
("мы с мужем Андреем живём в Рязани"). Its arguments are the tree's within the clause and the
clause's nouns the parser hung elsewhere. A kin role beside a name anywhere in the sentence
is the speaker's relative unless the words say whose ("сестра Андрея Юля", "её парень",
"Наташа с сыном Лёшей"). A role noun alone ("муж работает водителем") is left for the writer
to resolve (``ROLE_PREFIX``).

Why one file of this size: ``_Builder``'s rules read and extend one statement's state (its
mentions, names by token, genders, the links so far) in an order that matters (names, then
verbs, then nouns, then possessions); split by rule, each part would take all of it.

Models load once per process (``morphology.Models``), on first use; callers run ``read`` off the event
loop (``wave_agent.world.reader``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace
from functools import lru_cache
from itertools import pairwise

from graph import kin
from graph.models import EntityType
from wave_agent.world import illness, lexicon
from wave_agent.world.kinds import AGENT, job_noun, noun_kind, person_noun
from wave_agent.world.morphology import (
    NAMING,
    POS,
    Models,
    abbreviation,
    adjective_nominative,
    agreeing_nominative,
    apposed,
    first_name,
    full_name,
    geographic,
    is_name,
    known_word,
    lemma,
    name_gender,
    name_nominative,
    name_of_possessive,
    nominative_reading,
    noun_lemmas,
    only_verb,
    person_instrumental,
    person_nominative,
    possessive_adjective,
    same_case,
    truecase,
    where_to,
)
from wave_agent.world.oblique import (
    firm_with_its_noun,
    noun_cases,
    numeral,
    oblique_nominative,
)
from wave_agent.world.reading import ROLE_PREFIX, USER, Link, Mention, Reading, kin_link
from wave_agent.world.sentence import (
    COME_FROM,
    COMITATIVE,
    DO,
    ENTER,
    ENTER_SELF,
    ENTER_WORK,
    GAVE_UP,
    GIVE,
    GO,
    ILL,
    LEAVE,
    LIVE,
    MEMBER,
    MORE_KIN,
    NOW,
    OTHERS,
    OWN,
    OWN_FORMS,
    PARTNER,
    PARTNER_ROLE,
    PERSUADE,
    PLAY,
    POSSESSIVE,
    SELF,
    SHE,
    STUDY,
    THIRD,
    WISH,
    WORK,
    Sentence,
    Token,
    common_noun,
    hobby_name,
    someone_elses,
    street,
    words_of,
)

# the words an organisation that teaches is named by ("гимназия № 7", "садик «Солнышко»",
# "Бауманский университет", "КФУ"): a closed class, as the institution nouns of ``lexicon``
_EDUCATIONAL = re.compile(
    r"(?<!\w)(?:школ|гимнази|лице[йея]|колледж|техникум|училищ|университет|универ|институт|"
    r"академи|садик|детсад|детский сад|ясл|вуз|художк|музыкалк|консерватори)"
    r"|(?<![А-ЯЁа-яё])[А-ЯЁ][А-ЯЁа-яё]{0,5}(?:ГУ|ТУ|ФУ|МУ|ПУ|ГМУ|ЭУ)(?![А-ЯЁа-яё])", re.I)


def educational(name: str) -> bool:
    """Whether an organisation's name (or the noun beside it) names a school, a college, a
    university or a kindergarten."""
    return _EDUCATIONAL.search(name) is not None and not re.search(
        r"(?<!\w)(?:автошкол|спортшкол|школ\w* танц)", name, re.I)


_NER_TYPES = {"PER": EntityType.PERSON, "LOC": EntityType.PLACE, "ORG": EntityType.ORGANISATION}
_QUOTED = re.compile(r"[«\"„“]([^»\"”“]{2,60})[»\"”“]")


def read(text: str) -> Reading:
    """The mentions and links of one Russian statement."""
    return read_many([text])[0]


def read_many(texts: Sequence[str]) -> list[Reading]:
    """``read`` for many statements, the models run over all their sentences in batches (an
    import of thousands: one model call per batch of sentences, not nine per statement)."""
    models = Models.get()
    from natasha import Doc

    docs = [Doc(truecase(text)) for text in texts]
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
    for doc, markup, written in zip(docs, spans, texts, strict=True):
        builder = _Builder(doc.text, written)
        for span in markup.spans:
            builder.add_span(span.start, span.stop, span.type)
        sentences_read: list[Sentence] = []
        for sent in doc.sents:
            tokens = [Token(t.id, t.text, t.pos, t.rel or "", t.head_id, t.feats.get("Case"),
                             t.feats.get("Person"), t.feats.get("Animacy") == "Anim",
                             t.feats.get("Gender"), t.start, t.stop,
                             number=t.feats.get("Number")) for t in sent.tokens]
            verb = only_verb(tokens[0].text) if tokens and tokens[0].pos in (
                "NOUN", "PROPN") else None
            if verb is not None:  # "Записались с Сашей на йогу": a verb opens it
                tokens[0].pos, tokens[0].case, tokens[0].animate = "VERB", None, False
                tokens[0].number, tokens[0].person = verb[1], verb[2]
            for t in tokens:
                if t.text.lower() in NOW and t.pos in ("VERB", "PROPN"):
                    # "серега щас в тинькофф", "Щас он в москве": an adverb, no verb or name
                    t.pos, t.case, t.person, t.number, t.gender = "ADV", None, None, None, None
                t.lemma = lemma(t.text, t.pos) if t.pos in POS else t.text.lower()
                job = person_instrumental(t.text) if (
                    t.case != "Ins" or t.pos == "VERB") else None  # "аналитиком" tagged a verb
                if job is not None:  # "устроилась фармацевтом": tagged a verb, the dictionary
                    t.pos, t.case, t.animate, t.person, t.lemma = "NOUN", "Ins", True, None, job
                    continue
                said = person_nominative(t.text.lower()) if t.pos == "VERB" else None
                if said is not None and (job_noun(said) or AGENT.search(said)) and any(u.head == t.id and u.rel == "nsubj"
                                            and u.text.lower() == "я" for u in tokens):
                    # "я тестировщица", "теперь я тимлид": a job noun the tagger took for a verb
                    t.pos, t.case, t.animate, t.person, t.lemma = "NOUN", "Nom", True, None, said
                    continue
                if t.pos in ("NOUN", "PROPN") and lexicon.kind_of(t.lemma) is None:
                    # "на йогу": the likeliest noun is "йог"; a reading the lexicon knows wins
                    t.lemma = next((n for n in noun_lemmas(t.text) if lexicon.kind_of(n)),
                                   t.lemma)
            sentences_read.append(Sentence(tokens))
        for i, s in enumerate(sentences_read):
            # "взяли котёнка!! назвали бусинка": a naming word may open the next sentence
            builder.following = sentences_read[i + 1] if i + 1 < len(sentences_read) else None
            builder.sentence(s)
        readings.append(replace(builder.reading(), words=words_of(sentences_read)))
    return readings


_WHERE = frozenset({"в", "во", "на", "из", "с", "со"})
# between a name and the same person's other name: a comma, a bracket or a dash, maybe "он
# же" / "она же" / "(все) зовут (его / её)" / "для своих"
_APPOSED = re.compile(r"\s*[,(—–-]\s*(?:(?:он|она)\s+же\s+|(?:все\s+|дома\s+)?зовут\s+"
                      r"(?:его\s+|её\s+|ее\s+)?|для\s+своих\s+)?", re.IGNORECASE)


@lru_cache(maxsize=16_384)
def _first_person_verb(word: str) -> bool:
    """Whether pymorphy reads the word as a verb of the first person ("пилим", which the
    tagger takes for an adjective)."""
    from wave_agent.world.morphology import _morph

    return any(p.tag.POS == "VERB" and p.tag.person == "1per"
               for p in _morph().parse(word.lower()))


def _someone_named(span: list[Token], j: int, known: dict[str, str]) -> bool:
    """Whether an animate noun is one of the people said ("кореш лёха", "брат Олег", "с
    ребятами"), not a creature a naming word names."""
    return (j + 1 < len(span) and span[j + 1].id in known) or any(
        w.text.lower() in COMITATIVE for w in span[max(0, j - 2):j])


def _initial(name: str) -> str:
    return name[:1].lower().replace("ё", "е")


def _somewhere(before: list[Token], inside: list[Token], head: Token) -> bool:
    """Whether a span the NER took for a person stands where a place or a firm does and is no
    name: after "в", "на", "из", or "с" with a word pymorphy reads in the genitive and never
    the instrumental ("ушёл с Уралмаша", not "с Игорем": the tagger says either),
    with no word pymorphy knows as a first name, surname or patronymic, nor a diminutive of
    one ("на Норникеле", not "женился на Маше")."""
    if not before or before[-1].text.lower() not in _WHERE or (
            before[-1].text.lower() in COMITATIVE and (
            "ablt" in noun_cases(head.text) or "gent" not in noun_cases(head.text))):
        return False
    return not any((is_name(t.text) and known_word(t.text)) or full_name(t.text) != t.text
                   for t in inside)


def _first_name(written: str, nominative: str) -> str:
    """The first name a written name stands for: the one a diminutive comes from, read from
    the word as written ("Костян": Костя; pymorphy's guessed nominative "Костянин" is no
    name) or from its nominative ("Сашке" -> "Сашка" -> Саша)."""
    from_written = full_name(written)
    return from_written if from_written != written else full_name(nominative)


def _institution_adjectives(s: Sentence, at: int, names: dict[str, str]) -> list[Token]:
    """The adjectives right before an organisation noun when one of them makes it one
    institution (the level of government, or a proper adjective); else none."""
    adjectives: list[Token] = []
    for u in reversed(s.tokens[:at]):
        if u.pos != "ADJ" or u.id in names:
            break
        adjectives.insert(0, u)
    if any(u.lemma in _ADMINISTRATIVE or (u.text[:1].isupper() and s.position[u.id] > 0)
           for u in adjectives):
        return adjectives
    return []


def _institution_name(s: Sentence, adjectives: list[Token], noun: Token) -> str:
    """"Ольховской средней школе" -> "Ольховская средняя школа"."""
    said = [agreeing_nominative(u.text, noun.lemma) or u.text.lower() for u in adjectives]
    said = [w.capitalize() if u.text[:1].isupper() and s.position[u.id] > 0 else w
            for w, u in zip(said, adjectives, strict=True)]
    return " ".join((*said, noun.lemma))


# the level of government an institution belongs to: "областная больница" is one place
_ADMINISTRATIVE = frozenset(("областной", "районный", "городской", "краевой", "республиканский",
                             "федеральный", "муниципальный", "окружной", "поселковый"))


_NAMING_WORDS = frozenset({"назвать", "кличка", "звать"})


class _Builder:
    """Collects one statement's mentions and links as its sentences are read."""

    def __init__(self, text: str, written: str | None = None) -> None:
        self.text = text
        self.written = written if written is not None else text  # before ``truecase``
        self.spans: list[tuple[int, int, EntityType]] = []
        self.mentions: dict[str, Mention] = {}
        self.links: list[Link] = []
        self.first_at: dict[str, int] = {}  # mention name -> where the text first names it
        self.gender: dict[str, str] = {}    # person name -> "Masc" / "Fem" (the parser's)
        self.named_roles: list[str] = []   # role words naming someone else (``Reading``)
        self.joined: dict[tuple[int, int], str] = {}  # a firm's span with its noun -> name
        self.following: Sentence | None = None  # the sentence after the one being read
        self.previous: tuple[Sentence, dict[str, str]] | None = None  # the one read before
        for relative in kin.relatives(text):
            name = full_name(relative.name)  # "Сын Сашка": Саша
            self._mention(name, EntityType.PERSON, tuple(dict.fromkeys((
                relative.alias, relative.name))))
            self._link(USER, kin_link(relative.role), name)
            found = text.find(relative.name.split()[0][:4])
            self.first_at[name] = found if found >= 0 else len(text)

    def add_span(self, start: int, stop: int, tag: str) -> None:
        kind = _NER_TYPES.get(tag)
        if kind is None:
            return
        before = self.text[:start].split()[-1:]
        if (kind is EntityType.PERSON and self.written[start:start + 1].islower() and before
                and before[0].lower() in ("в", "во", "на", "из")):
            return  # "на футзале" capitalised in lower-case chat: a place or a club, no one
        if kind is EntityType.PERSON and self.written[start:stop].islower() and not any(
                is_name(w) or full_name(w) != w for w in self.text[start:stop].split()) and not (
                before and before[0].lower() in NAMING):
            return  # "уронил вазу" capitalised as ВАЗ: no name in it, no one ("зовут бублик": one)
        if kind is EntityType.PERSON and self._counted(start, stop):
            return  # "под мной два джуна": a word counted by a numeral is a common noun, no one
        if kind is EntityType.ORGANISATION and before and (following := re.match(
                r" ([а-яё]+)\b", self.written[stop:])) and " " not in self.text[start:stop] and (
                name := firm_with_its_noun(before[0], self.text[start:stop],
                                           following.group(1))):
            stop += following.end()  # "в Яндекс еде": the noun carries the firm's case
            self.joined[(start, stop)] = name
        if kind is EntityType.PERSON and " " in self.text[start:stop]:
            # "сестра Андрея Юля": the NER's one span is two people, one the other's (their
            # names share no case); a name with its patronymic or surname shares one
            at = start
            for word in re.finditer(r"\S+", self.text[start:stop]):
                first = self.text[at:stop].split()[0]
                if word.start() + start > at and not same_case(first, word.group()):
                    self.spans.append((at, start + word.start() - 1, kind))
                    at = start + word.start()
            self.spans.append((at, stop, kind))
            return
        self.spans.append((start, stop, kind))

    def _counted(self, start: int, stop: int) -> bool:
        """A word the person wrote in lower case right after a cardinal numeral ("два джуна",
        "2 джуна"): counted, so a common noun, whatever name the dictionary knows it as."""
        before = self.text[:start].split()[-1:]  # a word of its own ("в 2Гисе" is one word)
        return self.written[start:stop].islower() and bool(before) and start > 0 and (
            self.text[start - 1].isspace()) and (
            before[0].isdigit() or numeral(before[0].lower()))

    def reading(self) -> Reading:
        self._fold_first_names()
        self._fold_apposed_names()
        # the speaker's kin to a relative said by the role alone only where the statement says
        # something of them ("мама живёт в Туле"): alone ("папа умер пять лет назад") it was
        # as often a relative the labels knew already as a wrong one (docs/benchmarks.md,
        # "Entity graph")
        ends = {end for link in self.links if not link.type.startswith("kin:")
                for end in (link.source, link.target)}
        links = [link for link in self.links if not (
            link.source == USER and link.type.startswith("kin:")
            and link.target.startswith(ROLE_PREFIX) and link.target not in ends)]
        return Reading(tuple(self.mentions.values()), tuple(dict.fromkeys(links)), "ru",
                       tuple(dict.fromkeys(self.named_roles)))

    def _fold_first_names(self) -> None:
        """"Димон (Дима Соколов, ...)", "тоже Саша — Саша Мельникова": a first name alone is
        the one person of the statement whose full name starts with it (an alias of theirs)."""
        people = [m for m in self.mentions.values() if m.type is EntityType.PERSON]
        for short in people:
            if " " in short.name:
                continue
            longer = [m.name for m in people if " " in m.name
                      and m.name.split()[0] == short.name]
            if len(longer) != 1:
                continue
            full = longer[0]
            del self.mentions[short.name]
            self._mention(full, EntityType.PERSON, (short.name, *short.aliases))
            self.links = [Link(full if link.source == short.name else link.source, link.type,
                               full if link.target == short.name else link.target)
                          for link in self.links]
            self.links = [link for link in self.links if link.source != link.target]

    def _fold_apposed_names(self) -> None:
        """"Денис (все зовут его Дэн)", "Тимофей, Тёма, ему 9", "Соня, Софья Кравец": a name
        right after another, set off by a comma, a bracket, a dash or "он же" / "все зовут",
        of the same gender and starting with the same letter, is the same person said another
        way: one person, called by the fuller name (else the first said), the other an alias
        (a list of people,
        "Миша, Петя и Лёва", names other letters, or has "и" between)."""
        people = sorted((m for m in self.mentions.values() if m.type is EntityType.PERSON
                         and m.name in self.first_at), key=lambda m: self.first_at[m.name])
        for first, second in pairwise(people):
            if first.name not in self.mentions or second.name not in self.mentions:
                continue
            end = self._said_end(first)
            gap = self.text[end:self.first_at[second.name]] if end is not None else "-"
            if not _APPOSED.fullmatch(gap) or _initial(first.name) != _initial(second.name) or (
                    None not in (self.gender.get(first.name), self.gender.get(second.name))
                    and self.gender[first.name] != self.gender[second.name]):
                continue
            keep, other = sorted((first, second), key=lambda m: (-len(m.name.split()),
                                                                 self.first_at[m.name]))
            del self.mentions[other.name]
            self._mention(keep.name, EntityType.PERSON, (other.name, *other.aliases))
            self.links = [Link(keep.name if link.source == other.name else link.source,
                               link.type,
                               keep.name if link.target == other.name else link.target)
                          for link in self.links]
            self.links = list(dict.fromkeys(link for link in self.links
                                            if link.source != link.target))

    def _said_end(self, mention: Mention) -> int | None:
        """Where the words naming a mention end, from where the text first names it."""
        at = self.first_at[mention.name]
        said = [n for n in (mention.name, *mention.aliases)
                if self.text[at:at + len(n)].lower() == n.lower()]
        return at + max(map(len, said)) if said else None

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

    def sentence(self, s: Sentence) -> None:
        names = self._named(s)
        self._quoted(s, names)
        self._numbered(s, names)
        self._institutions(s, names)
        self._named_after(s, names)
        self._names_missed(s, names)
        for token in s.tokens:
            if token.pos in ("VERB", "AUX"):
                self._verb(s, token, names)
            elif token.pos == "NOUN" or (token.pos == "PROPN" and token.id not in names):
                self._noun(s, token, names)  # "Внук" opening a sentence is tagged PROPN
        self._grade(s, names)
        self._own_business(s, names)
        self._verbless(s, names)
        self._possessions(s, names)
        self._married(s, names)
        self._named_project(s, names)
        self.previous = (s, names)

    def _named(self, s: Sentence) -> dict[str, str]:
        """Token id -> mention name, for the NER spans of this sentence."""
        names: dict[str, str] = {}
        for start, stop, kind in self.spans:
            inside = [t for t in s.tokens if t.start >= start and t.stop <= stop]
            if not inside:
                continue
            while len(inside) > 1 and kind is EntityType.PERSON and common_noun(inside[0]):
                inside = inside[1:]  # "Брат Саша", "Внук Стёпа" opening a sentence: the name
                start = inside[0].start
            if len(inside) == 1 and kind is EntityType.PERSON and (
                    kin.role_of(inside[0].text) or MORE_KIN.get(inside[0].lemma)):
                continue  # "Дочке Полинке": the NER's span split, the role word is no one
            cut = next((i for i, t in enumerate(inside) if t.text.lower() == "имени"), None)
            if cut:  # "МГТУ имени Баумана": the name is what comes before "имени"
                inside = inside[:cut]
                stop = inside[-1].stop
            after = s.tokens[s.position[inside[-1].id] + 1:][:1]
            if kind is EntityType.PERSON and len(inside) == 1 and after and after[0].pos == (
                    "NOUN") and possessive_adjective(inside[0].text):
                continue  # "Катина подруга": a possessive adjective, not a person named
            if kind is EntityType.PLACE and street(s, inside):
                continue  # "на Гагарина", "на Плехановской": a street, not a place we keep
            if len(inside) == 1 and inside[0].pos == "VERB":
                continue  # "Переехала." capitalised alone: the NER's place is the verb
            # (tuning_8's move: the city "Переехала" replaced Казань said just before)
            ids = {t.id for t in inside}
            aliases: tuple[str, ...] = ()
            head = next((t for t in inside if t.head not in ids), inside[0])
            quoted = start > 0 and self.text[start - 1] in "«\"„“"
            before = [t for t in s.tokens if t.stop <= start - (1 if quoted else 0)]
            noun = before[-1].lemma if before else ""
            if quoted and noun in lexicon.PROJECT_NOUNS:
                kind = EntityType.PROJECT
            elif quoted and noun in lexicon.GROUP_NOUNS | lexicon.ORG_NOUNS:
                kind = EntityType.ORGANISATION
            if (start, stop) in self.joined:
                name = self.joined[(start, stop)]  # "в Яндекс еде": Яндекс Еда
            elif abbreviation(self.text[start:stop]):
                name = self.text[start:stop]  # "МГУ", "УрФУ": never inflected
                ending = re.fullmatch(r"(\S*[A-ZА-ЯЁ])([а-яё]{1,2})", name)
                if ending and lemma(name) == ending.group(1).lower():
                    name = ending.group(1)  # "на АвтоВАЗе": АвтоВАЗ
            elif quoted and len(inside) == 1 and inside[0].case not in (None, "Nom") and not (
                    nominative_reading(inside[0].text)):
                name = name_nominative(inside[0].text, inside[0].case)  # "продал «Ниву»"
            elif kind is EntityType.ORGANISATION and (named := _firm_name(
                    self.text, start, stop, inside, head)) is not None:
                name, aliases = named  # "в ООО «Волгатрансстрой»", "при Дворце творчества"
            elif kind is EntityType.PERSON:
                said = [name_nominative(t.text, t.case) for t in inside]
                name = " ".join([_first_name(inside[0].text, said[0]), *said[1:]])
                if name != " ".join(said):
                    aliases = (" ".join(said),)
            elif quoted:
                name = self.text[start:stop]
            elif kind is EntityType.PLACE:
                name = " ".join(name_nominative(t.text, t.case) if t.pos in ("PROPN", "NOUN")
                                else adjective_nominative(t) for t in inside)
            elif (len(inside) > 1 and inside[-1].pos == "NOUN" and inside[-1].lemma in
                  lexicon.ORG_NOUNS and all(t.pos == "ADJ" for t in inside[:-1])):
                name = _institution_name(s, inside[:-1], inside[-1])  # "Ольховской школе"
            else:
                name = " ".join(name_nominative(t.text, t.case) if len(inside) == 1
                                else t.text for t in inside)
            surface = self.text[start:stop]
            typed = self._kind_by_head(s, head, kind)
            if typed is None:
                continue
            if typed is EntityType.PERSON and _somewhere(before, inside, head):
                # "ушёл с Уралмаша", "работаю на Норникеле": no name where a place stands
                typed = EntityType.PLACE if geographic(head.text) else EntityType.ORGANISATION
                if len(inside) == 1:
                    aliases, name = (*aliases, name), oblique_nominative(inside[0].text)
            self._mention(name, typed, (*aliases, *((surface,) if surface != name else ())))
            self.first_at.setdefault(name, start)
            gender = (name_gender(name) if typed is EntityType.PERSON else None) or head.gender
            if gender:
                self.gender.setdefault(name, gender)
            for t in inside:
                names[t.id] = name
        return names

    def _names_missed(self, s: Sentence, names: dict[str, str]) -> None:
        """First names the NER missed ("Лейла занимается"): a proper noun every noun reading
        of which is a first name (pymorphy's dictionary), brought to the nominative."""
        for t in s.tokens:
            if t.id in names or t.pos != "PROPN" or not (first_name(t.text) or (
                    t.text[:1].isupper() and full_name(t.text) != t.text)):  # "Полинка"
                continue
            quoted = t.start > 0 and self.text[t.start - 1] in "«\"„“"
            if quoted or (common_noun(t) and full_name(t.text) == t.text) or self._counted(
                    t.start, t.stop):
                continue
            said = name_nominative(t.text, t.case)
            name = self._mention(_first_name(t.text, said), EntityType.PERSON, (said, t.text))
            self.first_at.setdefault(name, t.start)
            gender = name_gender(name) or t.gender
            if gender:
                self.gender.setdefault(name, gender)
            names[t.id] = name

    def _kind_by_head(self, s: Sentence, head: Token, kind: EntityType) -> EntityType | None:
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
        at = s.position[head.id]
        for noun in s.tokens[max(0, at - 5):at]:  # "Кошка наша Мурка", "Кот у меня, Тимофей"
            if (kind is EntityType.PERSON and noun.pos in ("NOUN", "PROPN")
                    and lexicon.kind_of(lemma(noun.text, "NOUN")) is EntityType.PET
                    and head in self._beside(s, noun)):
                return EntityType.PET
        return kind

    def _quoted(self, s: Sentence, names: dict[str, str]) -> None:
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

    def _numbered(self, s: Sentence, names: dict[str, str]) -> None:
        """"в школе № 47", "поликлиники № 3", "ИФНС №5": an organisation noun (or a name the
        NER read as one) with its number is one organisation, named in the nominative."""
        for at, t in enumerate(s.tokens[:-1]):
            sign = s.tokens[at + 1]
            if sign.text[1:].isdigit() and sign.text[0] == "№":  # "школу №3": one token
                number = sign
            elif (at + 2 < len(s.tokens) and sign.text == "№"
                  and s.tokens[at + 2].text.isdigit()):
                number = s.tokens[at + 2]
            else:
                continue
            digits = number.text.lstrip("№")
            old = names.get(t.id)
            if old is not None and self.mentions[old].type is EntityType.ORGANISATION:
                base = old
            elif old is None and t.pos == "NOUN" and t.lemma in lexicon.ORG_NOUNS:
                base = t.lemma
            else:
                continue
            adjectives = _institution_adjectives(s, at, names) if old is None else []
            if adjectives:  # "в краевой клинической больнице № 2"
                base = _institution_name(s, adjectives, t)
            first = adjectives[0] if adjectives else t
            name = self._mention(f"{base} № {digits}", EntityType.ORGANISATION, (
                self.text[first.start:number.stop], f"{base} №{digits}"))
            self.first_at.setdefault(name, first.start)
            for token in (*adjectives, t, sign, number):
                names[token.id] = name
            if old is not None and old not in names.values():
                del self.mentions[old]
        self._ordinal_numbered(s, names)

    def _ordinal_numbered(self, s: Sentence, names: dict[str, str]) -> None:
        """"в 52-й школе", "в 130й школе", "в 40-й больнице", "в школе 48": an organisation
        noun with its number as an ordinal before it or a bare number after it is the same
        numbered organisation as "школа № 52"."""
        for at, t in enumerate(s.tokens):
            if t.id in names or t.pos != "NOUN" or t.lemma not in lexicon.ORG_NOUNS:
                continue
            before = [u.text for u in s.tokens[max(0, at - 2):at]]
            after = s.tokens[at + 1:at + 3]
            ordinal = re.fullmatch(r"(\d{1,4})-?[а-я]{0,2}", before[-1]) if before else None
            if ordinal is not None and ordinal.group(0).isdigit() and not (
                    len(before) == 2 and before[0].lower() in ("в", "во", "на")
                    and t.number == "Sing" and t.case in ("Loc", "Acc")):
                ordinal = None  # "5 школ": a count ("в 71 школе", "в 132 школу": an ordinal)
            if ordinal is None and len(before) == 2 and before[1] in _ORDINAL_ENDINGS:
                ordinal = re.fullmatch(r"(\d{1,4})", before[0])  # "130й", "132ю", "9м": two tokens
            bare = None
            if ordinal is None and after and re.fullmatch(r"\d{1,4}", after[0].text) and (
                    len(after) < 2 or after[1].pos not in ("NOUN", "NUM")):
                bare = after[0]  # "в школе 48" (not "в школе 5 лет")
            if ordinal is not None:
                digits = ordinal.group(1)
            elif bare is not None:
                digits = bare.text
            else:
                continue
            name = self._mention(f"{t.lemma} № {digits}", EntityType.ORGANISATION,
                                 (f"{t.lemma} №{digits}",))
            self.first_at.setdefault(name, t.start)
            names[t.id] = name
            if bare is not None:
                names[bare.id] = name

    def _institutions(self, s: Sentence, names: dict[str, str]) -> None:
        """"в областной детской больнице", "в Ольховской средней школе": an organisation noun
        that a place's adjective (a proper one, or the level of government: областной,
        районный, городской...) makes one institution is an organisation, named in the
        nominative; "в музыкальную школу" alone stays a common noun."""
        for at, t in enumerate(s.tokens):
            if t.pos != "NOUN" or t.lemma not in lexicon.ORG_NOUNS or t.id in names:
                continue
            adjectives = _institution_adjectives(s, at, names)
            if not adjectives:
                continue
            name = self._mention(_institution_name(s, adjectives, t), EntityType.ORGANISATION,
                                 (self.text[adjectives[0].start:t.stop],))
            self.first_at.setdefault(name, adjectives[0].start)
            for u in (*adjectives, t):
                names[u.id] = name

    def _named_after(self, s: Sentence, names: dict[str, str]) -> None:
        """"в больнице имени Семашко", "в музыкальную школу имени Жиганова", "МГТУ имени
        Баумана", "при Доме культуры имени Кирова", "колледж им. Аухадеева": an organisation
        noun (or a firm the NER read, or a capitalised noun with its genitive) named after
        someone is one organisation, its noun phrase in the nominative and the honoree's name
        as written; what the noun alone was read as is an alias, and the honoree is no person
        of the statement (round thirty-four, issue 29)."""
        tokens = s.tokens
        for at, t in enumerate(tokens):
            abbreviated = t.text.lower() == "им" and at + 1 < len(tokens) and (
                tokens[at + 1].text == ".")
            if at == 0 or not (t.text.lower() == "имени" or abbreviated):
                continue
            honoree: list[Token] = []
            for u in tokens[at + (2 if abbreviated else 1):at + 5]:
                if not u.text[:1].isupper() or not u.text.isalpha() or len(honoree) == 2:
                    break
                honoree.append(u)
            if not honoree:
                continue
            head, tail = tokens[at - 1], []
            if head.id not in names and head.pos == "NOUN" and head.case == "Gen" and (
                    at >= 2 and tokens[at - 2].pos in ("NOUN", "PROPN")):
                head, tail = tokens[at - 2], [head]  # "Доме культуры имени Кирова"
            old = names.get(head.id)
            if old is not None and (self.mentions[old].type is not EntityType.ORGANISATION):
                continue
            if old is None and not (head.pos == "NOUN" and (
                    head.lemma in lexicon.ORG_NOUNS | lexicon.GROUP_NOUNS
                    or (tail and head.text[:1].isupper()))):
                continue
            adjectives: list[Token] = []
            if old is None:
                for u in reversed(tokens[:s.position[head.id]]):
                    if u.pos != "ADJ" or u.id in names:
                        break
                    adjectives.insert(0, u)
            base = old if old is not None else " ".join((
                _institution_name(s, adjectives, head).split(" ")[:-1] if adjectives else [])
                + [head.lemma.capitalize() if head.text[:1].isupper() and (
                    s.position[head.id] > 0) else head.lemma] + [u.text for u in tail])
            after = " ".join(u.text for u in honoree)
            first = adjectives[0] if adjectives else head
            name = self._mention(f"{base} имени {after}", EntityType.ORGANISATION, tuple(
                dict.fromkeys((f"{base} им. {after}", self.text[first.start:honoree[-1].stop],
                               *((old,) if old is not None else ())))))
            self.first_at.setdefault(name, first.start)
            gone = {names[u.id] for u in honoree if u.id in names}
            for u in (*adjectives, head, *tail, *tokens[at:s.position[honoree[-1].id] + 1]):
                names[u.id] = name
            for key, value in list(names.items()):
                if old is not None and value == old:
                    names[key] = name  # "Доме культуры": every word the firm's span held
            for other in gone | ({old} if old is not None else set()):
                if other != name and other not in names.values() and other in self.mentions:
                    del self.mentions[other]

    # -- who a verb is about ---------------------------------------------------------------

    def _subject(self, s: Sentence, verb: Token, names: dict[str, str],
                 seen: frozenset[str] = frozenset()) -> str | None:
        """Who a verb is about: its subject in the tree; the speaker for a first-person
        verb ("живу", "мы живём"); a subject its own clause names before it; the subject of
        the verb before it in the sentence, which a clause without one carries on ("Дина
        живёт в Твери и работает в «Ростелекоме»", "а сын Миша пошёл в школу и занимается
        футболом"); for the first verb with none, the speaker ("купила")."""
        return self._subject_token(s, verb, names, seen)[0]

    def _subject_token(self, s: Sentence, verb: Token, names: dict[str, str],
                       seen: frozenset[str] = frozenset()) -> tuple[str | None, Token | None]:
        subjects = s.kids(verb, "nsubj")
        for subj in subjects:  # ("живёт одна": "одна" is no one)
            who = self._who(s, subj, names) if s.clause[subj.id] == s.clause[verb.id] else None
            if who is not None:
                return who, subj
        if verb.person == "1":
            return USER, None  # "живу", "мы с мужем живём"
        if verb.rel == "xcomp" and verb.head not in seen:  # "хочет работать": who wants
            head = s.head_of(verb)
            if head is not None and head.pos in ("VERB", "AUX"):
                return self._subject_token(s, head, names, seen | {verb.id})
        for token in reversed([t for t in s.in_clause(verb)
                               if s.position[t.id] < s.position[verb.id]]):
            if token.rel.startswith("nsubj") or (token.case == "Nom" and (
                    token.pos == "PRON" or token.id in names)):
                who = self._who(s, token, names)
                if who is not None:
                    return who, token
        for subj in subjects:  # the tree's subject in another clause, none in its own
            who = self._who(s, subj, names)
            if who is not None:
                return who, subj
        earlier = [t for t in s.before(verb) if t.pos in ("VERB", "AUX") and t.id not in seen]
        if earlier and verb.person is None and verb.number == "Plur" and (
                earlier[-1].number == "Sing"):
            return USER, None  # "Варя мечтает о собаке, поэтому завели попугая": we did
        if earlier:
            return self._subject_token(s, earlier[-1], names, seen | {verb.id})
        if verb.person is None:
            return USER, None  # a past tense with no subject ("купила"): the speaker
        return None, None

    def _companions(self, s: Sentence, subject: Token | None, verb: Token,
                    names: dict[str, str]) -> list[str]:
        """People a plural subject takes along: "мы с мужем Андреем живём", "Светлана с
        сыном Кириллом остались": the named person after "с", beside the subject."""
        if verb.number != "Plur" and verb.person != "1":
            return []
        start = s.position[subject.id] + 1 if subject is not None else 0
        found: list[str] = []
        tokens = s.tokens
        for i in range(start, s.position[verb.id]):
            if tokens[i].text.lower() in COMITATIVE and tokens[i].pos == "ADP":
                for t in tokens[i + 1:i + 4]:
                    name = names.get(t.id)
                    if name and self.mentions[name].type is EntityType.PERSON:
                        found.append(name)
                        break
            elif subject is None and tokens[i].pos in ("VERB", "AUX"):
                break
        if subject is None and not (verb.person == "1" and any(
                t.text.lower() in ("мы",) for t in s.in_clause(verb))):
            return []
        return list(dict.fromkeys(found))

    def _who(self, s: Sentence, token: Token, names: dict[str, str]) -> str | None:
        if token.pos == "PRON" and token.lemma in SELF:
            return USER
        if token.pos in ("PRON", "PART") and token.text.lower() in THIRD:  # ("У неё": PART)
            # "Сыну Тимуру девять лет, он занимается хоккеем": the last person named before
            wanted = "Fem" if token.text.lower() in SHE else "Masc"
            people = [m.name for m in self.mentions.values()
                      if m.type in (EntityType.PERSON, EntityType.PET)
                      and self.first_at.get(m.name, len(self.text)) < token.start
                      and self.gender.get(m.name, wanted) == wanted]
            if people:
                return people[-1]
            # "Мама живёт в Челнах, у неё диабет": a relative named by role alone before
            roles = [kin.role_of(t.text) for t in s.before(token) if t.pos in ("NOUN", "PROPN")
                     and t.gender == wanted and kin.role_of(t.text)]
            return ROLE_PREFIX + roles[-1] if roles and roles[-1] else None
        if token.id in names:
            return names[token.id]
        role = kin.role_of(token.text)
        if role is not None:
            if someone_elses(s, token):
                return None  # "её мама живёт в Туле": not the speaker's mother
            for child in self._beside(s, token):
                if child.id in names and apposed(token.text, child.text) and not (
                        s.preposition(child)):  # "мама в кемерово": no one's name
                    return names[child.id]
            # "Мама, Людмила Петровна, живёт одна": the relative this statement named so
            alias = kin.role_name(role, "ru")
            named = [m.name for m in self.mentions.values() if m.type is EntityType.PERSON
                     and alias in m.aliases]
            return named[0] if len(named) == 1 else ROLE_PREFIX + role
        if token.pos in ("NOUN", "PROPN"):  # "подруга Лена", "Внук Стёпа": the name beside
            for child in self._beside(s, token):
                if child.id in names and self.mentions[names[child.id]].type is EntityType.PERSON:
                    return names[child.id]
        return None

    def _target(self, s: Sentence, token: Token, names: dict[str, str],
                kind: EntityType) -> str | None:
        """The named entity of ``kind`` a verb's argument is (itself, or a name beside it:
        "в компании «Волга-Сервис»")."""
        beside = [t for t in s.kids(token, "appos", "flat", "nmod")
                  if s.preposition(t) in ("", "в", "во", "на")]  # not "в деревне под Липецком"
        for candidate in (token, *beside):
            name = names.get(candidate.id)
            mention = self.mentions.get(name) if name else None
            if mention is not None and mention.type is kind:
                return name
        if kind is EntityType.PLACE and token.pos == "PROPN":
            return self._mention(name_nominative(token.text, token.case), EntityType.PLACE)
        return None

    def _verb(self, s: Sentence, verb: Token, names: dict[str, str]) -> None:
        lem = verb.lemma
        if lem not in WORK and any(k.lemma == "работа" for k in s.kids(verb, "obj")):
            lem = "работать"  # "нашла работу в «Эрмитаже»": working there ("езжу на работу": no)
        if lem == "дружить":
            self._friends(s, verb, names)
        if lem in COME_FROM:
            self._come_from(s, verb, names)
        if lem in ENTER:
            self._entered(s, verb, names)
        if lem not in (LIVE | WORK | STUDY | OWN | DO | PLAY | GO | MEMBER | ILL):
            return
        head = s.head_of(verb)
        if verb.rel == "xcomp" and head is not None and head.lemma in WISH | PERSUADE:
            return  # "хочет работать в «Касперском»", "уговаривает перейти": not so yet
        who, subject = self._subject_token(s, verb, names)
        # its arguments in the tree, unless the parser took them from another clause with a
        # verb of its own, and the clause's nouns the parser hung elsewhere ("живёт одна в
        # Липецке": on "одна")
        clauses_with_verbs = {s.clause[t.id] for t in s.tokens if t.pos in ("VERB", "AUX")}
        args = [t for t in s.kids(verb, "obl", "obj", "xcomp", "iobj", "nmod")
                if s.clause[t.id] == s.clause[verb.id] or s.clause[t.id] not in clauses_with_verbs]
        taken = {t.id for t in args} | {verb.id} | ({subject.id} if subject else set())
        args += [t for t in s.in_clause(verb) if t.id not in taken
                 and t.pos in ("NOUN", "PROPN")
                 and not (t.head in s.by_id and s.by_id[t.head].pos in ("VERB", "AUX")
                          and t.head != verb.id and s.clause[t.head] == s.clause[verb.id])]
        if lem in GIVE:
            given = [t for t in s.in_clause(verb) if t.case == "Dat" and t.pos in (
                "PRON", "PROPN", "NOUN")]
            who = self._who(s, given[0], names) if given else None  # "мне подарили планшет"
        elif lem in OWN:  # "Купил Матвею айфон", "Насте купили ноутбук": the one it was for
            who = self._dative(s, verb, names) or who
        along: list[str] = []
        if lem in DO | PLAY | GO:  # "хожу на ходьбу с соседкой, Зинаидой Ивановной": she does too
            along = [p for p in self._with(s, verb, names) if p != who]
        for person in dict.fromkeys([who, *self._companions(s, subject, verb, names), *along]):
            self._verb_links(s, verb, lem, person, args, names)

    def _entered(self, s: Sentence, verb: Token, names: dict[str, str]) -> None:
        """"Тёму взяли в гимназию №7", "аню взяли в штат в точку", "Олег вышел на ГАЗ",
        "Взяли главным инженером в «Унистрой»": who is taken into (or goes to) an organisation
        named after "в" / "на" studies there when it is a school (``educational``), else works
        there when the verb says a job. Who: the person the verb takes in the accusative;
        for "выйти", "пойти", "перевестись" or a job said in the instrumental, its subject."""
        head = s.head_of(verb)
        if verb.rel == "xcomp" and head is not None and head.lemma in WISH | PERSUADE:
            return  # "хочет перейти", "зовут выйти": not so yet
        clause = s.in_clause(verb)
        places = [(t, org) for t in clause if s.preposition(t) in ("в", "во", "на")
                  and s.position[t.id] > s.position[verb.id] - 4
                  and (org := self._target(s, t, names, EntityType.ORGANISATION)) is not None]
        if not places:
            return
        def someone(who: str | None) -> bool:
            return who is not None and (who == USER or who.startswith(ROLE_PREFIX) or (
                who in self.mentions and self.mentions[who].type is EntityType.PERSON))

        held = None
        objects = s.kids(verb, "obj", "iobj")  # (the tagger's case of a name is often wrong:
        for t in [*objects, *clause]:  # "Тёму взяли" Gen, "Амину отдали" Dat)
            if (t.case == "Acc" or t in objects) and not s.preposition(t) and t.pos in (
                    "PRON", "PROPN", "NOUN"):
                who = self._who(s, t, names)
                if someone(who):
                    held = who
                    break
        job = any(t.case == "Ins" and t.pos == "NOUN" and not s.preposition(t)
                  and t.id not in names and job_noun(t.lemma) for t in clause)
        if held is None and (verb.lemma in ENTER_SELF or job):
            held, subject = self._subject_token(s, verb, names)
            if subject is None and verb.person != "1":
                # no subject said: "Взяли водителем в Почту России" after another's sentence
                # is theirs (the job's holder works there: ``pairs._job_firms``); "Сыну
                # Тимофею семь, пошёл в первый класс" the person named before, of its gender
                named = [names[u.id] for u in s.before(verb) if u.id in names
                         and self.mentions[names[u.id]].type is EntityType.PERSON
                         and self.gender.get(names[u.id], verb.gender) == verb.gender] or [
                    m.name for m in sorted(self.mentions.values(), key=lambda m: self.first_at.get(
                        m.name, len(self.text))) if m.type is EntityType.PERSON
                    and self.first_at.get(m.name, len(self.text)) < s.tokens[0].start
                    and self.gender.get(m.name, verb.gender) == verb.gender]  # a sentence before
                held = named[-1] if named else (
                    USER if verb.number == "Sing" and verb.lemma in ENTER_SELF else None)
        if not someone(held):
            return
        for t, org in places:
            if educational(org) or educational(t.lemma):
                self._link(held, "studies_at", org)
            elif verb.lemma in ENTER_WORK or job:
                self._link(held, "works_at", org)

    def _come_from(self, s: Sentence, verb: Token, names: dict[str, str]) -> None:
        """"Мама прилетела из Уфы", "мама звонила из новосиба": someone other than the speaker
        who comes or calls from a town lives there (the speaker coming back from one does not)."""
        who, _subject = self._subject_token(s, verb, names)
        if who is None or who == USER:
            return
        for t in s.kids(verb, "obl", "nmod"):
            place = names.get(t.id)
            if place and s.preposition(t) == "из" and self.mentions[place].type is (
                    EntityType.PLACE):
                self._link(who, "lives_in", place)

    def _with(self, s: Sentence, verb: Token, names: dict[str, str]) -> list[str]:
        """The people a verb's clause (or the apposition after it) names after "с" / "со":
        "с соседкой, Зинаидой Ивановной", "с Вованом"."""
        found: list[str] = []
        tokens = s.tokens
        for i, t in enumerate(tokens):
            if t.text.lower() not in COMITATIVE or t.pos != "ADP" or (
                    s.clause[t.id] != s.clause[verb.id]):
                continue
            for u in tokens[i + 1:i + 5]:
                name = names.get(u.id)
                if name and self.mentions[name].type is EntityType.PERSON:
                    found.append(name)
                    break
                if u.pos in ("VERB", "AUX"):
                    break
        return found

    def _dative(self, s: Sentence, verb: Token, names: dict[str, str]) -> str | None:
        """The person a verb's clause names in the dative with no preposition ("Кате
        поставили", "купил Матвею", "мне купили"), or None."""
        for t in s.in_clause(verb):
            if t.case == "Dat" and t.pos in ("PRON", "PROPN", "NOUN") and not s.preposition(t):
                who = self._who(s, t, names)
                if who is not None and (who == USER or who.startswith(ROLE_PREFIX) or (
                        who in self.mentions
                        and self.mentions[who].type is EntityType.PERSON)):
                    return who
        return None

    def _friends(self, s: Sentence, verb: Token, names: dict[str, str]) -> None:
        """"дружу с Леной", "(Дима Соколов, с универа дружим)": the one "с" names, else, for
        "we are friends", the person the sentence named before."""
        who = self._subject(s, verb, names)
        people = [names[t.id] for t in s.in_clause(verb) if t.id in names
                  and s.preposition(t) in ("с", "со")
                  and self.mentions[names[t.id]].type is EntityType.PERSON]
        if not people and verb.person == "1" and verb.number == "Plur":
            people = [names[t.id] for t in s.before(verb) if t.id in names
                      and self.mentions[names[t.id]].type is EntityType.PERSON][-1:]
        for person in people:
            self._link(who or USER, "friend_of", person)

    def _verb_links(self, s: Sentence, verb: Token, lem: str, who: str | None,
                    args: list[Token], names: dict[str, str]) -> None:
        if lem in LIVE:
            for arg in args:
                if s.preposition(arg) in ("в", "во", "на"):
                    self._link(who, "lives_in", self._target(s, arg, names, EntityType.PLACE))
        if lem in WORK | STUDY | MEMBER:
            for arg in args:
                place = names.get(arg.id)
                if place and self.mentions[place].type is EntityType.PLACE and (
                        abbreviation(place) or self._works_on(s, arg, lem)):
                    self._retype(place, EntityType.ORGANISATION)  # "учится в УрФУ"
                elif (place and lem in WORK and s.preposition(arg) in ("в", "во")
                      and self.mentions[place].type is EntityType.PLACE):
                    self._link(who, "lives_in", place)  # "служит в Мурманске"
                org = self._target(s, arg, names, EntityType.ORGANISATION)
                if org is not None and s.preposition(arg) in ("в", "во", "на", ""):
                    link = ("studies_at" if lem in STUDY else "works_at" if lem in WORK
                            else "member_of")
                    self._link(who, link, org)
                if (lem in WORK and arg.case == "Ins" and arg.pos == "NOUN"
                        and not s.preposition(arg) and arg.id not in names
                        and (arg.animate or job_noun(arg.lemma))):  # not "ночью ушёл"
                    # "работает водителем (в «Волга-Транс»)": the occupation, beside the place
                    job = self._thing(s, arg, EntityType.OCCUPATION, names)
                    self._link(who, "works_as", job)
                if org is not None:
                    continue
                if lem in WORK | MEMBER and arg.lemma in lexicon.GROUP_NOUNS:
                    group = self._target(s, arg, names, EntityType.ORGANISATION)
                    self._link(who, "member_of", group)
                elif lem in WORK | MEMBER and arg.lemma in lexicon.PROJECT_NOUNS:
                    self._link(who, "part_of", self._target(s, arg, names, EntityType.PROJECT))
        if lem in OWN:  # (not when wished: "хочет завести кошку" is not owned yet)
            objects = s.kids(verb, "obj")
            objects += [a for a in args if a.case == "Acc" and a not in objects
                        and not s.preposition(a)]
            for arg in objects:
                self._owned(s, arg, who, names)
        if lem in DO | PLAY | GO:
            for arg in args:
                kind = noun_kind(arg.lemma)  # a verb of doing: a learned kind is trusted
                if kind is EntityType.HOBBY or (lem in DO and arg.case == "Ins"
                                                and arg.pos == "NOUN" and kind is None
                                                and not arg.animate and not s.preposition(arg)):
                    self._link(who, "does", self._thing(s, arg, EntityType.HOBBY, names))
        if lem in ILL:
            for arg in args:
                if noun_kind(arg.lemma) is EntityType.ILLNESS:
                    self._link(who, "has_condition",
                               self._thing(s, arg, EntityType.ILLNESS, names))

    def _noun(self, s: Sentence, noun: Token, names: dict[str, str]) -> None:
        """"подруга Лена", "мой парень Костя", "проект «Альфа»", "я инженер": relations a
        noun states itself."""
        self._kin(s, noun, names)
        self._children(s, noun, names)
        if noun.lemma in PARTNER and self._owner(s, noun) == USER:
            for child in self._beside(s, noun):
                name = names.get(child.id)
                if name and self.mentions[name].type is EntityType.PERSON:
                    self._mention(name, EntityType.PERSON, (noun.lemma,))
                    self._link(USER, f"kin:{PARTNER_ROLE[noun.lemma]}", name)
        role = MORE_KIN.get(noun.lemma)
        if role is not None and (self._owner(s, noun) == USER or noun.start == s.tokens[0].start):
            for child in self._beside(s, noun):
                name = names.get(child.id)
                if name and self.mentions[name].type is EntityType.PERSON:
                    self._mention(name, EntityType.PERSON, (noun.lemma,))
                    self._link(USER, kin_link(role), name)
        if self._occupation_of_user(s, noun):
            self._link(USER, "works_as", self._thing(s, noun, EntityType.OCCUPATION, names))
        elif (who := self._occupation_of_named(s, noun, names)) is not None:
            self._link(who, "works_as", self._thing(s, noun, EntityType.OCCUPATION, names))
            self._job_place(s, noun, who, names, clause=True)
        elif (who := self._job_subject(s, noun, names)) is not None:
            # "он программист в Яндексе", "Олег у неё мастером на руднике": the job's subject
            self._link(who, "works_as", self._thing(s, noun, EntityType.OCCUPATION, names))
            self._job_place(s, noun, who, names)
        elif (noun.animate and noun.case == "Nom" and kin.role_of(noun.text) is None
              and MORE_KIN.get(noun.lemma) is None and lexicon.kind_of(noun.lemma) is None
              and noun.lemma not in lexicon.FRIEND_NOUNS | PARTNER and job_noun(noun.lemma)):
            # "Тренер Игорь Палыч", "Терапевт моя, Марина Олеговна", "учительница у них Ольга
            # Викторовна": a job beside a name is that person's
            person = next((names[c.id] for c in self._beside(s, noun) if c.id in names
                           and self.mentions[names[c.id]].type is EntityType.PERSON), None)
            speaker = any(t.pos == "PRON" and t.lemma == "я" for t in s.before(noun)
                          if s.clause[t.id] >= s.clause[noun.id] - 1)  # "Я Игорь, программист"
            if person is not None and not speaker:
                self._link(person, "works_as", self._thing(s, noun, EntityType.OCCUPATION, names))
        if noun.lemma in lexicon.FRIEND_NOUNS and not someone_elses(s, noun):
            owner = self._owner(s, noun)
            earlier = [t for t in s.before(noun) if t.pos != "ADJ"]
            if len(earlier) >= 2 and earlier[-1].text in ("—", "–", "-") and (
                    earlier[-2].id in names):  # "Тамара Петровна — самая близкая подруга"
                named = names[earlier[-2].id]
                if self.mentions[named].type is EntityType.PERSON:
                    self._link(owner or USER, "friend_of", named)
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

    def _verbless(self, s: Sentence, names: dict[str, str]) -> None:
        """Clauses with no verb, as chat writes them: "Брат Денис в Ростове", "Катя в ИФНС
        №5, инспектор", "Света вышла на работу, кассиром в ВТБ": a place after "в" / "на" is
        where the last person named in the nominative before it lives, an organisation where
        they work, a job in the instrumental (or set off by a comma) what they do.
        After a verb of leaving a job ("катя ушла из озона, теперь в яндексе", or in the
        sentence before one with no verb, "Олег ушёл из «X»! С понедельника в «Y»"), an
        organisation in a clause that says now (``_now``) is where the leaver works."""
        with_verbs = {s.clause[t.id] for t in s.tokens if t.pos in ("VERB", "AUX")}
        done: set[str] = set()
        for t in s.tokens:
            if s.clause[t.id] in with_verbs:
                continue
            name = names.get(t.id)
            mention = self.mentions.get(name) if name else None
            job = (t.pos == "NOUN" and t.id not in names and not s.preposition(t) and (
                (t.case == "Ins" and t.animate and person_instrumental(t.text) is not None
                 and job_noun(t.lemma))
                or (t.case == "Nom" and t.text.islower() and s.position[t.id] > 0
                    and (s.tokens[s.position[t.id] - 1].text == "," or any(
                        kin.role_of(u.text) for u in s.before(t)))  # "муж у меня водитель"
                    and kin.role_of(t.text) is None and job_noun(t.lemma))))
            if (not job and t.pos == "NOUN" and t.id not in names and not with_verbs
                    and s.preposition(t) in ("на", "в") and noun_kind(t.lemma) is EntityType.HOBBY):
                # "С Вованом в субботу на рыбалку": no verb, no one named doing it: the
                # speaker, and whoever goes along
                hobby = self._thing(s, t, EntityType.HOBBY, names)
                for person in dict.fromkeys([USER, *self._with(s, t, names)]):
                    self._link(person, "does", hobby)
                continue
            if not job and (mention is None or name in done or s.preposition(t) not in (
                    "в", "во", "на") or mention.type not in (EntityType.PLACE,
                                                             EntityType.ORGANISATION)):
                continue
            who = None
            we = False
            for u in reversed(s.before(t)):
                if u.pos in ("VERB", "AUX"):
                    if mention is not None and mention.type is EntityType.ORGANISATION and (
                            self._now(s, t)):
                        # "катя ушла из озона, теперь в яндексе"
                        who = self._leaver(s, u, names, self.previous)
                    break  # "Андрюша звонил, ... станция в Турции": a verb between, not theirs
                if u.pos == "PRON" and u.lemma in ("я", "мы") and u.case in ("Nom", None):
                    who = USER  # "я в питере", "всё, мы в Тюмени": the speaker (and who
                    we = u.lemma == "мы"  # "мы с Викой" takes along)
                elif (u.id in names and u.case in ("Nom", None) and names[u.id] != name
                      and not s.preposition(u)
                      and self.mentions[names[u.id]].type is EntityType.PERSON):
                    who = names[u.id]
                    earlier = s.before(u)[-2:]  # "Я Игорь, программист": the speaker's name
                    if (earlier and earlier[-1].lemma == "я") or (
                            len(earlier) == 2 and earlier[0].lemma == "я" and earlier[1].text in "—-"):
                        who = USER
                elif u.id not in names and u.case in ("Nom", None) and (
                        (u.pos in ("NOUN", "PROPN") and kin.role_of(u.text) is not None)
                        or (u.pos == "PRON" and u.text.lower() in ("он", "она"))):
                    # "батя в новосибе", "Мама в Нижнем Тагиле", "он сейчас в новосибе": the
                    # relative the role names (or the person the pronoun stands for)
                    who = self._who(s, u, names)
                if who is not None:
                    break
            if (who is None and self.previous is not None and mention is not None
                    and mention.type is EntityType.ORGANISATION and self._now(s, t)
                    and not any(u.pos in ("VERB", "AUX") for u in s.tokens)):
                # "Олег ушёл из «Уралстройресурса»! С понедельника в «Бруснике»": the one who
                # left in the sentence before, when this one has no verb at all
                before, before_names = self.previous
                verbs = [u for u in before.tokens if u.pos in ("VERB", "AUX")]
                if verbs:
                    who = self._leaver(before, verbs[-1], before_names)
            if who is None or (we and where_to(t.text)):
                continue  # "А мы с Вероникой к бабушке в Каменск": where we go, not are
            if job:
                self._link(who, "works_as", self._thing(s, t, EntityType.OCCUPATION, names))
                continue
            done.add(str(name))
            if who == USER and mention is not None and mention.type is EntityType.PLACE and any(
                    u is not t and u.pos == "NOUN" and u.id not in names
                    and s.preposition(u) in ("в", "во", "на") for u in s.in_clause(t)):
                # "Я в отпуске в Анапе", "я в Казани в командировке": the speaker's own "в / на
                # + noun" beside the town says a stay as often as a home; the pair model reads
                # it (another person's "брат в Ростове на заводе" is where they live: round
                # thirty-one of h/world32 measured it on the older authors)
                continue
            if Link(who, "studies_at", str(name)) in self.links:
                continue  # "Гоша, в 7 классе, в 112-й школе": a pupil (``_grade``)
            kind = "lives_in" if mention is not None and mention.type is (
                EntityType.PLACE) else "works_at"
            for person in dict.fromkeys([who, *(self._with(s, t, names) if we else ())]):
                self._link(person, kind, name)

    @staticmethod
    def _now(s: Sentence, t: Token) -> bool:
        """Whether the clause of ``t`` says now, after a change: "теперь", "сейчас" / "щас",
        "с понедельника" before ``t``."""
        clause = [u for u in s.in_clause(t) if s.position[u.id] < s.position[t.id]]
        return any(u.text.lower() in NOW or (u.lemma == "понедельник" and s.preposition(u) in (
            "с", "со")) for u in clause)

    def _leaver(self, s: Sentence, verb: Token, names: dict[str, str],
                earlier: tuple[Sentence, dict[str, str]] | None = None) -> str | None:
        """Who leaves a job with ``verb`` ("катя ушла из озона", "Ушел из Деловых", "Олег
        уволился с завода"): its subject; with none said, the person the sentence before
        (``earlier``) named, else the speaker; None when the verb is no leaving
        of a place ("из" / "с" before a noun in its clause), is denied or only wished."""
        if verb.lemma not in LEAVE or verb.number == "Plur":
            return None  # (one person changes a job: "мы ушли из кино" is an outing)
        clause = s.in_clause(verb)
        if not any(u.pos in ("NOUN", "PROPN") and s.preposition(u) in ("из", "изо", "с", "со")
                   and s.position[u.id] > s.position[verb.id] for u in clause):
            return None
        head = s.head_of(verb)
        if any(u.text.lower() == "не" for u in s.kids(verb, "advmod")) or (
                verb.rel == "xcomp" and head is not None and head.lemma in WISH | PERSUADE):
            return None  # "не ушла", "хочет уйти": no change yet
        who, subject = self._subject_token(s, verb, names)
        if subject is None and verb.person != "1" and earlier is not None:
            # "Олег сменил работу! Ушёл с АвтоВАЗа, теперь ...": no subject said, the person
            # the sentence before named, of the verb's gender; the speaker when it named none
            # ("Мама в Туле. Ушла с завода": the relative the role names)
            named = [(found, u.gender) for u in earlier[0].tokens if u.case in ("Nom", None)
                     and not earlier[0].preposition(u) and (
                         (u.id in earlier[1]
                          and self.mentions[earlier[1][u.id]].type is EntityType.PERSON)
                         or (u.pos in ("NOUN", "PROPN") and kin.role_of(u.text) is not None))
                     and (found := self._who(earlier[0], u, earlier[1])) is not None]
            fits = [n for n, gender in named
                    if self.gender.get(n, gender or verb.gender) == verb.gender]
            who = fits[-1] if fits else None if named else who
        if who is None or not (who == USER or who.startswith(ROLE_PREFIX) or (
                who in self.mentions and self.mentions[who].type is EntityType.PERSON)):
            return None
        return who

    def _grade(self, s: Sentence, names: dict[str, str]) -> None:
        """"Гоша, в 7 классе, в 112-й школе", "Тимоша у нас в третьем классе 12-й школы",
        "Максим на втором курсе УрФУ": a year of school or of study ("в N классе", "на N
        курсе"), an organisation named within the next few words, is where the person the
        clause named before it (or "я") studies."""
        for t in s.tokens:
            if t.lemma not in ("класс", "курс") or s.preposition(t) not in ("в", "во", "на"):
                continue
            if not any(k.pos in ("ADJ", "NUM") or k.text[:1].isdigit()
                       for k in s.kids(t, "amod", "nummod", "det")):
                continue
            at = s.position[t.id]
            org = next((names[u.id] for u in s.tokens[at + 1:at + 6] if u.id in names
                        and self.mentions[names[u.id]].type is EntityType.ORGANISATION), None)
            if org is None:
                continue
            who = None
            for u in reversed(s.before(t)):
                if u.pos in ("VERB", "AUX"):
                    break
                if u.pos == "PRON" and u.lemma == "я":
                    who = USER
                elif u.id in names and not s.preposition(u) and (
                        self.mentions[names[u.id]].type is EntityType.PERSON):
                    who = names[u.id]
                elif u.pos == "PRON" and u.text.lower() in ("он", "она"):
                    who = self._who(s, u, names)
                if who is not None:
                    break
            self._link(who, "studies_at", org)

    def _own_business(self, s: Sentence, names: dict[str, str]) -> None:
        """"у него свой автосервис «Гараж 54»", "Свой автосервис «Мотор-Сервис», 6 человек в
        штате", "открыла свою кофейню «Зерно»", "у нее свой салон на уралмаше, называется
        Локон": a business said to be one's own ("свой"), named in the same sentence, is
        where its owner works. The owner: whom "у" names before it, else the subject of the
        verb that opens or keeps it, else (no verb) the speaker; not under a wish or a
        denial ("хочет открыть свою кофейню", "своего бизнеса нет")."""
        for own in s.tokens:
            if own.text.lower() not in OWN_FORMS or own.pos not in ("DET", "ADJ", "PRON"):
                continue
            at = s.position[own.id]  # its noun (the parser may hang "свой" on the name)
            noun = next((u for u in s.tokens[at + 1:at + 4] if u.pos in ("NOUN", "PROPN")
                         or u.text in ("«", '"')), None)
            # a business said by its kind: "свой «Локон»", "свою Kia" is a name, no business
            if noun is None or not ((noun.pos == "NOUN" and noun.text.islower()) or (
                    noun.pos == "PROPN" and noun.id not in names and noun.text[1:].islower()
                    and known_word(noun.text))) or kin.role_of(noun.text) or person_noun(
                    noun.lemma) or job_noun(noun.lemma):
                continue  # "свою дочку", "свой мастер": a person, not a business
            org = None
            for u in s.tokens[s.position[noun.id]:s.position[noun.id] + 9]:
                name = names.get(u.id)
                if name and self.mentions[name].type is EntityType.ORGANISATION:
                    org = name
                    break
                if u.text in (".", "!", "?", ";") or (
                        u.pos in ("VERB", "AUX") and u.lemma not in NAMING | {"называться"}):
                    break
            if org is None:
                continue
            clause = s.in_clause(own)
            if any(u.text.lower() in ("не", "нет", "ни") for u in clause):
                continue
            verb = s.head_of(noun)
            while verb is not None and verb.pos not in ("VERB", "AUX"):
                verb = s.head_of(verb) if verb.rel in ("obj", "nmod", "appos", "conj") else None
            if verb is not None and (verb.lemma in WISH | PERSUADE | GAVE_UP or (
                    verb.rel == "xcomp" and (above := s.head_of(verb)) is not None
                    and above.lemma in WISH | PERSUADE)):
                continue
            owner = None
            before = [u for u in s.before(own) if s.clause[u.id] == s.clause[own.id]]
            for i, u in enumerate(before[:-1]):
                if u.text.lower() == "у" and u.pos == "ADP":
                    held = before[i + 1]  # "Алина парикмахер, у неё свой салон": Алина
                    wanted = "Fem" if held.text.lower() in SHE else "Masc"
                    named = [names[v.id] for v in s.before(u) if v.id in names
                             and not s.preposition(v)
                             and self.mentions[names[v.id]].type is EntityType.PERSON
                             and self.gender.get(names[v.id], wanted) == wanted]
                    owner = named[-1] if named and held.text.lower() in THIRD else self._who(
                        s, held, names)
            if owner is None and verb is not None:  # "открыла свою кофейню", "6 лет уже держу"
                owner, _subject = self._subject_token(s, verb, names)
            if owner is None and verb is None and not any(
                    u.pos in ("VERB", "AUX") for u in clause):
                # a person named before it in the sentence ("Зять, Андрей, ... своё дело"),
                # else the speaker ("Руслан, 41 год, Казань. свой автосервис «Мотор-Сервис»")
                people = [names[u.id] for u in s.before(own) if u.id in names
                          and s.preposition(u) in ("", "с", "со")
                          and self.mentions[names[u.id]].type is EntityType.PERSON]
                owner = people[-1] if people else USER
            if owner is not None and (owner in (USER,) or owner.startswith(ROLE_PREFIX) or (
                    owner in self.mentions
                    and self.mentions[owner].type is EntityType.PERSON)):
                self._link(owner, "works_at", org)

    @staticmethod
    def _beside(s: Sentence, noun: Token) -> list[Token]:
        """The name a role-like noun stands beside: its apposition ("подруга Лена"), the
        name it modifies when the parser hung it the other way ("Мой парень Костя"), or the
        proper noun right after it in the same case when the parser made them two subjects
        ("Мой друг Тимур открыл")."""
        found = s.kids(noun, "appos", "flat", "nmod")
        head = s.head_of(noun)
        if head is not None and head.pos == "PROPN" and noun.rel in ("amod", "appos", "nmod"):
            found.append(head)
        at = s.position[noun.id] + 1
        # "Муж у меня Виктор", "Сын мой Андрей", "Сестра моя младшая, Людмила", "мужа,
        # Николая": whose it is, how it is and a comma stand between the role and the name
        skipped = 0
        while at + 1 < len(s.tokens) and skipped < 4:
            t = s.tokens[at]
            if t.text == "," or t.text.lower() in POSSESSIVE or (
                    t.pos == "ADJ" and t.text.islower()):
                at, skipped = at + 1, skipped + 1
            elif (t.text.lower() == "у" and at + 2 < len(s.tokens) and (
                    s.tokens[at + 1].text.lower() in SELF | THIRD | {"них"})):
                at, skipped = at + 2, skipped + 2
            else:
                break
        while at + 1 < len(s.tokens) and s.tokens[at].pos == "PROPN" and not apposed(
                noun.text, s.tokens[at].text):
            at += 1  # "сестра Андрея Юля": past the one whose she is
        if at < len(s.tokens):
            after = s.tokens[at]
            if after.pos == "PROPN" and after not in found and (
                    after.case == noun.case or None in (after.case, noun.case)):
                found.append(after)
        return found

    def _children(self, s: Sentence, noun: Token, names: dict[str, str]) -> None:
        """"У него жена Светлана и двое детей — Ванечка и Полиночка", "Детей двое: Полина и
        Матвей", "Пацанов двое, Амир 12 лет и Карим 7", "двое детей. Тимур 14 лет, Амина 8",
        "дочек две. камила ...": the people named after the children's noun (past whose they
        are and how many), after a dash, a colon or a comma, or opening the next sentence when
        a count closed this one, are the owner's sons and daughters (a noun of sons or of
        daughters says which; else the name's gender in pymorphy's dictionary; "Саша" stays
        unread); no more of them than the count."""
        role = _CHILDREN.get(noun.lemma)
        if role is None or noun.number != "Plur":
            return
        at = s.position[noun.id]
        rest = s.tokens[at + 1:]
        before = s.before(noun)
        count = next((_COUNTS[t.text.lower()] for t in [*before[-1:], *rest[:3]]
                      if t.text.lower() in _COUNTS), None)
        while rest and (rest[0].text.lower() in ("у", "нас", "меня", "него", "неё", "нее", "них")
                        or rest[0].text.lower() in _COUNTS or numeral(rest[0].text)):
            rest = rest[1:]  # "Детей у нас двое:", "детей двое —"
        if rest and rest[0].text in ("—", "–", ":", "-", ","):
            people = [t for t in rest[1:]]
            found = names
        elif rest and count is not None and rest[0].id in names:
            people, found = list(rest), names  # "двое пацанов Тимур и Айдар"
        elif (not rest or rest[0].text == ".") and count is not None and self.following:
            # "двое детей. Тимур 14 лет, Амина 8": the names said as subjects there
            people = [t for t in self.following.tokens
                      if t.case in (None, "Nom") and not self.following.preposition(t)]
            found = self._named(self.following)
        else:
            return
        if count is None and noun.lemma in ("пацан", "мальчик"):
            return  # "с пацанами, серега и макс": friends, unless counted as one's own
        if role == "child" and count is None and rest[0].text == ",":
            return  # "дети, Олег и я": no count, a comma: not a list of them
        owner = self._kin_owner(s, noun, names)
        if people and people[0] is rest[0] and owner == names.get(rest[0].id):
            owner = USER  # "двое пацанов Тимур и Айдар": the first of them is no owner
        if owner is None:
            return
        children: list[str] = []
        last = -9
        for i, t in enumerate(people):
            name = found.get(t.id)
            if name is None or self.mentions[name].type is not EntityType.PERSON or (
                    name == owner or name in children or len(name.split()) > 1):
                continue  # ("Светлана Игоревна": a grown-up, no child of the list)
            if i == last + 2 and people[i - 1].text == "," and name[:1] == children[-1][:1] and (
                    name_gender(name) == name_gender(children[-1])):
                continue  # "Тимофей, Тёма, ему 9": the same child by another name (not "Миша, Аня")
            children.append(name)
            last = i
        for name in children[:count] if count else children:
            gender = name_gender(name)
            kind = role if role != "child" else None if gender is None else (
                "son" if gender == "Masc" else "daughter")
            if kind is not None:
                self._link(owner, kin_link(kind), name)

    def _relative_by_role(self, s: Sentence, noun: Token, names: dict[str, str]) -> None:
        """"Мама прилетела из Уфы", "папа умер пять лет назад", "живу с мамой": a relative
        said by the role alone, nobody else's, is the speaker's: a kin link to the role, which
        the writer resolves to the relative the person named before, or to one entity of its
        own until the name comes (``ROLE_PREFIX``). Not when this statement names them."""
        role = kin.role_of(noun.text)
        if role is None or self._kin_owner(s, noun, names) != USER or any(
                k.lemma == "я" for k in s.kids(noun, "nsubj")) or any(
                t.lemma == "я" or t.text.lower() in ("ни", "нет", "без")
                for t in s.before(noun)[-1:]):
            return  # "я мама двоих детей", "ни братьев, ни сестёр": no relative of theirs
        after = [t.text.lower() for t in s.tokens[s.position[noun.id] + 1:][:2]]
        if (after[:1] and after[0] in OTHERS) or after in (["у", "него"], ["у", "неё"], [
                "у", "нее"], ["у", "них"]) or any(
                m.start() < noun.start < m.end() for m in _QUOTED.finditer(self.text)):
            return  # "Дочь её, Лариса", "жена у него", "«Мать и дитя»": not the speaker's
        alias = kin.role_name(role, "ru")
        if any(m.type is EntityType.PERSON and alias in m.aliases
               for m in self.mentions.values()):
            return  # "Мама, Людмила Петровна, ..." then "мама": the one named
        self._link(USER, kin_link(role), ROLE_PREFIX + role)

    def _kin_owner(self, s: Sentence, noun: Token, names: dict[str, str]) -> str | None:
        """Whose relative a role noun names: the speaker's ("мой", "наша", or nobody else's
        named: "а сын Миша", "с мужем Андреем" when the speaker is the one "с" it), a named
        person's ("сестра Андрея Юля", "у Олега сын Тимур", "Наташа с сыном Лёшей"), or
        nobody we know ("её парень": None)."""
        for det in s.kids(noun, "det"):
            if det.text.lower() in POSSESSIVE:
                return USER
        before = s.before(noun)
        whose = name_of_possessive(before[-1].text) if before else None
        if whose is not None:  # "Витин брат Геннадий": Витя's
            name = self._mention(full_name(whose), EntityType.PERSON, (whose,))
            self.first_at.setdefault(name, before[-1].start)
            return name
        if someone_elses(s, noun):
            return None
        before = s.before(noun)
        if before and before[-1].text.lower() in POSSESSIVE:
            return USER
        at = s.position[noun.id]
        after = s.tokens[at + 1] if at + 1 < len(s.tokens) else None
        if after is not None and after.id in names and not apposed(noun.text, after.text):
            owner = names[after.id]  # "сестра Андрея Юля"
            return owner if self.mentions[owner].type is EntityType.PERSON else None
        clause = [t for t in s.in_clause(noun) if s.position[t.id] < at]
        for i, t in enumerate(clause):
            if t.text.lower() == "у" and t.pos == "ADP" and i + 1 < len(clause):
                return self._who(s, clause[i + 1], names)  # "у Олега сын Тимур"
        if before and before[-1].text.lower() in COMITATIVE:
            verb = s.head_of(noun)
            walked = {noun.id}
            while verb is not None and verb.pos not in ("VERB", "AUX"):
                if verb.id in walked:  # the parser's tree can hold a cycle: stop, no verb found
                    verb = None
                    break
                walked.add(verb.id)
                verb = s.head_of(verb)
            later = [t for t in s.in_clause(noun) if t.pos in ("VERB", "AUX")]
            verb = verb if verb is not None and s.clause[verb.id] == s.clause[noun.id] else (
                later[0] if later else verb)
            who = self._subject(s, verb, names) if verb is not None else None
            if verb is None:  # "А дочка, Ирочка, рядом, с мужем Олегом": no verb, the one named
                named = [names[t.id] for t in before if t.id in names
                         and self.mentions[names[t.id]].type is EntityType.PERSON]
                who = named[-1] if named else None
            return who if who is not None else USER
        return USER

    def _kin(self, s: Sentence, noun: Token, names: dict[str, str]) -> None:
        """A kin role beside a name anywhere in the sentence: "а сын Миша", "с женой
        Алиной", "Наташа с сыном Лёшей" (Наташа's), "сестра Андрея Юля" (Андрей's)."""
        role = kin.role_of(noun.text) or MORE_KIN.get(noun.lemma)
        if role is None:
            return
        beside = [c for c in self._beside(s, noun) if apposed(noun.text, c.text)]
        naming = s.head_of(noun)
        if naming is not None and naming.lemma == "звать":  # "Жену Олега зовут Алсу"
            beside = [c for c in s.kids(naming, "nsubj", "obj", "xcomp") if c.id != noun.id]
        person = next((names[c.id] for c in beside if c.id in names
                       and self.mentions[names[c.id]].type is EntityType.PERSON), None)
        if person is not None or someone_elses(s, noun):
            self.named_roles.append(noun.text)
        elif kin.role_of(noun.text) is not None:
            self._relative_by_role(s, noun, names)
        before = s.before(noun)
        if person is None or (before and before[-1].pos == "NOUN" and before[-1].animate
                              and kin.role_of(before[-1].text) is None):
            return  # "соседка тётя Люба": an address, not a relative
        owner = self._kin_owner(s, noun, names)
        after = s.tokens[s.position[noun.id] + 1:][:1]
        if naming is not None and naming.lemma == "звать" and after and after[0].id in names and (
                names[after[0].id] != person):
            owner = names[after[0].id]  # "Жену Олега зовут Алсу": Олег's wife
        if owner == USER:
            alias = kin.role_name(role, "ru")
            self._mention(person, EntityType.PERSON, (alias if alias != role else noun.lemma,))
        if owner is not None and owner != person:
            self._link(owner, kin_link(role), person)

    def _occupation_of_user(self, s: Sentence, noun: Token) -> bool:
        """"Я инженер", "Я Игорь, программист": a lower-case animate noun in the nominative
        said of the speaker (no kin, friend or pet word)."""
        if not (noun.animate and noun.case == "Nom" and noun.text.islower()
                and kin.role_of(noun.text) is None and lexicon.kind_of(noun.lemma) is None
                and noun.lemma not in lexicon.FRIEND_NOUNS | PARTNER
                and not person_noun(noun.lemma)):  # "я свидетель", "я пенсионерка": no job
            return False
        if any(k.pos == "PRON" and k.lemma in ("я",) for k in s.kids(noun, "nsubj")):
            return True
        earlier = [t for t in s.before(noun) if s.clause[t.id] == s.clause[noun.id]]
        while earlier and earlier[-1].pos in ("ADV", "ADJ", "PART", "DET"):
            earlier.pop()  # "я теперь ведущий дизайнер": the parse hung the job elsewhere
        if earlier and earlier[-1].pos == "PRON" and earlier[-1].lemma == "я" and (
                job_noun(noun.lemma) or AGENT.search(noun.lemma)):
            return True
        head = s.head_of(noun)
        if head is None or noun.rel not in ("appos", "conj", "parataxis"):
            return False
        return head.pos == "PROPN" and any(k.pos == "PRON" and k.lemma == "я"
                                           for k in s.kids(head, "nsubj"))

    def _works_on(self, s: Sentence, arg: Token, lem: str) -> bool:
        """"работает на Уралмаше", "работаю в сбере": a work place after "на" / "в" that the
        NER took for a place and pymorphy's dictionary knows as none (not "на Кипре", "в
        Казани": there one lives)."""
        return lem in WORK and s.preposition(arg) in ("на", "в", "во") and not geographic(
            arg.text)

    @staticmethod
    def _make(s: Sentence, at: int) -> str:
        """The make a vehicle noun is named by in the next words: Latin words or words
        pymorphy's dictionary does not know, past a comma and "у нас" ("киа рио")."""
        found: list[str] = []
        for t in s.tokens[at + 1:at + 6]:
            if not found and (t.text == "," or t.text.lower() in ("у", "нас", "меня", "нее",
                                                                  "неё", "него", "них")):
                continue
            if t.pos != "NUM" and re.fullmatch(r"[A-Za-zА-Яа-яЁё-]+", t.text) and (
                    not known_word(t.text) or re.fullmatch(r"[A-Za-z-]+", t.text)):
                found.append(t.text[:1].upper() + t.text[1:])
                continue
            break
        return " ".join(found[:2])

    def _occupation_of_named(self, s: Sentence, noun: Token,
                             names: dict[str, str]) -> str | None:
        """"Муж у меня Игорь, мастер цеха", "жена Лена, дизайнер": a lower-case animate noun
        in the nominative set off by a comma right after a person's name is what they do."""
        at = s.position[noun.id]
        if not (at >= 2 and s.tokens[at - 1].text == "," and noun.animate
                and noun.case == "Nom" and noun.text.islower()
                and kin.role_of(noun.text) is None and lexicon.kind_of(noun.lemma) is None
                and noun.lemma not in lexicon.FRIEND_NOUNS | PARTNER
                and MORE_KIN.get(noun.lemma) is None
                and not person_noun(noun.lemma)):  # "Зиночка, соседка моя": who, not a job
            return None
        name = names.get(s.tokens[at - 2].id)
        if name is None or self.mentions[name].type is not EntityType.PERSON:
            return None
        named = s.tokens[at - 2]
        if s.preposition(named):
            return None  # "мама в кемерово, бухгалтер": a place the NER took for a name
        if any(t.pos == "PRON" and t.lemma == "я" for t in s.in_clause(named)
               if s.position[t.id] < s.position[named.id]):
            return None  # "Я Игорь, программист": the speaker's (``_occupation_of_user``)
        return name

    def _job_subject(self, s: Sentence, noun: Token, names: dict[str, str]) -> str | None:
        """Who a job noun is said of when the tree makes it a predicate: its subject ("он
        хирург в РКБ", "Олег у неё мастером", "она у меня реставратор"), a person or the
        speaker. Which nouns are jobs is learned (``kinds.job_noun``), not listed."""
        if not (noun.pos == "NOUN" and noun.case in ("Nom", "Ins") and noun.text.islower()
                and kin.role_of(noun.text) is None and lexicon.kind_of(noun.lemma) is None
                and noun.lemma not in lexicon.FRIEND_NOUNS | PARTNER
                and MORE_KIN.get(noun.lemma) is None and job_noun(noun.lemma)):
            return None
        for subject in s.kids(noun, "nsubj"):
            if subject.id == noun.id:
                continue
            who = self._who(s, subject, names)
            if who is not None and (who == USER or who.startswith(ROLE_PREFIX) or (
                    who in self.mentions and self.mentions[who].type is EntityType.PERSON)):
                return who  # "муж у меня водитель": the relative the role names
        return None

    def _job_place(self, s: Sentence, noun: Token, who: str, names: dict[str, str],
                   clause: bool = False) -> None:
        """"мастер цеха на Уралмаше", "программист в Яндексе": an organisation after "в" /
        "на" that the job governs (or, with ``clause``, that follows it in its clause) is
        where its holder works."""
        kids = {t.id for t in s.kids(noun, "nmod", "obl")}
        for t in s.in_clause(noun) if clause else s.tokens:
            if not clause and t.id not in kids:
                continue
            place = names.get(t.id) or self._target(s, t, names, EntityType.ORGANISATION)
            if (place and s.position[t.id] > s.position[noun.id]
                    and s.preposition(t) in ("в", "во", "на")):
                if place == names.get(t.id) and self._works_on(s, t, "работать"):
                    self._retype(place, EntityType.ORGANISATION)
                if self.mentions[place].type is EntityType.ORGANISATION:
                    self._link(who, "works_at", place)
                    break

    def _owner(self, s: Sentence, noun: Token) -> str | None:
        """Whose a noun is: "мой" -> the person; "у Олега" -> Oleg."""
        for det in s.kids(noun, "det", "amod"):
            if det.text.lower() in POSSESSIVE:
                return USER
        after = s.tokens[s.position[noun.id] + 1:][:1]
        if after and after[0].text.lower() in POSSESSIVE:
            return USER  # "Кошка наша Мурка", "Сын мой": the possessive after the noun
        near = [t.text.lower() for t in s.tokens[max(0, s.position[noun.id] - 3):s.position[noun.id]]]
        if near[-2:] in (["у", "меня"], ["у", "нас"]) or near[-3:] in (
                ["у", "меня", "есть"], ["у", "нас", "есть"]):
            return USER  # "у меня есть парень Павел", "у меня парень Павел" (not "у меня на ноутбуке")
        return None

    def _owned(self, s: Sentence, noun: Token, who: str | None,
               names: dict[str, str], learned: EntityType | None = None) -> None:
        called = self._called(s, noun, names)
        kind = lexicon.kind_of(noun.lemma) or learned or (
            EntityType.PET if called and noun_kind(noun.lemma) is EntityType.PET else None)
        if kind is None or who is None:
            return
        if kind is EntityType.PET:
            pet_name = next((names[c.id] for c in [*s.kids(noun, "appos", "flat", "nmod", "nsubj"),
                                                   *self._beside(s, noun),
                                                   *self._breed_names(s, noun)]
                             if c.id in names and self.mentions[names[c.id]].type in (
                                 EntityType.PET, EntityType.PERSON)), called) or (
                self._named_pet(s, noun, names))
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
            self._link(who, "has_condition", self._thing(s, noun, kind, names))
        elif kind is EntityType.HOBBY:
            self._link(who, "does", self._thing(s, noun, kind, names))
        else:
            self._link(who, "owns", self._thing(s, noun, kind, names))

    def _thing(self, s: Sentence, noun: Token, kind: EntityType, names: dict[str, str]) -> str:
        """A thing's mention as the phrase names it: a hobby, an illness or an occupation
        with the adjectives before it and a genitive after it ("фигурным катанием" ->
        фигурное катание, "диабет второго типа", "главным бухгалтером", "мастер цеха"), a device with the make after it ("смартфон
        Самсунг", "ноутбук Lenovo"), the noun's lemma its alias; else the noun's lemma."""
        name = head = hobby_name(noun) if kind is EntityType.HOBBY else noun.lemma
        at = s.position[noun.id]
        if kind in (EntityType.HOBBY, EntityType.ILLNESS, EntityType.OCCUPATION):
            before: list[str] = []
            ill = kind is EntityType.ILLNESS
            for t in reversed(s.tokens[:at]):
                said = agreeing_nominative(t.text, name) if t.pos == "ADJ" and (
                    t.head == noun.id or (ill and illness.agrees(t, noun))) and (
                    t.text.islower()) else None  # "МРТ: межпозвоночная грыжа": hung elsewhere
                if said is None:
                    break
                before.insert(0, said)
            tail = self._genitives(s, noun)
            after = s.tokens[at + 1:at + 3]
            if not tail and ill:  # "аллергия на кошек": to what, as said; "диабет 2 типа",
                tail = (self._what_to(s, noun) or illness.numbered_genitive(s, noun)
                        or illness.named_genitive(s, noun))  # "болезнь Паркинсона"
            code = illness.disc(self.text, s, noun, s.position[tail[-1].id] if tail else at) if (
                ill) else ""  # "грыжа L5-S1"
            if tail or code:
                said_tail = " ".join([*(t.text for t in tail), *([code] if code else [])])
                if ill:
                    aliases = illness.aliases(head, before, said_tail)
                    return self._mention(" ".join([*before, head, said_tail]), kind, aliases)
                before.append(name)
                name = " ".join(t.text for t in tail)
            elif (kind is EntityType.OCCUPATION and len(after) == 2
                  and after[0].text.lower() == "по" and after[1].pos == "NOUN"):
                before.append(name)  # "бухгалтер по зарплате", "менеджер по продажам"
                name = " ".join(t.text for t in after)
            name = " ".join([*before, name])
        elif kind is EntityType.VEHICLE:
            written = self._make(s, at)
            if written:  # "машина у нас киа рио", "взяли машину, хавал джолион": the make
                return self._mention(written, kind, (head,))
        elif kind is EntityType.DEVICE and at + 1 < len(s.tokens):
            make = s.tokens[at + 1]
            if make.id not in names and (make.pos == "PROPN" or re.fullmatch(
                    r"[A-Za-z][\w-]*", make.text)):
                name = f"{name} {make.text}"
        return self._mention(name, kind, (head,))  # "диабет" is a name of it too

    @classmethod
    def _what_to(cls, s: Sentence, noun: Token) -> list[Token]:
        """"аллергия на пыльцу берёзы", "аллергия на собачью шерсть": the "на" phrase the tree
        hangs on an illness right after it (the illness is a reaction to it), with the
        adjectives before its noun and its genitives after, as said; else nothing."""
        at = s.position[noun.id]
        if at + 2 >= len(s.tokens) or s.tokens[at + 1].text.lower() != "на":
            return []
        phrase = [s.tokens[at + 1]]
        for t in s.tokens[at + 2:at + 5]:
            phrase.append(t)
            if t.pos in ("NOUN", "PROPN"):
                if t.head != noun.id or s.preposition(t) != "на" or t.case != "Acc":
                    return []
                return phrase + cls._genitives(s, t)
            if t.pos != "ADJ" or t.case != "Acc":
                return []
        return []

    @staticmethod
    def _genitives(s: Sentence, noun: Token) -> list[Token]:
        """The genitive phrase a noun's name carries after it, as the tree hangs it: "мастер
        цеха", "диабет второго типа", "начальник отдела геологоразведки", "учитель
        английского" (an adjective standing for its noun); up to four words."""
        at = s.position[noun.id]
        chain, taken = {noun.id}, []
        for t in s.tokens[at + 1:at + 5]:
            if t.case != "Gen" or t.pos not in ("NOUN", "ADJ") or s.preposition(t) or (
                    t.pos == "NOUN" and t.head not in chain):
                break
            chain.add(t.id)
            taken.append(t)
        while taken and taken[-1].pos == "ADJ" and taken[-1].head not in {
                noun.id, *(t.id for t in taken if t.pos == "NOUN")}:
            taken.pop()  # the adjective of a noun the phrase does not reach
        return taken

    def _breed_names(self, s: Sentence, noun: Token) -> list[Token]:
        """"собака, бигль Ричи", "собака, хаски Луна": the name apposed to a second noun
        (the breed) that the parser hung on the pet's noun right after it; a relative's or a
        listed kind's noun is no breed."""
        at = s.position[noun.id]
        return [name for c in s.kids(noun, "conj", "appos")
                if c.pos == "NOUN" and 0 < s.position[c.id] - at <= 2
                and kin.role_of(c.lemma) is None
                and lexicon.kind_of(c.lemma) in (None, EntityType.PET)
                for name in s.kids(c, "appos", "flat", "nmod") if name.pos == "PROPN"]

    def _named_project(self, s: Sentence, names: dict[str, str]) -> None:
        """"с лёхой пилим пет-проект, трекер привычек, назвали Пульс", "бот для учёта
        расходов, называется копилка", "открывает свою кофейню вместе с другом мишей. назвать
        хотят «зерно»": the name a naming word ("назвать", "называться") gives to something
        made is a project. Something made: the nouns said before the naming word in its
        sentence (else in the sentence before) include one the parser calls inanimate and none
        that is an animal, a child, a relative or a thing the lexicon or navec's neighbours
        type (a pet's, a daughter's or a car's name is no project). Its makers: the speaker
        when a verb before it is in the first person or "мой" / "наш" / "мы" is said, else the
        first verb's subject; and the people named after "с" / "со" there ("с лехой и
        тимуром пилим")."""
        tokens = s.tokens
        for i, t in enumerate(tokens):
            if t.lemma not in ("назвать", "называться") or t.pos not in ("VERB", "AUX"):
                continue
            span, span_names, where = tokens[:i], names, s
            if not any(u.pos == "NOUN" for u in span) and self.previous is not None:
                where, span_names = self.previous
                span = [*where.tokens, *tokens[:i]]
            known = {**span_names, **names}
            nouns = [u for u in span if u.pos == "NOUN" and u.id not in known]
            before = [u for u in (self.previous[0].tokens if self.previous and where is s
                                  else []) if u.pos == "NOUN"]  # "подарил котёнка!! сфинкс, назвали ..."
            if not any(not u.animate for u in nouns) or any(
                    lexicon.kind_of(u.lemma) or noun_kind(u.lemma) or u.lemma in _CHILDREN
                    or u.lemma in lexicon.GROUP_NOUNS | lexicon.ORG_NOUNS  # a choir: member_of
                    or (u.animate and u.case in ("Nom", "Acc") and (
                        u not in nouns or not _someone_named(span, span.index(u), known)))
                    for u in [*nouns, *before]):  # ("для поиска попутчиков": no one named)
                continue
            said = [u for u in tokens[i + 1:i + 4] if u.text not in (",", "—", "-", ":", "«", '"')
                    and u.pos != "VERB"][:1]
            if not said:
                continue
            u = said[0]
            if only_verb(u.text) or _first_person_verb(u.text):
                continue  # "skillpad назывался, помянем": a verb, no name
            project = names.get(u.id)
            # "назвали Пульсом": the instrumental back to the name; else as written
            name = name_nominative(u.text, u.case) if u.case == "Ins" else u.text
            if project is not None and " " not in project and project.lower() != (
                    name.lower()) and not any(
                    x.source == project or x.target == project for x in self.links):
                # "называется гайка", "называется Пена": the NER's "Гай" / "Пен" is no one
                del self.mentions[project]
                project = None
            if project is None:
                if not re.fullmatch(r"[\w-]{2,}", u.text) or u.pos not in (
                        "NOUN", "PROPN", "ADJ", "X"):
                    continue
                project = self._mention(name, EntityType.PROJECT)
                self.first_at.setdefault(project, u.start)
            elif self.mentions[project].type not in (
                    EntityType.PROJECT, EntityType.ORGANISATION) and (
                    self.mentions[project].type is not EntityType.PERSON or any(
                        x.source == project or x.target == project for x in self.links)):
                continue
            self._retype(project, EntityType.PROJECT)
            makers: list[str] = []
            first = any((v.pos in ("VERB", "AUX") and v.person == "1") or (
                v.id not in known and v.text.islower() and _first_person_verb(v.text))
                for v in span) or any(  # ("пилим": the tagger's adjective)
                v.text.lower() in ("мой", "моя", "моё", "мое", "наш", "наша", "наше", "мы")
                for v in span)
            if first:
                makers.append(USER)
            else:
                said_in, said_names = (s, names) if any(
                    v.pos in ("VERB", "AUX") for v in tokens[:i]) else (where, span_names)
                verb = next((v for v in said_in.tokens[:i if said_in is s else None]
                             if v.pos in ("VERB", "AUX")), None)
                who = self._subject(said_in, verb, said_names) if verb is not None else None
                if who is None and verb is not None and verb.person == "3":
                    # "кореш лёха зовёт в свой стартап, пилят сервис": the one named before
                    who = next((said_names[x.id] for x in reversed(
                        said_in.tokens[:said_in.position[verb.id]]) if x.id in said_names
                        and self.mentions.get(said_names[x.id]) is not None and self.mentions[
                            said_names[x.id]].type is EntityType.PERSON), None)
                if who is not None:
                    makers.append(who)
            words = span
            for j, w in enumerate(words):
                if w.text.lower() not in COMITATIVE or w.pos != "ADP":
                    continue
                for x in words[j + 1:j + 6]:
                    maker = span_names.get(x.id) if x in where.tokens else names.get(x.id)
                    if maker and self.mentions.get(maker) and (
                            self.mentions[maker].type is EntityType.PERSON):
                        makers.append(maker)
                    elif x.pos not in ("NOUN", "ADJ", "CCONJ", "PROPN") or x.text == ",":
                        break
            for maker in dict.fromkeys(makers):
                self._link(maker, "part_of", project)

    def _named_pet(self, s: Sentence, noun: Token, names: dict[str, str]) -> str | None:
        """"взяли щенка корги, назвали рокки", "собака, спаниель по кличке Граф", "крыса!!
        зовут шпрота": the name a naming word ("назвать", "кличка", "звать") gives after the
        pet's noun in its sentence, the word right after it in the nominative; or at the
        opening of the next sentence ("взяли котёнка!! назвали бусинка")."""
        after = s.tokens[s.position[noun.id] + 1:]
        opening = [t for t in (self.following.tokens if self.following else [])
                   if re.search(r"\w", t.text)][:2]
        if not any(t.lemma in _NAMING_WORDS for t in after) and any(
                t.lemma in _NAMING_WORDS for t in opening):
            after, names = self.following.tokens if self.following else [], {}
        for i, t in enumerate(after):
            if t.lemma not in _NAMING_WORDS:
                continue
            said = [u for u in after[i + 1:i + 3] if u.text not in (",", "—", "-", ":")][:1]
            if not said:
                return None
            u = said[0]
            if u.id in names:
                return names[u.id]
            if u.pos in ("NOUN", "PROPN", "ADJ", "X") and re.fullmatch(r"[А-Яа-яЁё-]{2,}",
                                                                      u.text):
                # "назвали Персиком": the instrumental back to the name; else as written
                name = name_nominative(u.text, u.case) if u.case == "Ins" else u.text
                return self._mention(name[:1].upper() + name[1:], EntityType.PET)
            return None
        return None

    @staticmethod
    def _called(s: Sentence, noun: Token, names: dict[str, str]) -> str | None:
        """The name "зовут" gives right after a noun: "у нас кошка, зовут Муся"."""
        after = [t for t in s.tokens[s.position[noun.id] + 1:][:3] if t.text != ","]
        if len(after) >= 2 and after[0].lemma == "звать" and after[1].id in names:
            return names[after[1].id]
        return None

    def _married(self, s: Sentence, names: dict[str, str]) -> None:
        """"Женат на Насте", "замужем за Пашей", "вышла замуж за Игоря", "женился на Лейсан":
        the person after "на" / "за" is the spouse of whom the clause is about: a person its
        clause names before the word ("я", "Дима"), else the person the statement named last
        before it ("Дочь Ольга живёт в Хабаровске, замужем за Сергеем"), else the speaker."""
        tokens = s.tokens
        for i, t in enumerate(tokens):
            word = t.text.lower().replace("ё", "е")
            if word.startswith(("женат", "женил")):
                preposition, role = "на", "wife"
            elif word in ("замужем", "замуж"):
                preposition, role = "за", "husband"
            else:
                continue
            after = [a for a in tokens[i + 1:i + 3] if a.text != ","]  # "женился, на Лейсан"
            if not after or after[0].text.lower() != preposition:
                continue
            at = s.position[after[0].id]
            spouse = next((names[a.id] for a in tokens[at + 1:at + 4] if a.id in names
                           and self.mentions[names[a.id]].type is EntityType.PERSON), None)
            if spouse is None:
                continue
            holder: str | None = None
            for earlier in reversed([e for e in s.in_clause(t) if s.position[e.id] < i]):
                if earlier.case == "Nom" and (earlier.pos == "PRON" or earlier.id in names
                                              or kin.role_of(earlier.text) is not None):
                    holder = self._who(s, earlier, names)
                    if holder is not None:
                        break
            if holder is None:
                wanted = "Masc" if role == "wife" else "Fem"
                named = sorted((m.name for m in self.mentions.values()
                                if m.type is EntityType.PERSON and m.name != spouse
                                and self.first_at.get(m.name, len(self.text)) < t.start
                                and self.gender.get(m.name, wanted) == wanted),
                               key=lambda n: self.first_at[n])
                holder = named[-1] if named else USER
            if holder == USER:
                self._mention(spouse, EntityType.PERSON, (kin.role_name(role, "ru"),))
            self._link(holder, kin_link(role), spouse)

    def _possessions(self, s: Sentence, names: dict[str, str]) -> None:
        """"У меня кот Барсик", "у Олега диабет", "мой ноутбук", "моя собака Рекс"."""
        for token in s.tokens:
            if token.pos not in ("NOUN", "PROPN"):
                # "У меня артроз": the tagger took the noun for a verb;
                # right after "у X" the noun's own lemma is read
                before = s.before(token)
                if (token.pos not in ("VERB", "ADJ") or len(before) < 2
                        or before[-2].text.lower() != "у" or not token.text.islower()):
                    continue
                token.lemma = lemma(token.text, "NOUN")
                token.case = token.case or "Nom"
            kind = lexicon.kind_of(token.lemma) or (
                EntityType.ILLNESS if token.case == "Nom" and token.pos == "NOUN"
                and noun_kind(token.lemma) is EntityType.ILLNESS else None)  # learned: "у неё X"
            if kind is None and not (token.pos == "NOUN" and self._called(s, token, names)
                                     and noun_kind(token.lemma) is EntityType.PET):
                continue  # (a breed, "у нас корги, зовут Бублик": the learned kind, named)
            owner: str | None = self._owner(s, token)
            for u in s.kids(token, "nmod", "obl"):  # "Дача у нас в Рамони", "машина у нас"
                if owner is None and s.preposition(u) == "у":
                    owner = self._who(s, u, names)
            head = s.head_of(token)
            if owner is None and head is not None and token.rel.startswith("nsubj"):
                for case_word in s.kids(head, "case"):
                    if case_word.text.lower() == "у":
                        owner = self._who(s, head, names)
                for u in s.kids(head, "obl", "nmod"):
                    if s.preposition(u) == "у":
                        owner = self._who(s, u, names)
            if owner is None and (token.case == "Nom" or kind is EntityType.ILLNESS):
                # "Живёт в Туле, у неё гипертония": "у" and its owner earlier in the clause;
                # "у папы нашли гипертонию": the father's, not the finder's
                clause = [t for t in s.in_clause(token) if s.position[t.id] < s.position[
                    token.id]]
                for i, t in enumerate(clause[:-1]):
                    if t.text.lower() == "у" and t.pos == "ADP":
                        owner = self._who(s, clause[i + 1], names)
                after = [t for t in s.in_clause(token) if s.position[t.id] > s.position[
                    token.id]]
                at = len(self._genitives(s, token))  # past "второго типа"
                if owner is None and kind is EntityType.ILLNESS and len(after) > at + 1 and (
                        after[at].text.lower() == "у"):
                    # "диабет второго типа у меня", "аритмия у него": "у" right after it
                    owner = self._who(s, after[at + 1], names)
            if owner is None and kind is EntityType.ILLNESS and head is not None and (
                    head.pos in ("VERB", "AUX")):
                # "Кате поставили гастрит": the one it was found in, else the verb's subject
                owner = self._dative(s, head, names) or self._subject(s, head, names)
            if owner is None and kind is EntityType.ILLNESS and token.case == "Nom" and not any(
                    (names.get(t.id) in self.mentions and self.mentions[names[t.id]].type
                     is EntityType.PERSON) or t.text.lower() == "у" for t in s.tokens) and not any(
                    m.type is EntityType.PET for m in self.mentions.values()):
                # "Спина отваливается, остеохондроз.": no one else named, the speaker; not
                # when the statement names a pet ("Тузик захромал. Ветеринар сказал, артрит")
                owner = USER
            if owner is not None:
                self._owned(s, token, owner, names, kind)



# nouns of one's children in the plural and the role each names ("child": by the name)
_CHILDREN = {"ребёнок": "child", "ребенок": "child", "дети": "child", "сын": "son",
             "дочь": "daughter", "дочка": "daughter", "пацан": "son", "мальчик": "son"}
_COUNTS = {"двое": 2, "трое": 3, "четверо": 4, "два": 2, "две": 2, "три": 3, "четыре": 4,
           "2": 2, "3": 3, "4": 4}


_OPEN = "«\"„“"
# an ordinal's ending the tokenizer splits from its digits ("132ю", "9м", "130й")
_ORDINAL_ENDINGS = frozenset({"й", "я", "е", "ю", "м", "х", "ой", "ая", "ую", "ом", "ем", "ей",
                              "го", "му", "ых", "ий", "ого", "ому"})


def _firm_name(text: str, start: int, stop: int, inside: list[Token],
               head: Token) -> tuple[str, tuple[str, ...]] | None:
    """An organisation the NER read with its legal form or generic noun and its quoted name
    ("ООО «Волгатрансстрой»", "при ДК «Рубин»", "в СНТ «Рассвет"): known by the quoted name,
    the form before it kept as aliases; one said in an oblique case ("при Дворце творчества",
    "в школу Салавата Юлаева") brought to the nominative by its head and the words agreeing
    with it, the dependents kept as said. None when neither applies."""
    said = text[start:stop]
    opened = next((i for i, c in enumerate(said) if c in _OPEN), None)
    if opened is not None and opened > 0:
        inner = re.split(r"[»\"”“]", said[opened + 1:], maxsplit=1)[0].strip()
        quoted = [t for t in inside if t.start >= start + opened + 1]
        if not inner or not quoted:
            return None
        if len(quoted) == 1 and quoted[0].case not in (None, "Nom") and not (
                nominative_reading(quoted[0].text)):
            inner = name_nominative(quoted[0].text, quoted[0].case)
        form = said[:opened].strip()
        forms = [form]
        before = [t for t in inside if t.stop <= start + opened]
        top = next((t for t in before if t.head not in {b.id for b in before}), None)
        if top is not None and (named := _firm_name(text, start, before[-1].stop, before, top)):
            forms.append(named[0])  # "при Доме культуры «Заря»": Дом культуры Заря
        return inner, tuple(dict.fromkeys(a for f in forms for a in (f"{f} «{inner}»",
                                                                      f"{f} {inner}")))
    if opened is not None or len(inside) < 2 or head.case in (None, "Nom") or head.pos not in (
            "NOUN", "PROPN"):
        return None
    words = [name_nominative(t.text, t.case) if t is head or (
        t.head == head.id and t.case == head.case and t.rel.startswith("flat") and t.pos in (
            "NOUN", "PROPN")) else adjective_nominative(t) if (
        t.head == head.id and t.pos == "ADJ" and t.case == head.case) else t.text
        for t in inside]
    name = " ".join(w[:1].upper() + w[1:] if t.text[:1].isupper() else w
                    for w, t in zip(words, inside, strict=True))
    return (name, ()) if name != " ".join(t.text for t in inside) else None


__all__ = ["read", "read_many"]
